// Everything the page does differently for each dialect: how a program runs,
// what its parts are called, which parts of the page it has, how it is
// completed, laid out (Format) and where an error's path points in it. The
// rest of the page asks the current dialect instead of testing which one it is.
// Examples name their dialect (examples.ts).
import type { CompletionSource } from "@codemirror/autocomplete";
import type { EditorState } from "@codemirror/state";
import { ptcCompletionSource, stepFunctionCompletionSource } from "../../js/src/editor/completion.js";
import { errorLine } from "../../js/src/editor/errors.js";
import type { DialectId } from "./examples.js";
import { formatJson } from "../../js/src/editor/format.js";
import { ptcPointerRange } from "../../js/src/editor/diagnostics.js";
import type {
  CallResult,
  JournalEntry,
  Operation,
  PtcError,
  PtcRuntime,
  RunResult,
  RunSuspended,
  Tool,
  WorkflowResult,
} from "./ptc.js";
import { formatStepFunctions, parseStepFunctions, resolveStepFunctionsPointer } from "./step-functions.js";

export interface RunInputs {
  /** PTC-JSON: the context; step functions: the entry's input. */
  data: Record<string, unknown>;
  memory: Record<string, unknown>;
  /** Step functions: the function to run (default: the last of the file). */
  entry?: string;
  tools: Record<string, Tool>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Answer the calls from this recording instead of the tools (replay). */
  replay?: JournalEntry[];
}

export type Outcome = RunResult | WorkflowResult;

/** A run stopped at calls that wait for a decision (approvals). */
export type Suspended = RunSuspended;

/** What completion may offer, read when it is asked. */
export interface CompletionHints {
  operations: () => Operation[] | null;
  toolNames: () => string[];
  contextKeys: () => string[];
  functionNames: () => string[];
}

/** The parts of the page a dialect has (the others are hidden while it is shown). */
export interface DialectParts {
  /** The tool calls card. */
  toolCalls: boolean;
  /** The memory card, Next turn, and memory and turn in a share link. */
  memory: boolean;
  /** The entry function selector (and the entry in a share link). */
  entry: boolean;
  /** The trace card. */
  trace: boolean;
  /** The operation reference. */
  reference: boolean;
}

export interface Dialect {
  id: DialectId;
  /** The chip next to the program's heading. */
  label: string;
  /** The program editor's accessible name. */
  programLabel: string;
  /** The first input tab: "Context" or "Input". */
  dataTab: string;
  /** The data editor's accessible name. */
  dataLabel: string;
  /** What the data tab's object looks like, for the error when it is not one. */
  dataShape: string;
  parts: DialectParts;
  run(runtime: PtcRuntime, source: string, inputs: RunInputs): Promise<Outcome>;
  /** Continues a suspended run with the decisions on its pending calls. */
  resume(runtime: PtcRuntime, s: Suspended, results: Record<string, CallResult>, inputs: RunInputs): Promise<Outcome>;
  /** Completion in the program editor. */
  completion(hints: CompletionHints): CompletionSource;
  /** The program laid out again; null while it does not parse. */
  format(source: string): string | null;
  /** What Format says when the program does not parse. */
  formatProblem: string;
  /**
   * The text range an error's JSON Pointer names in the program: `program` is
   * the text that ran, `editor` the editor's state now (PTC-JSON resolves the
   * pointer on its syntax tree).
   */
  errorRange(path: string, program: string, editor: EditorState): { from: number; to: number } | null;
  /** An error as one text. */
  formatError(error: PtcError, runtime: PtcRuntime | null): string;
}

const ptcJson: Dialect = {
  id: "ptc-json",
  label: "PTC-JSON",
  programLabel: "Program (PTC-JSON)",
  dataTab: "Context",
  dataLabel: "Context (JSON): data the program reads with load",
  dataShape: '{"name": data, …}',
  parts: { toolCalls: true, memory: true, entry: false, trace: false, reference: true },
  // The trace draws the timeline; the journal is what "Replay recorded tool results" replays.
  run: (runtime, source, o) =>
    runtime.run(source, {
      context: o.data,
      memory: o.memory,
      tools: o.tools,
      timeoutMs: o.timeoutMs,
      signal: o.signal,
      trace: true,
      journal: true,
      replay: o.replay,
    }),
  resume: (runtime, s, results, o) =>
    runtime.resume(s.state, {
      results,
      context: o.data,
      tools: o.tools,
      timeoutMs: o.timeoutMs,
      signal: o.signal,
      trace: true,
      journal: true,
    }),
  completion: (hints) => ptcCompletionSource(hints),
  format(source) {
    try {
      return formatJson(JSON.parse(source));
    } catch {
      return null;
    }
  },
  formatProblem: "The program is not valid JSON yet; fix the marked error first",
  errorRange: ptcPointerRange,
  // The engine's own layout: "ValidationError at /program/…: …".
  formatError: (error, runtime) => (runtime ? runtime.formatError(error) : errorLine(error)),
};

const stepFunctions: Dialect = {
  id: "step-functions",
  label: "Step functions",
  programLabel: "Program (step functions: function objects one after another)",
  dataTab: "Input",
  dataLabel: "Input (JSON): the entry function's parameters",
  dataShape: '{"parameter": value, …}',
  parts: { toolCalls: false, memory: false, entry: true, trace: true, reference: false },
  run: (runtime, source, o) =>
    runtime.runWorkflow(source, {
      entry: o.entry,
      input: o.data,
      tools: o.tools,
      timeoutMs: o.timeoutMs,
      signal: o.signal,
    }),
  resume: (runtime, s, results, o) =>
    runtime.resume(s.state, { results, tools: o.tools, timeoutMs: o.timeoutMs, signal: o.signal }),
  completion: (hints) => stepFunctionCompletionSource(hints),
  format(source) {
    const file = parseStepFunctions(source);
    return file ? formatStepFunctions(file) : null;
  },
  formatProblem: "The file is not JSON objects one after another yet; fix the marked error first",
  errorRange(path, program) {
    const file = parseStepFunctions(program);
    const range = file && resolveStepFunctionsPointer(file, path);
    return range ? { from: range.from, to: range.to } : null;
  },
  formatError: (error) => errorLine(error),
};

export const dialects: Record<DialectId, Dialect> = { "ptc-json": ptcJson, "step-functions": stepFunctions };
