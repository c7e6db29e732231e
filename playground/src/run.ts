// Running the program: on every edit (debounced) and on demand. Reads the data
// tab, evaluates the mock tools in their sandbox (unless a link's tools wait for
// consent), wraps each tool to list its calls, runs the program in the current
// dialect, and hands the outcome to the outcome view. A newer run aborts the
// one under way; only the latest run's outcome is shown.
import { announce } from "./announce.js";
import { isHeld, release } from "./consent.js";
import { hidePending, showPending } from "./approvals.js";
import type { Dialect, Outcome, RunInputs } from "./dialects.js";
import { mark, textOf } from "../../js/src/editor/codemirror.js";
import { findJsonSyntaxError, tokenEnd } from "../../js/src/editor/positions.js";
import { createToolSandbox } from "./sandbox.js";
import {
  renderCalls,
  setStatus,
  showConsent,
  showFailure,
  showHeld,
  showInputProblem,
  showOutcome,
  showSuspended,
  type CallRecord,
  type InputProblem,
} from "./outcome.js";
import type { JournalEntry, Tool, ToolCallTrace, TraceEntry } from "./ptc.js";
import { $ } from "./render.js";
import { dialect, state, views } from "./state.js";
import type { StepFunctionsFile } from "./step-functions.js";
import { renderTimeline } from "./timeline.js";
import { currentEntry, showTrace, updateFunctions } from "./trace-panel.js";

const TIMEOUT_MS = 1000;
const DEBOUNCE_MS = 250;

/** Where the mock tools' code runs: a sandboxed frame, never this page. */
const sandbox = createToolSandbox();

let runSeq = 0;
let controller: AbortController | null = null;
let debounce: ReturnType<typeof setTimeout> | undefined;

export function scheduleRun(): void {
  clearTimeout(debounce);
  debounce = setTimeout(() => void runNow(), DEBOUNCE_MS);
}

/** The mock tools' names as last evaluated, for completion (held tools are never evaluated). */
export const mockToolNames = () => (isHeld(textOf(views.tools)) ? [] : sandbox.names());

/**
 * Flags a link's held tools at once, or evaluates the tools (in their frame)
 * while the engine loads, so that the first run finds them cached.
 */
export function prepareTools(): void {
  const text = textOf(views.tools);
  if (isHeld(text)) showConsent(true);
  else void sandbox.compile(text);
}

/** The visitor read the link's tools and lets them run (in the sandbox). */
export function trustTools(): void {
  release();
  announce("The link's tools are trusted and run");
  void runNow();
}

/** The Context tab's JSON object (for step functions: the entry's input). */
function readContext(): { ok: true; value: Record<string, unknown> } | { ok: false; problem: InputProblem } {
  const text = textOf(views.context);
  const name = dialect().dataTab;
  const syntax = findJsonSyntaxError(text);
  if (syntax) {
    const to = Math.max(tokenEnd(text, syntax.index), Math.min(syntax.index + 1, text.length));
    mark(views.context, [
      { from: Math.min(syntax.index, text.length), to, severity: "error", message: syntax.message },
    ]);
    return { ok: false, problem: { where: "context", message: `${name} is not valid JSON: ${syntax.message}` } };
  }
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    mark(views.context, [
      { from: 0, to: text.length, severity: "error", message: `The ${name.toLowerCase()} must be a JSON object` },
    ]);
    return {
      ok: false,
      problem: { where: "context", message: `The ${name.toLowerCase()} must be a JSON object: ${dialect().dataShape}` },
    };
  }
  mark(views.context, []);
  return { ok: true, value: value as Record<string, unknown> };
}

type CompiledOk = Extract<Awaited<ReturnType<typeof sandbox.compile>>, { ok: true }>;

/** One run of the program, over its legs (a suspended run resumes in a new leg). */
interface Run {
  seq: number;
  d: Dialect;
  program: string;
  file: StepFunctionsFile | null;
  inputs: RunInputs;
  /** Every live tool call of the run, all legs. */
  calls: CallRecord[];
  /** The current leg (from 1) and when it started (performance.now()). */
  leg: number;
  legStart: number;
}

/**
 * The run's tools: each forwards to the sandbox and records its call (listed
 * while it waits). A descriptor's traits go to the package (`effect: "write"`,
 * `approval`); its approval check runs in the sandbox too.
 */
function recordedTools(compiled: CompiledOk, run: Run): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  const isCurrent = () => run.seq === runSeq;
  for (const name of compiled.names) {
    let count = 0; // calls of this tool in this run (a mock's `{ call }`)
    const execute = async (args: Record<string, unknown>) => {
      const at = performance.now() - run.legStart;
      const record: CallRecord = { tool: name, args: structuredClone(args), state: "pending", leg: run.leg, at };
      run.calls.push(record);
      if (isCurrent()) renderCalls(run.calls);
      try {
        const value = await compiled.call(name, args, { call: count++ });
        record.state = "ok";
        record.result = value === undefined ? null : JSON.parse(JSON.stringify(value) ?? "null");
        return value;
      } catch (e) {
        record.state = "error";
        record.error = e instanceof Error ? e.message : String(e);
        throw e;
      } finally {
        record.ms = performance.now() - run.legStart - at;
        if (isCurrent()) renderCalls(run.calls);
      }
    };
    const traits = compiled.traits[name];
    tools[name] = !traits
      ? execute
      : {
          execute,
          effect: traits.write ? "write" : "read",
          approval:
            traits.approval === "always"
              ? true
              : traits.approval === "check"
                ? (args: Record<string, unknown>) => compiled.needsApproval(name, args)
                : false,
        };
  }
  return tools;
}

