// Step functions' side of the page: the entry function selector (the file's
// functions as last parsed) and the trace card of the latest run (trace.ts
// draws the rows; a picked row marks its step in the program).
import { announce } from "./announce.js";
import { markRange, textOf } from "../../js/src/editor/codemirror.js";
import { ERROR_TITLES } from "../../js/src/editor/errors.js";
import type { PtcError, TraceEntry } from "./ptc.js";
import { $, el } from "./render.js";
import { state, views } from "./state.js";
import {
  functionsOf,
  parseStepFunctions,
  resolveStepFunctionsPointer,
  valueAt,
  type FunctionInfo,
  type StepFunctionsFile,
} from "./step-functions.js";
import { renderTrace, type StepSource } from "./trace.js";

/** The functions of the file as last parsed. */
let fileFunctions: FunctionInfo[] = [];
/** The program that produced the trace on screen, parsed (labels come from its steps). */
let ranFile: StepFunctionsFile | null = null;

export const functionNames = () => fileFunctions.map((f) => f.name);

/** Parses the step-function file; when it parses, refreshes the entry list. */
export function updateFunctions(program: string): StepFunctionsFile | null {
  const file = parseStepFunctions(program);
  if (file) {
    const next = functionsOf(file);
    if (JSON.stringify(next) !== JSON.stringify(fileFunctions)) {
      fileFunctions = next;
      renderEntrySelect();
    }
  }
  return file;
}

/** Forgets the last file's functions, then reads the program's (a dialect was just shown). */
export function resetFunctions(program: string): void {
  fileFunctions = [];
  updateFunctions(program);
  renderEntrySelect();
}

/** The entry to run: the visitor's pick while the file has it, else the last function. */
export function currentEntry(): string | undefined {
  if (state.entryChoice && fileFunctions.some((f) => f.name === state.entryChoice)) return state.entryChoice;
  return fileFunctions[fileFunctions.length - 1]?.name;
}

export function renderEntrySelect(): void {
  const select = $<HTMLSelectElement>("entry-select");
  const entry = currentEntry();
  const last = fileFunctions.length - 1;
  select.replaceChildren(
    ...fileFunctions.map((f, i) =>
      el("option", { value: f.name }, i === last ? `${f.name} (the last: default)` : f.name),
    ),
  );
  if (entry) select.value = entry;
  select.disabled = fileFunctions.length === 0;
  const info = fileFunctions.find((f) => f.name === entry);
  const params = info ? Object.entries(info.input).map(([k, t]) => `${k} (${t})`) : [];
  $("entry-params").textContent = info ? (params.length ? `takes ${params.join(", ")}` : "takes no input") : "";
}

/** The step object (or compensation call) at a trace entry's path, for its row's label. */
function stepSource(path: string): StepSource | undefined {
  const step = ranFile ? valueAt(ranFile, path) : undefined;
  if (!step || typeof step !== "object" || Array.isArray(step)) return undefined;
  const s = step as Record<string, unknown>;
  const expr = "for" in s ? s.in : "if" in s ? s.if : "match" in s ? s.match : "expr" in s ? s.expr : undefined;
  return {
    let: typeof s.let === "string" ? s.let : undefined,
    for: typeof s.for === "string" ? s.for : undefined,
    expr,
  };
}

/** Marks a trace entry's step in the program (resolved in the text as it is now). */
function pickTraceEntry(entry: TraceEntry): void {
  const file = parseStepFunctions(textOf(views.program));
  const range = file && resolveStepFunctionsPointer(file, entry.path);
  if (!range) {
    announce(`Step ${entry.path} is not in the program as it is now`);
    return;
  }
  markRange(views.program, range);
  const line = views.program.state.doc.lineAt(range.from).number;
  announce(`Marked ${entry.kind} step ${entry.path} in the program, line ${line}`);
}

/**
 * The trace of the latest step-function run (or the trace so far of a failed
 * one); `file` is the program that ran, parsed, when there is a new one.
 */
export function showTrace(trace: TraceEntry[] | undefined, error?: PtcError, file?: StepFunctionsFile | null): void {
  if (file !== undefined) ranFile = file;
  const list = $("trace");
  const entries = trace ?? [];
  const names = new Set(functionNames());
  renderTrace(list, entries, names, { stepAt: stepSource, onPick: pickTraceEntry, entry: currentEntry() });
  const note = $("trace-note");
  note.hidden = !error || entries.length === 0;
  note.textContent = error
    ? `The trace so far: the run stopped with ${ERROR_TITLES[error.type]?.toLowerCase() ?? error.type} at the last step.`
    : "";
  $("trace-empty").hidden = entries.length > 0;
  $("trace-empty").textContent = error
    ? error.type === "parse_error" || error.type === "validation_error"
      ? "Nothing ran: the file does not verify."
      : "No step ran."
    : "No step ran.";
  $("trace-count").textContent = entries.length ? `${entries.length} step${entries.length === 1 ? "" : "s"}` : "";
}
