// The playground page: three editors (program, context or input, mock tools),
// a live run on every edit, results, tool calls, memory across turns, the trace
// of step functions, sharing, and the operation reference. Everything runs in
// the visitor's tab.
import type { CompletionContext } from "@codemirror/autocomplete";
import { forEachDiagnostic, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import type { EditorView } from "@codemirror/view";
import { ptcCompletionSource, stepFunctionCompletionSource } from "./completion.js";
import { dialects, type Outcome } from "./dialects.js";
import { createEditor, markedRangeOf, markRange, setLabel, setText, setWrapping } from "./editor.js";
import { exampleById, examples, type DialectId, type Example } from "./examples.js";
import { formatBytes, formatJson, formatMs } from "./format.js";
import { byteOffsetToIndex, findJsonSyntaxError, resolvePointer, tokenEnd } from "./positions.js";
import { loadEngine, type Engine, type Operation, type PtcError, type PtcRuntime, type RunResult, type RunSuccess, type TraceEntry, type WorkflowResult } from "./ptc.js";
import { renderReference } from "./reference.js";
import { el, escapeHtml, showJson, summarize } from "./render.js";
import { functionsOf, parseStepFunctions, formatStepFunctions, resolveStepFunctionsPointer, valueAt, type FunctionInfo, type StepFunctionsFile } from "./step-functions.js";
import { decodeSession, encodeSession, type Session } from "./share.js";
import { holdLinkTools, isHeld, release } from "./consent.js";
import { createToolSandbox } from "./sandbox.js";
import { renderTrace, type StepSource } from "./trace.js";

performance.mark("ptc-app-start");
const TIMEOUT_MS = 1000;
const DEBOUNCE_MS = 250;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** Where the mock tools' code runs: a sandboxed frame, never this page. */
const sandbox = createToolSandbox();

// ---- state -----------------------------------------------------------------

type StepFunctionsSuccess = Extract<WorkflowResult, { ok: true }>;

let runtime: PtcRuntime | null = null;
let engineInWorker = false;
let operations: Operation[] | null = null;
let exampleId: string | undefined;
/** The dialect of the program in the editor. */
let dialect: DialectId = "ptc-json";
/** Step functions: the entry the visitor picked (else the file's last function). */
let entryChoice: string | undefined;
/** Step functions: the functions of the file as last parsed. */
let fileFunctions: FunctionInfo[] = [];
let turn = 1;
let memoryIn: Record<string, unknown> = {};
/** The last successful run, shown greyed while the current inputs fail. */
let lastGood: Outcome | null = null;
/** The outcome of the latest run (for the test hook and Next turn). */
let latest: Outcome | null = null;
let runSeq = 0;
let runsDone = 0;
let controller: AbortController | null = null;
let debounce: ReturnType<typeof setTimeout> | undefined;
let firstResultAt: number | null = null;
let errorRange: { from: number; to: number } | null = null;

// ---- the first session: a shared link, else the first example --------------
// Read before the editors exist, so they are created with their text (setting
// it afterwards would cost three more editor updates before the first result).

interface Initial {
  session: Session;
  /** The session came from the URL (its tools are a stranger's code). */
  fromLink?: boolean;
  /** Why the shared link could not be used. */
  problem?: string;
}

async function initialSession(): Promise<Initial> {
  const ex = examples[0];
  const fallback: Session = { dialect: ex.dialect, program: ex.turns[0].program, context: ex.context, tools: ex.tools, example: ex.id, entry: ex.entry };
  try {
    const shared = location.hash && location.hash !== "#" ? await decodeSession(location.hash) : null;
    return shared ? { session: shared, fromLink: true } : { session: fallback };
  } catch (e) {
    return { session: fallback, problem: (e as Error).message };
  }
}

const initial = await initialSession();
exampleId = initial.session.example && exampleById(initial.session.example) ? initial.session.example : undefined;
dialect = dialectOf(initial.session);
entryChoice = initial.session.entry;
turn = initial.session.turn ?? 1;
memoryIn = initial.session.memory ?? {};
if (initial.fromLink) holdLinkTools(initial.session.tools);

/** A session's dialect: as it says, else its example's, else PTC-JSON. */
function dialectOf(s: Session): DialectId {
  return s.dialect ?? exampleById(s.example)?.dialect ?? "ptc-json";
}

// ---- editors ---------------------------------------------------------------

const scheduleRun = () => {
  clearTimeout(debounce);
  debounce = setTimeout(() => void runNow(), DEBOUNCE_MS);
};

// Soft wrap is on unless the visitor turns it off, and off for a text with a
// very long line (laying out a wrapped 10,000-character line on every keystroke is slow).
const LONG_LINE = 1000;
let wrapWanted = true;
const wrapped = new WeakMap<EditorView, boolean>();
function hasLongLine(view: EditorView | string): boolean {
  if (typeof view === "string") return view.split("\n").some((line) => line.length > LONG_LINE);
  for (const line of view.state.doc.iterLines()) if (line.length > LONG_LINE) return true;
  return false;
}
function updateWrapping(view: EditorView): void {
  const on = wrapWanted && !hasLongLine(view);
  if (wrapped.get(view) === on) return;
  wrapped.set(view, on);
  setWrapping(view, on);
}
const onEdit = (view: EditorView) => {
  updateWrapping(view);
  scheduleRun();
};

const programView = createEditor({
  parent: $("program-editor"),
  doc: initial.session.program,
  wrap: !hasLongLine(initial.session.program),
  label: dialects[dialect].programLabel,
  describedBy: "editor-keys",
  language: "json",
  onChange: onEdit,
  completion: (cx: CompletionContext) => (dialect === "step-functions" ? stepFunctionCompletion(cx) : ptcCompletion(cx)),
});

// Completion offers the names of the tools as last evaluated (never evaluating held ones).
const mockToolNames = () => (isHeld(toolsView.state.doc.toString()) ? [] : sandbox.names());
const stepFunctionCompletion = stepFunctionCompletionSource({
  toolNames: mockToolNames,
  functionNames: () => fileFunctions.map((f) => f.name),
});
const ptcCompletion = ptcCompletionSource({
    operations: () => operations,
    toolNames: mockToolNames,
    contextKeys: () => {
      try {
        const ctx = JSON.parse(contextView.state.doc.toString());
        return ctx && typeof ctx === "object" && !Array.isArray(ctx) ? Object.keys(ctx) : [];
      } catch {
        return [];
      }
    },
});
const contextView = createEditor({
  parent: $("context-editor"),
  doc: initial.session.context,
  wrap: !hasLongLine(initial.session.context),
  label: dialects[dialect].dataLabel,
  describedBy: "editor-keys",
  language: "json",
  onChange: onEdit,
});
const toolsView = createEditor({
  parent: $("tools-editor"),
  doc: initial.session.tools,
  wrap: !hasLongLine(initial.session.tools),
  label: "Mock tools (JavaScript): the body of an object literal of functions",
  describedBy: "editor-keys",
  language: "javascript",
  onChange: onEdit,
});

for (const view of [programView, contextView, toolsView]) wrapped.set(view, !hasLongLine(view));

const textOf = (view: EditorView) => view.state.doc.toString();

function mark(view: EditorView, diagnostics: Diagnostic[]): void {
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

// ---- announcements ---------------------------------------------------------

let announceTimer: ReturnType<typeof setTimeout> | undefined;
/** What the last run outcome announced: only a change is spoken (runs happen while typing). */
let lastOutcomeKey = "ok";
function announceOutcome(key: string, message: string): void {
  if (key === lastOutcomeKey) return;
  lastOutcomeKey = key;
  announce(message);
}
function announce(message: string): void {
  const node = $("announcer");
  node.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => (node.textContent = message), 30);
}

// ---- running ---------------------------------------------------------------

interface CallRecord {
  tool: string;
  args: unknown;
  state: "pending" | "ok" | "error";
  result?: unknown;
  error?: string;
  ms?: number;
}

type InputProblem = { where: "context" | "tools"; message: string };

/** The Context tab's JSON object (for step functions: the entry's input). */
function readContext(): { ok: true; value: Record<string, unknown> } | { ok: false; problem: InputProblem } {
  const text = textOf(contextView);
  const name = dialects[dialect].dataTab;
  const syntax = findJsonSyntaxError(text);
  if (syntax) {
    const to = Math.max(tokenEnd(text, syntax.index), Math.min(syntax.index + 1, text.length));
    mark(contextView, [{ from: Math.min(syntax.index, text.length), to, severity: "error", message: syntax.message }]);
    return { ok: false, problem: { where: "context", message: `${name} is not valid JSON: ${syntax.message}` } };
  }
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    mark(contextView, [{ from: 0, to: text.length, severity: "error", message: `The ${name.toLowerCase()} must be a JSON object` }]);
    const shape = dialect === "step-functions" ? '{"parameter": value, …}' : '{"name": data, …}';
    return { ok: false, problem: { where: "context", message: `The ${name.toLowerCase()} must be a JSON object: ${shape}` } };
  }
  mark(contextView, []);
  return { ok: true, value: value as Record<string, unknown> };
}

