// The outcome view: the run status, the result (the last good one greyed while
// the inputs fail), the error at its place in the program, the tool calls, the
// memory and turn, and the state where a link's tools wait for consent.
import { announce, announceOutcome } from "./announce.js";
import type { Dialect, Outcome } from "./dialects.js";
import { mark } from "../../js/src/editor/codemirror.js";
import { ERROR_TITLES } from "../../js/src/editor/errors.js";
import { exampleById } from "./examples.js";
import { formatBytes, formatMs } from "../../js/src/editor/format.js";
import { errorDiagnostic, errorRange as rangeOfError } from "../../js/src/editor/diagnostics.js";
import type { PtcError, RunSuccess, TraceEntry } from "./ptc.js";
import { $, el, escapeHtml, showJson, summarize } from "./render.js";
import { dialect, state, views } from "./state.js";
import type { StepFunctionsFile } from "./step-functions.js";
import { showTrace } from "./trace-panel.js";

/** One call of a mock tool in a run, as the tool calls card lists it. */
export interface CallRecord {
  tool: string;
  args: unknown;
  state: "pending" | "ok" | "error";
  result?: unknown;
  error?: string;
  ms?: number;
  /** The leg of the run it was made in (a resumed run has more than one), and when, in ms since that leg started. */
  leg: number;
  at: number;
}

export type InputProblem = { where: "context" | "tools"; message: string };

/** The range of the program the error on screen names ("Show in program"). */
let errorRange: { from: number; to: number } | null = null;