export async function runNow(): Promise<void> {
  clearTimeout(debounce);
  const runtime = state.runtime;
  if (!runtime) return; // runs when the engine is ready
  const seq = ++runSeq;
  const isCurrent = () => seq === runSeq;
  controller?.abort(new Error("superseded by a newer run"));
  const abort = (controller = new AbortController());
  const d = dialect();
  const program = textOf(views.program);
  const file = d.parts.entry ? updateFunctions(program) : null;
  const toolsText = textOf(views.tools);
  const held = isHeld(toolsText);
  showConsent(held);
  if (held) {
    hidePending();
    renderTimeline(undefined, 0);
    return showHeld();
  }

  const context = readContext();
  // Replaying: the recording answers every call, so the tools are not even evaluated.
  const replay = recording ?? undefined;
  const compiled = replay ? null : await sandbox.compile(toolsText);
  if (!isCurrent()) return; // edited while the tools were evaluated
  const problem = !context.ok
    ? context.problem
    : compiled && !compiled.ok
      ? { where: "tools" as const, message: compiled.message }
      : null;
  showInputProblem(problem);
  if (problem) {
    const code = problem.where === "tools" ? "tool_failed" : "not_json";
    hidePending();
    renderTimeline(undefined, 0);
    showFailure({ type: "execution_error", code, message: problem.message }, program, [], problem.where);
    if (d.parts.trace) showTrace([]);
    state.runsDone++;
    return;
  }

  const run: Run = {
    seq,
    d,
    program,
    file,
    calls: [],
    leg: 0,
    legStart: 0,
    inputs: {
      data: context.ok ? context.value : {},
      memory: state.memoryIn,
      entry: d.parts.entry ? currentEntry() : undefined,
      tools: {},
      timeoutMs: TIMEOUT_MS,
      signal: abort.signal,
      replay,
    },
  };
  if (compiled?.ok) run.inputs.tools = recordedTools(compiled, run);
  if (state.firstResultAt === null) performance.mark("ptc-first-run-start");
  await runLeg(run, (inputs) => d.run(runtime, program, inputs));
}

/** One leg of a run (the first, or a resumed one): runs it and shows what it gives. */
async function runLeg(run: Run, start: (inputs: RunInputs) => Promise<Outcome>): Promise<void> {
  const isCurrent = () => run.seq === runSeq;
  const { d } = run;
  run.leg++;
  run.legStart = performance.now();
  const slow = setTimeout(() => {
    if (isCurrent()) setStatus("running", "Running…");
  }, 120);
  document.body.dataset.status = "running";
  let result: Outcome;
  try {
    result = await start(run.inputs);
  } catch (e) {
    result = {
      ok: false,
      error: {
        type: "execution_error",
        code: "engine_crashed",
        message: e instanceof Error ? e.message : String(e),
      },
    };
  }
  const elapsed = performance.now() - run.legStart;
  clearTimeout(slow);
  if (state.firstResultAt === null) performance.mark("ptc-first-run-end");
  // A tool still waiting when its run timed out may be stuck in an endless loop: a fresh frame for the next run.
  if (!result.ok && result.error.type === "timeout" && run.calls.some((c) => c.state === "pending")) sandbox.restart();
  if (!isCurrent()) return; // a newer run is on its way
  state.runsDone++;
  state.latest = result;
  if (!run.inputs.replay && result.journal?.length) lastJournal = result.journal;
  renderReplay();
  if ("status" in result && result.status === "suspended") {
    showSuspended(result.pending.length, run.calls);
    // A suspended step-function run's trace so far: its held step is "waiting for a decision".
    if (d.parts.trace) showTrace((result.trace ?? []) as TraceEntry[], undefined, run.file);
    showPending(result, (results) => {
      if (!isCurrent() || !state.runtime) return; // edited since: that run replaces this one
      const runtime = state.runtime;
      controller = new AbortController();
      run.inputs.signal = controller.signal;
      void runLeg(run, (inputs) => d.resume(runtime, result, results, inputs));
    });
  } else {
    hidePending();
    showOutcome(d, result, run.program, run.calls, run.file);
  }
  if (d.parts.toolCalls) {
    const trace = "trace" in result ? (result.trace as ToolCallTrace[] | undefined) : undefined;
    renderTimeline(trace, elapsed);
  }
  if (state.firstResultAt === null) {
    state.firstResultAt = performance.now();
    performance.mark("ptc-first-result");
  }
}

/** The recording that answers the calls while "Replay recorded tool results" is on. */
let recording: JournalEntry[] | null = null;
/** The tool I/O of the latest run whose tools answered (what turning replay on records). */
let lastJournal: JournalEntry[] = [];

/** The replay toggle and its note, as the recording stands. */
function renderReplay(): void {
  const toggle = $<HTMLInputElement>("replay-toggle");
  toggle.checked = recording !== null;
  toggle.disabled = recording === null && lastJournal.length === 0;
  const n = recording?.length ?? lastJournal.length;
  const results = `${n} tool result${n === 1 ? "" : "s"}`;
  $("replay-note").textContent = recording
    ? `Replaying ${results}: the mock tools do not run; a call not recorded ends the run.`
    : n
      ? `Turning this on answers later runs with the last run's ${results}.`
      : "";
}

/** "Replay recorded tool results": on, the last run's tool I/O answers every later run's calls. */
export function setReplay(on: boolean): void {
  recording = on ? lastJournal.slice() : null;
  renderReplay();
  announce(on ? "Replaying the recorded tool results" : "The mock tools run again");
  void runNow();
}

/** A new session (an example, a link): its runs start with no recording. */
export function resetReplay(): void {
  recording = null;
  lastJournal = [];
  renderReplay();
}