function showInputProblem(problem: InputProblem | null): void {
  const node = $("input-error");
  node.hidden = !problem;
  node.textContent = problem ? (problem.where === "context" ? `${dialects[dialect].dataTab} has an error` : "Tools have an error") : "";
  $("tab-context").classList.toggle("has-error", problem?.where === "context");
  $("tab-tools").classList.toggle("has-error", problem?.where === "tools");
}

/** Shows or hides the marks of tools held for consent (consent.ts): the notice, the tab's flag. */
function showConsent(held: boolean): void {
  $("consent").hidden = !held;
  $("tools-consent").hidden = !held;
  $("tools-from-link").hidden = !held;
}

/** Nothing ran: the link's tools wait for the visitor (no result, no calls, no trace). */
function showHeld(): void {
  showInputProblem(null);
  errorRange = null;
  mark(programView, []);
  mark(contextView, []);
  document.body.dataset.status = "held";
  delete document.body.dataset.errorType;
  setStatus("held", `<span class="badge warn">not run</span> <span>waiting for you to trust the link's tools</span>`);
  $("error-box").hidden = true;
  $("stale-note").hidden = true;
  $("result").textContent = "";
  renderCalls([]);
  if (dialect === "step-functions") showTrace([]);
  ($("next-turn") as HTMLButtonElement).disabled = true;
  announceOutcome("held", "Not run: the mock tools came from a shared link. Review them, then press Trust and run.");
}