export function setStatus(kind: "ok" | "error" | "running" | "loading" | "held", html: string): void {
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
  state.lastGood = r;
  errorRange = null;
  mark(views.program, []);
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

/** A result-typed function's error result ({"error": "..."}) is a success of the run, flagged. */
const isErrorResult = (v: unknown) =>
  v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && "error" in v;

/**
 * A finished run, in the parts of the page its dialect has: the result or the
 * error, the tool calls, the memory, the trace (`file`: the step-function file
 * that ran, parsed, for the trace rows' labels).
 */
export function showOutcome(
  d: Dialect,
  r: Outcome,
  program: string,
  calls: CallRecord[],
  file: StepFunctionsFile | null,
): void {
  // A step-function trace (a PTC-JSON run asked for its tool calls has another).
  const trace = d.parts.trace && "trace" in r ? (r.trace as TraceEntry[] | undefined) : undefined;
  showWarnings("warnings" in r ? r.warnings : undefined);
  if (!r.ok) {
    showFailure(r.error, program, calls, "program", r.metrics?.durationMs);
    if (d.parts.trace) showTrace(trace, r.error, file);
    return;
  }
  const flag =
    trace && isErrorResult(r.result)
      ? ` <span class="badge warn" title="The entry returned a result-typed error">returned an error</span>`
      : "";
  showResult(r, `<span class="badge ok">✓ ok</span>${flag} ${metricsText(r.metrics, trace?.length)}`);
  if (d.parts.toolCalls) renderCalls(calls);
  if (d.parts.memory && "memory" in r) {
    renderMemory(r);
    ($("next-turn") as HTMLButtonElement).disabled = false;
  }
  if (d.parts.trace) showTrace(trace, undefined, file);
}

/** The run's warnings (a misspelt field, a context key that is not there), each with its code and place. */
export function showWarnings(warnings: { code: string; path: string; message: string }[] | undefined): void {
  const box = $("warnings-box");
  const list = $("warnings-list");
  list.textContent = "";
  box.hidden = !warnings?.length;
  for (const w of warnings ?? []) list.append(el("li", {}, el("code", {}, w.code), ` at ${w.path}: `, w.message));
}

function errorRangeIn(program: string, error: PtcError): { from: number; to: number } | null {
  return rangeOfError(error, program, views.program.state, (path, text, editor) =>
    dialect().errorRange(path, text, editor),
  );
}

export function showFailure(
  error: PtcError,
  program: string,
  calls: CallRecord[],
  source: "program" | "context" | "tools",
  ms?: number,
): void {
  if (source !== "program") showWarnings(undefined); // nothing ran
  document.body.dataset.status = "error";
  document.body.dataset.errorType = source === "program" ? error.type : `${source}_error`;
  const title =
    source === "program"
      ? (ERROR_TITLES[error.type] ?? error.type)
      : source === "context"
        ? "Context error"
        : "Tools error";
  const formatted = source === "program" ? dialect().formatError(error, state.runtime) : error.message;
  errorRange = source === "program" ? errorRangeIn(program, error) : null;
  if (source === "program") {
    mark(views.program, errorRange ? [errorDiagnostic(error, errorRange, formatted)] : []);
  }
  const timing = ms !== undefined ? ` after ${formatMs(ms)}` : "";
  const badge = source === "program" ? error.type : `${source} error`;
  setStatus("error", `<span class="badge error">✗ ${escapeHtml(badge)}</span>${timing}`);
  $("error-box").hidden = false;
  $("error-title").textContent = title;
  $("error-message").textContent = formatted;
  ($("error-goto") as HTMLButtonElement).hidden = !errorRange;
  const pre = $("result");
  if (state.lastGood) {
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

/** A run that stopped at calls waiting for a decision (approvals.ts lists them): no result yet. */
export function showSuspended(pending: number, calls: CallRecord[]): void {
  errorRange = null;
  mark(views.program, []);
  document.body.dataset.status = "suspended";
  delete document.body.dataset.errorType;
  setStatus(
    "held",
    `<span class="badge warn">suspended</span> <span>${pending} call${pending === 1 ? "" : "s"} to decide</span>`,
  );
  $("error-box").hidden = true;
  $("stale-note").hidden = true;
  $("result").textContent = "";
  renderCalls(calls);
  ($("next-turn") as HTMLButtonElement).disabled = true;
}

/** "Show in program": selects the range the error on screen names. */
export function selectErrorInProgram(): void {
  if (!errorRange) return;
  views.program.dispatch({ selection: { anchor: errorRange.from, head: errorRange.to }, scrollIntoView: true });
  views.program.focus();
}

/** Marks the input tab that has an error (or none). */
export function showInputProblem(problem: InputProblem | null): void {
  const node = $("input-error");
  node.hidden = !problem;
  node.textContent = problem
    ? problem.where === "context"
      ? `${dialect().dataTab} has an error`
      : "Tools have an error"
    : "";
  $("tab-context").classList.toggle("has-error", problem?.where === "context");
  $("tab-tools").classList.toggle("has-error", problem?.where === "tools");
}

/** Shows or hides the marks of tools held for consent (consent.ts): the notice, the tab's flag. */
export function showConsent(held: boolean): void {
  $("consent").hidden = !held;
  $("tools-consent").hidden = !held;
  $("tools-from-link").hidden = !held;
}

/** Nothing ran: the link's tools wait for the visitor (no result, no calls, no trace). */
export function showHeld(): void {
  showInputProblem(null);
  errorRange = null;
  mark(views.program, []);
  mark(views.context, []);
  document.body.dataset.status = "held";
  delete document.body.dataset.errorType;
  setStatus("held", `<span class="badge warn">not run</span> <span>waiting for you to trust the link's tools</span>`);
  $("error-box").hidden = true;
  $("stale-note").hidden = true;
  $("result").textContent = "";
  renderCalls([]);
  if (dialect().parts.trace) showTrace([]);
  ($("next-turn") as HTMLButtonElement).disabled = true;
  announceOutcome("held", "Not run: the mock tools came from a shared link. Review them, then press Trust and run.");
}

export function renderCalls(calls: CallRecord[]): void {
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
      const head = el(
        "div",
        { class: "call-head" },
        el("span", { class: "call-index" }, `${i + 1}`),
        el("code", { class: "call-name" }, c.tool),
        el("code", { class: "call-args", title: args }, args),
        el("span", { class: "spacer" }),
        c.ms !== undefined ? el("span", { class: "muted" }, formatMs(c.ms)) : "",
        badge,
      );
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

export function renderMemory(r?: RunSuccess): void {
  showJson($("memory-in"), state.memoryIn, 40);
  const out = $("memory-out");
  if (!r) {
    out.textContent = "";
    $("memory-stored").textContent = "";
    return;
  }
  showJson(out, r.memory, 40);
  const changed = Object.keys(r.memoryDelta);
  out.dataset.changed = changed.join(",");
  $("memory-stored").textContent = changed.length
    ? `This run stored ${changed.join(", ")}.`
    : "This run stored nothing.";
  $("memory-out").setAttribute(
    "aria-label",
    `Memory after this run${changed.length ? `; this run stored ${changed.join(", ")}` : "; unchanged"}`,
  );
}

export function renderTurn(): void {
  const ex = exampleById(state.exampleId);
  const total = ex && ex.turns.length > 1 ? ex.turns.length : 0;
  const turn = state.turn;
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
      "A program whose value is an object stores it in memory (a <code>result</code> key is returned instead). " +
      '<strong>Next turn</strong> carries the memory into the next run, where <code>{"op": "var"}</code> reads it.';
  }
}

/** A notice above the result (a link that could not be read), or none. */
export function showNotice(message: string | null): void {
  $("notice").hidden = !message;
  $("notice").textContent = message ?? "";
  if (message) announce(message);
}
