// Running the program: on every edit (debounced) and on demand. Reads the data
// tab, evaluates the mock tools in their sandbox (unless a link's tools wait for
// consent), wraps each tool to list its calls, runs the program in the current
// dialect, and hands the outcome to the outcome view. A newer run aborts the
// one under way; only the latest run's outcome is shown.
import { announce } from "./announce.js";
import { isHeld, release } from "./consent.js";
import type { Outcome } from "./dialects.js";
import { mark, textOf } from "./editor.js";
import { findJsonSyntaxError, tokenEnd } from "./positions.js";
import { createToolSandbox } from "./sandbox.js";
import {
  renderCalls,
  setStatus,
  showConsent,
  showFailure,
  showHeld,
  showInputProblem,
  showOutcome,
  type CallRecord,
  type InputProblem,
} from "./outcome.js";
import { dialect, state, views } from "./state.js";
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

/** The run's tools: each forwards to the sandbox and records its call (listed while it waits). */
function recordedTools(compiled: CompiledOk, calls: CallRecord[], isCurrent: () => boolean) {
  const tools: Record<string, (args: Record<string, unknown>) => unknown> = {};
  for (const name of compiled.names) {
    let count = 0; // calls of this tool in this run (a mock's `{ call }`)
    tools[name] = async (args) => {
      const record: CallRecord = { tool: name, args: structuredClone(args), state: "pending" };
      calls.push(record);
      if (isCurrent()) renderCalls(calls);
      const started = performance.now();
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
        record.ms = performance.now() - started;
        if (isCurrent()) renderCalls(calls);
      }
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
  if (held) return showHeld();

  const context = readContext();
  const compiled = await sandbox.compile(toolsText);
  if (!isCurrent()) return; // edited while the tools were evaluated
  const problem = !context.ok
    ? context.problem
    : !compiled.ok
      ? { where: "tools" as const, message: compiled.message }
      : null;
  showInputProblem(problem);
  if (problem) {
    const code = problem.where === "tools" ? "tool_failed" : "not_json";
    showFailure({ type: "execution_error", code, message: problem.message }, program, [], problem.where);
    if (d.parts.trace) showTrace([]);
    state.runsDone++;
    return;
  }

  const calls: CallRecord[] = [];
  const slow = setTimeout(() => {
    if (isCurrent()) setStatus("running", "Running…");
  }, 120);
  document.body.dataset.status = "running";
  let result: Outcome;
  if (state.firstResultAt === null) performance.mark("ptc-first-run-start");
  try {
    result = await d.run(runtime, program, {
      data: context.ok ? context.value : {},
      memory: state.memoryIn,
      entry: d.parts.entry ? currentEntry() : undefined,
      tools: compiled.ok ? recordedTools(compiled, calls, isCurrent) : {},
      timeoutMs: TIMEOUT_MS,
      signal: abort.signal,
    });
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
  clearTimeout(slow);
  if (state.firstResultAt === null) performance.mark("ptc-first-run-end");
  // A tool still waiting when its run timed out may be stuck in an endless loop: a fresh frame for the next run.
  if (!result.ok && result.error.type === "timeout" && calls.some((c) => c.state === "pending")) sandbox.restart();
  if (!isCurrent()) return; // a newer run is on its way
  state.runsDone++;
  state.latest = result;
  showOutcome(d, result, program, calls, file);
  if (state.firstResultAt === null) {
    state.firstResultAt = performance.now();
    performance.mark("ptc-first-result");
  }
}