/** The visitor read the link's tools and lets them run (in the sandbox). */
function trustTools(): void {
  release();
  announce("The link's tools are trusted and run");
  void runNow();
}

async function runNow(): Promise<void> {
  clearTimeout(debounce);
  if (!runtime) return; // runs when the engine is ready
  const seq = ++runSeq;
  controller?.abort(new Error("superseded by a newer run"));
  const abort = (controller = new AbortController());
  const program = textOf(programView);
  const parsed = dialect === "step-functions" ? updateFunctions(program) : null;
  const toolsText = textOf(toolsView);
  const held = isHeld(toolsText);
  showConsent(held);
  if (held) return showHeld();

  const context = readContext();
  const compiled = await sandbox.compile(toolsText);
  if (seq !== runSeq) return; // edited while the tools were evaluated
  const problem = !context.ok ? context.problem : !compiled.ok ? { where: "tools" as const, message: compiled.message } : null;
  showInputProblem(problem);
  if (problem) {
    showFailure({ type: "execution_error", message: problem.message }, program, [], problem.where);
    if (dialect === "step-functions") showTrace([]);
    runsDone++;
    return;
  }

  const calls: CallRecord[] = [];
  const tools: Record<string, (args: Record<string, unknown>) => unknown> = {};
  for (const name of compiled.ok ? compiled.names : []) {
    let count = 0; // calls of this tool in this run (a mock's `{ call }`)
    tools[name] = async (args) => {
      const record: CallRecord = { tool: name, args: structuredClone(args), state: "pending" };
      calls.push(record);
      if (seq === runSeq) renderCalls(calls);
      const started = performance.now();
      try {
        const value = compiled.ok ? await compiled.call(name, args, { call: count++ }) : undefined;
        record.state = "ok";
        record.result = value === undefined ? null : JSON.parse(JSON.stringify(value) ?? "null");
        return value;
      } catch (e) {
        record.state = "error";
        record.error = e instanceof Error ? e.message : String(e);
        throw e;
      } finally {
        record.ms = performance.now() - started;
        if (seq === runSeq) renderCalls(calls);
      }
    };
  }

  const slow = setTimeout(() => {
    if (seq === runSeq) setStatus("running", "Running…");
  }, 120);
  document.body.dataset.status = "running";
  const runDialect = dialect;
  let result: Outcome;
  if (firstResultAt === null) performance.mark("ptc-first-run-start");
  try {
    result = await dialects[runDialect].run(runtime, program, {
      data: context.ok ? context.value : {},
      memory: memoryIn,
      entry: runDialect === "step-functions" ? currentEntry() : undefined,
      tools,
      timeoutMs: TIMEOUT_MS,
      signal: abort.signal,
    });
  } catch (e) {
    result = { ok: false, error: { type: "execution_error", message: e instanceof Error ? e.message : String(e) } };
  }
  clearTimeout(slow);
  if (firstResultAt === null) performance.mark("ptc-first-run-end");
  // A tool still waiting when its run timed out may be stuck in an endless loop: a fresh frame for the next run.
  if (!result.ok && result.error.type === "timeout" && calls.some((c) => c.state === "pending")) sandbox.restart();
  if (seq !== runSeq) return; // a newer run is on its way
  runsDone++;
  latest = result;
  if (runDialect === "step-functions") {
    ranFile = parsed;
    const r = result as WorkflowResult;
    if (r.ok) showStepFunctionsSuccess(r);
    else {
      showFailure(r.error, program, calls, "program", r.metrics?.durationMs);
      showTrace(r.trace, r.error);
    }
  } else {
    const r = result as RunResult;
    if (r.ok) showSuccess(r, calls);
    else showFailure(r.error, program, calls, "program", r.metrics?.durationMs);
  }
  if (firstResultAt === null) {
    firstResultAt = performance.now();
    performance.mark("ptc-first-result");
  }
}

// ---- showing outcomes ------------------------------------------------------

function setStatus(kind: "ok" | "error" | "running" | "loading" | "held", html: string): void {
  const node = $("run-status");
  node.className = `status ${kind}`;
  node.innerHTML = html;
}

function metricsText(m: RunSuccess["metrics"], steps?: number): string {
  const parts = [`<strong>${formatMs(m.durationMs)}</strong>`];
  if (steps !== undefined) parts.push(`${steps} step${steps === 1 ? "" : "s"}`);
  if (m.toolCalls) parts.push(`${m.toolCalls} tool call${m.toolCalls === 1 ? "" : "s"} (${formatMs(m.toolMs)})`);
  parts.push(`${formatBytes(m.memoryBytes)} peak`);
  return `<span>${parts.join(" · ")}</span>`;
}

/** What every successful run shows: the ok status, no error, the result. */
function showResult(r: Outcome & { ok: true }, statusHtml: string): void {
  lastGood = r;
  errorRange = null;
  mark(programView, []);
  document.body.dataset.status = "ok";
  delete document.body.dataset.errorType;
  setStatus("ok", statusHtml);
  $("error-box").hidden = true;
  $("stale-note").hidden = true;
  const pre = $("result");
  pre.classList.remove("stale");
  showJson(pre, r.result);
  announceOutcome("ok", "The program runs again");
}

function showSuccess(r: RunSuccess, calls: CallRecord[]): void {
  showResult(r, `<span class="badge ok">✓ ok</span> ${metricsText(r.metrics)}`);
  renderCalls(calls);
  renderMemory(r);
  ($("next-turn") as HTMLButtonElement).disabled = false;
}

/** A result-typed function's error result ({"error": "..."}) is a success of the run, flagged. */
const isErrorResult = (v: unknown) =>
  v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && "error" in v;

function showStepFunctionsSuccess(r: StepFunctionsSuccess): void {
  const flag = isErrorResult(r.result) ? ` <span class="badge warn" title="The entry returned a result-typed error">returned an error</span>` : "";
  showResult(r, `<span class="badge ok">✓ ok</span>${flag} ${metricsText(r.metrics, r.trace.length)}`);
  showTrace(r.trace);
}

const ERROR_TITLES: Record<string, string> = {
  parse_error: "Parse error",
  validation_error: "Validation error",
  execution_error: "Execution error",
  timeout: "Timeout",
  memory_exceeded: "Memory exceeded",
};

function errorRangeIn(program: string, error: PtcError): { from: number; to: number } | null {
  if (error.type === "parse_error") {
    if (typeof error.position === "number") {
      const from = byteOffsetToIndex(program, error.position);
      return { from, to: Math.max(tokenEnd(program, from), from) };
    }
    return { from: 0, to: Math.min(program.length, tokenEnd(program, program.search(/\S|$/))) };
  }
  if (error.path === undefined) return null;
  if (dialect === "step-functions") {
    const seq = parseStepFunctions(program);
    const range = seq && resolveStepFunctionsPointer(seq, error.path);
    return range ? { from: range.from, to: range.to } : null;
  }
  const range = resolvePointer(programView.state, error.path);
  return range ? { from: range.from, to: range.to } : null;
}

/** An error as one text: the engine's layout for PTC-JSON ("ValidationError at /program/…: …"); the same shape for step functions. */
function formatError(error: PtcError): string {
  if (dialect === "ptc-json" && runtime) return runtime.formatError(error);
  const name = (ERROR_TITLES[error.type] ?? error.type).replace(/ (\w)/, (_, c: string) => c.toUpperCase()).replace(/ /g, "");
  return `${name}${error.path !== undefined ? ` at ${error.path}` : ""}: ${error.message}`;
}

function showFailure(error: PtcError, program: string, calls: CallRecord[], source: "program" | "context" | "tools", ms?: number): void {
  document.body.dataset.status = "error";
  document.body.dataset.errorType = source === "program" ? error.type : `${source}_error`;
  const title = source === "program" ? ERROR_TITLES[error.type] ?? error.type : source === "context" ? "Context error" : "Tools error";
  const formatted = source === "program" ? formatError(error) : error.message;
  errorRange = source === "program" ? errorRangeIn(program, error) : null;
  if (source === "program") {
    mark(programView, errorRange ? [{ ...errorRange, severity: "error", message: formatted, source: ERROR_TITLES[error.type] }] : []);
  }
  const timing = ms !== undefined ? ` after ${formatMs(ms)}` : "";
  const badge = source === "program" ? error.type : `${source} error`;
  setStatus("error", `<span class="badge error">✗ ${escapeHtml(badge)}</span>${timing}`);
  $("error-box").hidden = false;
  $("error-title").textContent = title;
  $("error-message").textContent = formatted;
  ($("error-goto") as HTMLButtonElement).hidden = !errorRange;
  const pre = $("result");
  if (lastGood) {
    pre.classList.add("stale");
    $("stale-note").hidden = false;
  } else {
    pre.textContent = "";
    $("stale-note").hidden = true;
  }
  renderCalls(calls);
  ($("next-turn") as HTMLButtonElement).disabled = true;
  announceOutcome(`${source}:${error.type}:${error.path ?? ""}`, `${title}: ${formatted}`);
}

function renderCalls(calls: CallRecord[]): void {
  const list = $("calls");
  list.replaceChildren(
    ...calls.map((c, i) => {
      const args = JSON.stringify(c.args ?? {});
      const badge =
        c.state === "pending"
          ? el("span", { class: "badge running" }, "waiting…")
          : c.state === "ok"
            ? el("span", { class: "badge ok" }, "ok")
            : el("span", { class: "badge error" }, "threw");
      const head = el("div", { class: "call-head" },
        el("span", { class: "call-index" }, `${i + 1}`),
        el("code", { class: "call-name" }, c.tool),
        el("code", { class: "call-args", title: args }, args),
        el("span", { class: "spacer" }),
        c.ms !== undefined ? el("span", { class: "muted" }, formatMs(c.ms)) : "",
        badge);
      const item = el("li", { class: `call ${c.state}` }, head);
      if (c.state === "ok") {
        const pre = el("pre", { class: "json small" });
        showJson(pre, c.result, 60);
        item.append(el("details", {}, el("summary", {}, `returned ${summarize(c.result)}`), pre));
      } else if (c.state === "error") {
        item.append(el("p", { class: "call-error" }, c.error ?? "error"));
      }
      return item;
    }),
  );
  $("calls-empty").hidden = calls.length > 0;
  $("calls-count").textContent = calls.length ? `${calls.length}` : "";
}

// ---- step functions: entry, trace -----------------------------------------

/** The program that produced the trace on screen, parsed (labels come from its steps). */
let ranFile: StepFunctionsFile | null = null;

/** Parses the step-function file; when it parses, refreshes the entry list. */
function updateFunctions(program: string): StepFunctionsFile | null {
  const seq = parseStepFunctions(program);
  if (seq) {
    const next = functionsOf(seq);
    if (JSON.stringify(next) !== JSON.stringify(fileFunctions)) {
      fileFunctions = next;
      renderEntrySelect();
    }
  }
  return seq;
}

/** The entry to run: the visitor's pick while the file has it, else the last function. */
function currentEntry(): string | undefined {
  if (entryChoice && fileFunctions.some((f) => f.name === entryChoice)) return entryChoice;
  return fileFunctions[fileFunctions.length - 1]?.name;
}

function renderEntrySelect(): void {
  const select = $<HTMLSelectElement>("entry-select");
  const entry = currentEntry();
  const last = fileFunctions.length - 1;
  select.replaceChildren(
    ...fileFunctions.map((f, i) => el("option", { value: f.name }, i === last ? `${f.name} (the last: default)` : f.name)),
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
  return { let: typeof s.let === "string" ? s.let : undefined, for: typeof s.for === "string" ? s.for : undefined, expr };
}

/** Marks a trace entry's step in the program (resolved in the text as it is now). */
function pickTraceEntry(entry: TraceEntry): void {
  const seq = parseStepFunctions(textOf(programView));
  const range = seq && resolveStepFunctionsPointer(seq, entry.path);
  if (!range) {
    announce(`Step ${entry.path} is not in the program as it is now`);
    return;
  }
  markRange(programView, range);
  const line = programView.state.doc.lineAt(range.from).number;
  announce(`Marked ${entry.kind} step ${entry.path} in the program, line ${line}`);
}

/** The trace of the latest step-function run (or the trace so far of a failed one). */
function showTrace(trace: TraceEntry[] | undefined, error?: PtcError): void {
  const list = $("trace");
  const entries = trace ?? [];
  const names = new Set(fileFunctions.map((f) => f.name));
  renderTrace(list, entries, names, { stepAt: stepSource, onPick: pickTraceEntry, entry: currentEntry() });
  const note = $("trace-note");
  note.hidden = !error || entries.length === 0;
  note.textContent = error ? `The trace so far: the run stopped with ${ERROR_TITLES[error.type]?.toLowerCase() ?? error.type} at the last step.` : "";
  $("trace-empty").hidden = entries.length > 0;
  $("trace-empty").textContent = error
    ? error.type === "parse_error" || error.type === "validation_error"
      ? "Nothing ran: the file does not verify."
      : "No step ran."
    : "No step ran.";
  $("trace-count").textContent = entries.length ? `${entries.length} step${entries.length === 1 ? "" : "s"}` : "";
}

function renderMemory(r?: RunSuccess): void {
  showJson($("memory-in"), memoryIn, 40);
  const out = $("memory-out");
  if (!r) {
    out.textContent = "";
    $("memory-stored").textContent = "";
    return;
  }
  showJson(out, r.memory, 40);
  const changed = Object.keys(r.memoryDelta);
  out.dataset.changed = changed.join(",");
  $("memory-stored").textContent = changed.length ? `This run stored ${changed.join(", ")}.` : "This run stored nothing.";
  $("memory-out").setAttribute("aria-label", `Memory after this run${changed.length ? `; this run stored ${changed.join(", ")}` : "; unchanged"}`);
}

function renderTurn(): void {
  const ex = exampleById(exampleId);
  const total = ex && ex.turns.length > 1 ? ex.turns.length : 0;
  $("turn-label").textContent = total && turn <= total ? `Turn ${turn} of ${total}` : `Turn ${turn}`;
  const next = total && turn < total ? ex!.turns[turn] : undefined;
  const hint = $("turn-hint");
  if (next) {
    const how = next.contextFromPreviousResult
      ? `passes this result to turn ${turn + 1} as the context key <code>${escapeHtml(next.contextFromPreviousResult)}</code>`
      : `carries the memory into turn ${turn + 1}`;
    hint.innerHTML = `This example has ${total} turns. <strong>Next turn</strong> loads turn ${turn + 1}'s program and ${how}.`;
  } else {
    hint.innerHTML =
      'A program whose value is an object stores it in memory (a <code>result</code> key is returned instead). ' +
      '<strong>Next turn</strong> carries the memory into the next run, where <code>{"op": "var"}</code> reads it.';
  }
}

// ---- examples, turns, sessions -----------------------------------------------

function fillExampleSelect(): void {
  const select = $<HTMLSelectElement>("example-select");
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const ex of examples) {
    let group = groups.get(ex.group);
    if (!group) {
      group = el("optgroup", { label: ex.group });
      groups.set(ex.group, group);
      select.append(group);
    }
    const turns = ex.turns.length > 1 ? ` (${ex.turns.length} turns)` : "";
    group.append(el("option", { value: ex.id }, ex.dialect === "ptc-json" ? `${ex.id} ${ex.title}${turns}` : ex.title));
  }
  select.append(el("option", { value: "", disabled: "" }, "Shared or edited session"));
  select.addEventListener("change", () => {
    const ex = exampleById(select.value);
    if (ex) loadExample(ex);
  });
}

function syncSelect(): void {
  $<HTMLSelectElement>("example-select").value = exampleId && exampleById(exampleId) ? exampleId : "";
}

/** Shows the parts of the page the dialect has: memory and tool calls, or the entry and the trace. */
function setDialect(next: DialectId): void {
  const changed = next !== dialect;
  dialect = next;
  const d = dialects[next];
  const sf = next === "step-functions";
  document.body.dataset.dialect = next;
  $("dialect-label").textContent = d.label;
  $("tab-context-name").textContent = d.dataTab;
  if (changed) {
    // (The editors were created with the first session's labels.)
    setLabel(programView, d.programLabel, "editor-keys");
    setLabel(contextView, d.dataLabel, "editor-keys");
  }
  $("entry-bar").hidden = !sf;
  $("trace-card").hidden = !sf;
  $("calls-card").hidden = sf;
  $("memory-card").hidden = sf;
  // The operation reference is PTC-JSON's.
  $("reference-toggle").hidden = sf;
  if (sf) setReference(false);
  else if (changed) setReference(wideLayout.matches);
  if (sf) {
    fileFunctions = [];
    updateFunctions(textOf(programView));
    renderEntrySelect();
    showTrace([]);
  } else if (changed) {
    markRange(programView, null);
  }
}

function loadExample(ex: Example): void {
  showNotice(null);
  release(); // the page's own tools
  exampleId = ex.id;
  entryChoice = ex.entry;
  turn = 1;
  memoryIn = {};
  lastGood = null;
  setText(programView, ex.turns[0].program);
  setText(contextView, ex.context);
  setText(toolsView, ex.tools);
  programView.dispatch({ selection: { anchor: 0 }, scrollIntoView: true });
  setDialect(ex.dialect);
  syncSelect();
  renderTurn();
  renderMemory();
  void runNow();
}

/** A session from a link opened while the page is open (a hash change). */
function applySession(s: Session): void {
  showNotice(null);
  holdLinkTools(s.tools);
  exampleId = s.example && exampleById(s.example) ? s.example : undefined;
  entryChoice = s.entry;
  turn = s.turn ?? 1;
  memoryIn = s.memory ?? {};
  lastGood = null;
  setText(programView, s.program);
  setText(contextView, s.context);
  setText(toolsView, s.tools);
  setDialect(dialectOf(s));
  syncSelect();
  renderTurn();
  renderMemory();
  void runNow();
}

function nextTurn(): void {
  if (!latest?.ok || !("memory" in latest)) return;
  const previous = latest;
  memoryIn = previous.memory;
  turn++;
  const ex = exampleById(exampleId);
  const t = ex?.turns[turn - 1];
  if (t) {
    setText(programView, t.program);
    if (t.contextFromPreviousResult) {
      let ctx: Record<string, unknown> = {};
      try {
        ctx = JSON.parse(textOf(contextView));
      } catch {
        /* replaced below */
      }
      setText(contextView, formatJson({ ...ctx, [t.contextFromPreviousResult]: previous.result }));
    }
  }
  renderTurn();
  renderMemory();
  void runNow();
  announce(`Turn ${turn}: ${Object.keys(memoryIn).length ? "memory carried over" : "memory is empty"}`);
}

function clearMemory(): void {
  memoryIn = {};
  turn = 1;
  renderTurn();
  renderMemory();
  void runNow();
  announce("Memory cleared");
}

async function share(): Promise<void> {
  const sf = dialect === "step-functions";
  const hash = await encodeSession({
    dialect,
    program: textOf(programView),
    context: textOf(contextView),
    tools: textOf(toolsView),
    entry: sf ? currentEntry() : undefined,
    memory: !sf && Object.keys(memoryIn).length ? memoryIn : undefined,
    turn: !sf && turn > 1 ? turn : undefined,
    example: exampleId,
  });
  history.replaceState(null, "", `#${hash}`);
  const url = location.href;
  const input = $<HTMLInputElement>("share-url");
  input.value = url;
  $("share-box").hidden = false;
  input.focus();
  input.select();
  try {
    await navigator.clipboard.writeText(url);
    announce("Link copied to the clipboard");
    $("share-copy").textContent = "Copied";
  } catch {
    announce("The link is in the address bar and in the box below the header");
    $("share-copy").textContent = "Copy";
  }
}

// ---- reference panel and tabs ----------------------------------------------------

const wideLayout = window.matchMedia("(min-width: 1400px)");

function setReference(open: boolean, focus = false): void {
  const panel = $("reference");
  panel.hidden = !open;
  $("reference-toggle").setAttribute("aria-expanded", String(open));
  $("layout").classList.toggle("with-reference", open);
  if (open && focus) $("ref-filter").focus();
}

function insertIntoProgram(text: string): void {
  const { from, to } = programView.state.selection.main;
  programView.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length }, scrollIntoView: true, userEvent: "input" });
  programView.focus();
  if (!wideLayout.matches) setReference(false);
}

function setupTabs(): void {
  const tabs = [$("tab-context"), $("tab-tools")];
  const select = (tab: HTMLElement, focus: boolean) => {
    for (const t of tabs) {
      const selected = t === tab;
      t.setAttribute("aria-selected", String(selected));
      t.tabIndex = selected ? 0 : -1;
      $(t.getAttribute("aria-controls")!).hidden = !selected;
    }
    if (focus) tab.focus();
    (tab === tabs[0] ? contextView : toolsView).requestMeasure();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(tab, false));
    tab.addEventListener("keydown", (e) => {
      const next = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (next) select(tabs[(i + next + tabs.length) % tabs.length], true);
      else if (e.key === "Home") select(tabs[0], true);
      else if (e.key === "End") select(tabs[tabs.length - 1], true);
      else return;
      e.preventDefault();
    });
  });
  $("input-error").addEventListener("click", () => select($("tab-context").classList.contains("has-error") ? tabs[0] : tabs[1], true));
}

function setupControls(): void {
  fillExampleSelect();
  setupTabs();
  $("share-button").addEventListener("click", () => void share());
  $("share-copy").addEventListener("click", async () => {
    const input = $<HTMLInputElement>("share-url");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      $("share-copy").textContent = "Copied";
      announce("Link copied to the clipboard");
    } catch {
      announce("Select the link and copy it");
    }
  });
  $("share-close").addEventListener("click", () => {
    $("share-box").hidden = true;
    $("share-button").focus();
  });
  $("wrap-toggle").addEventListener("click", () => {
    wrapWanted = !wrapWanted;
    $("wrap-toggle").setAttribute("aria-pressed", String(wrapWanted));
    for (const view of [programView, contextView, toolsView]) updateWrapping(view);
    if (wrapWanted && hasLongLine(programView)) announce("Lines longer than 1000 characters are not wrapped; Format splits them");
  });
  $("next-turn").addEventListener("click", nextTurn);
  for (const button of document.querySelectorAll(".trust-tools")) button.addEventListener("click", trustTools);
  $("consent-review").addEventListener("click", () => {
    $("tab-tools").click();
    $("tab-tools").focus();
  });
  $("reset-memory").addEventListener("click", clearMemory);
  $("format-program").addEventListener("click", () => {
    if (dialect === "step-functions") {
      const seq = parseStepFunctions(textOf(programView));
      if (seq) setText(programView, formatStepFunctions(seq));
      else announce("The file is not JSON objects one after another yet; fix the marked error first");
      return;
    }
    try {
      setText(programView, formatJson(JSON.parse(textOf(programView))));
    } catch {
      announce("The program is not valid JSON yet; fix the marked error first");
    }
  });
  $("entry-select").addEventListener("change", () => {
    entryChoice = $<HTMLSelectElement>("entry-select").value;
    renderEntrySelect();
    void runNow();
  });
  $("error-goto").addEventListener("click", () => {
    if (!errorRange) return;
    programView.dispatch({ selection: { anchor: errorRange.from, head: errorRange.to }, scrollIntoView: true });
    programView.focus();
  });
  $("reference-toggle").addEventListener("click", () => setReference($("reference").hidden, true));
  $("reference-close").addEventListener("click", () => {
    setReference(false);
    $("reference-toggle").focus();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    if (!$("reference").hidden && !wideLayout.matches && $("reference").contains(document.activeElement)) {
      setReference(false);
      $("reference-toggle").focus();
    } else if (!$("share-box").hidden && $("share-box").contains(document.activeElement)) {
      $("share-box").hidden = true;
      $("share-button").focus();
    }
  });
  window.addEventListener("hashchange", () => void restoreFromHash());
  document.querySelector(".skip-link")!.addEventListener("click", (e) => {
    e.preventDefault();
    programView.focus();
  });
}

async function restoreFromHash(): Promise<boolean> {
  if (!location.hash || location.hash === "#") return false;
  try {
    const session = await decodeSession(location.hash);
    if (!session) return false;
    applySession(session);
    return true;
  } catch (e) {
    showNotice(`Could not read the shared link (${(e as Error).message}).`);
    return false;
  }
}

function showNotice(message: string | null): void {
  $("notice").hidden = !message;
  $("notice").textContent = message ?? "";
  if (message) announce(message);
}

// ---- start -----------------------------------------------------------------

async function start(): Promise<void> {
  performance.mark("ptc-editors-done");
  // boot.js has usually started the engine already.
  const engineReady = (window as unknown as { __ptcEngine?: Promise<Engine> }).__ptcEngine ?? loadEngine();
  setupControls();
  setReference(wideLayout.matches && dialect === "ptc-json");
  setDialect(dialect);
  syncSelect();
  renderTurn();
  renderMemory();
  if (initial.problem) showNotice(`Could not read the shared link (${initial.problem}); showing an example instead.`);
  performance.mark("ptc-example-loaded");
  // A link's tools are flagged at once; others are evaluated (in their frame) while
  // the engine loads, and the first run finds them cached.
  if (isHeld(textOf(toolsView))) showConsent(true);
  else void sandbox.compile(textOf(toolsView));
  try {
    const engine = await engineReady;
    runtime = engine.runtime;
    engineInWorker = engine.inWorker;
    performance.mark("ptc-runtime-ready");
  } catch (e) {
    setStatus("error", `The engine could not load: ${escapeHtml((e as Error).message)}`);
    document.body.dataset.status = "engine-error";
    return;
  }
  $("engine-mode").textContent = engineInWorker ? "Engine: WebAssembly in a Web Worker" : "Engine: WebAssembly in this page";
  await runNow();
  operations = runtime.operations();
  renderReference($("ref-list"), $<HTMLInputElement>("ref-filter"), operations, insertIntoProgram);
}

// For the browser tests and curious visitors: the editors and the last outcome.
declare global {
  interface Window {
    __playground: unknown;
  }
}
window.__playground = {
  views: { program: programView, context: contextView, tools: toolsView },
  get latest() {
    return latest;
  },
  get runs() {
    return runsDone;
  },
  get firstResultAt() {
    return firstResultAt;
  },
  get engineInWorker() {
    return engineInWorker;
  },
  get dialect() {
    return dialect;
  },
  get entry() {
    return currentEntry();
  },
  /** The range a trace row marked in the program, with its text. */
  markedRange() {
    const r = markedRangeOf(programView);
    return r && { ...r, text: programView.state.sliceDoc(r.from, r.to) };
  },
  diagnostics(which: "program" | "context" = "program") {
    const view = which === "program" ? programView : contextView;
    const out: { from: number; to: number; text: string; message: string }[] = [];
    forEachDiagnostic(view.state, (d, from, to) => out.push({ from, to, text: view.state.sliceDoc(from, to), message: d.message }));
    return out;
  },
};

void start();
