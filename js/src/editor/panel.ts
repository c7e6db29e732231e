// The run panel of the embedded editor: the status, the result (or the error,
// with the last good result greyed), the run's warnings, and its tool calls in
// the order they were made (the trace: tool, arguments, outcome, time; a call
// marks the node that made it in the program).
import type { RunResult, ToolCallTrace } from "../types/public.js";
import { ERROR_TITLES } from "./errors.js";
import { formatBytes, formatMs, inlineJson } from "./format.js";
import { el, showJson } from "./render.js";

export interface Panel {
  root: HTMLElement;
  runButton: HTMLButtonElement;
  setStatus(kind: "loading" | "running" | "ok" | "error" | "idle", text: string): void;
  /** A finished run; `message` is the error as the reader should see it. */
  show(result: RunResult, message: string): void;
  /** A problem before any run (the engine did not load). */
  showProblem(title: string, message: string): void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function createPanel(
  hosts: HTMLElement[],
  o: { onRun: () => void; onCall: (path: string) => void; showRunButton: boolean },
): Panel {
  const status = el("span", { class: "ptc-editor__status", role: "status", "aria-live": "polite" });
  const runButton = el("button", { type: "button", class: "ptc-editor__run" }, "Run");
  runButton.hidden = !o.showRunButton;
  runButton.addEventListener("click", o.onRun);
  const errorTitle = el("strong");
  const errorMessage = el("p");
  const error = el("div", { class: "ptc-editor__error", role: "alert" }, errorTitle, errorMessage);
  const result = el("pre", { class: "ptc-editor__result", "aria-label": "Result", tabindex: "0" });
  const metrics = el("p", { class: "ptc-editor__metrics" });
  const warningList = el("ul");
  const warnings = el(
    "div",
    { class: "ptc-editor__section ptc-editor__warnings" },
    el("h3", {}, "Warnings"),
    warningList,
  );
  const callList = el("ol");
  const calls = el("div", { class: "ptc-editor__section ptc-editor__calls" }, el("h3", {}, "Tool calls"), callList);
  error.hidden = warnings.hidden = calls.hidden = true;
  const root = el(
    "section",
    { class: "ptc-editor__panel", "aria-label": "Run" },
    el("div", { class: "ptc-editor__bar" }, el("h2", { class: "ptc-editor__title" }, "Result"), runButton, status),
    error,
    result,
    metrics,
    warnings,
    calls,
  );
  let hasGood = false;

  const setStatus: Panel["setStatus"] = (kind, text) => {
    for (const host of hosts) host.dataset.status = kind;
    status.textContent = text;
  };

  function showCalls(trace: ToolCallTrace[] | undefined): void {
    callList.textContent = "";
    calls.hidden = !trace?.length;
    for (const c of trace ?? []) {
      const meta =
        c.outcome === "value"
          ? `${formatMs(c.durationMs)}${c.resultSize !== undefined ? ` · ${formatBytes(c.resultSize)}` : ""}`
          : `${c.outcome}${c.error ? `: ${c.error}` : ""}`;
      const button = el(
        "button",
        { type: "button", class: "ptc-editor__call", "data-outcome": c.outcome, title: `Show the call at ${c.path}` },
        el("span", { class: "ptc-editor__call-tool" }, c.tool),
        el("span", { class: "ptc-editor__call-args" }, ` ${inlineJson(c.args)}`),
        " ",
        el("span", { class: "ptc-editor__call-meta" }, meta),
      );
      button.addEventListener("click", () => o.onCall(c.path));
      callList.append(el("li", {}, button));
    }
  }

  return {
    root,
    runButton,
    setStatus,
    show(r, message) {
      const found = "warnings" in r ? r.warnings : undefined;
      warningList.textContent = "";
      warnings.hidden = !found?.length;
      for (const w of found ?? [])
        warningList.append(el("li", {}, el("code", {}, w.code), ` at ${w.path}: `, w.message));
      showCalls(r.trace as ToolCallTrace[] | undefined);
      const m = r.metrics;
      metrics.textContent = m
        ? `${formatMs(m.durationMs)} · ${plural(m.toolCalls, "tool call")} · ${formatBytes(m.memoryBytes)} peak`
        : "";
      if (r.status === "suspended") {
        error.hidden = true;
        result.textContent = "";
        setStatus("idle", `suspended: ${plural(r.pending.length, "call")} held`);
        return;
      }
      if (r.ok) {
        error.hidden = true;
        result.classList.remove("stale");
        showJson(result, r.result);
        hasGood = true;
        setStatus("ok", "✓ ok");
        return;
      }
      // An error: the last good result stays, greyed.
      error.hidden = false;
      errorTitle.textContent = ERROR_TITLES[r.error.type] ?? r.error.type;
      errorMessage.textContent = message;
      if (hasGood) result.classList.add("stale");
      else result.textContent = "";
      setStatus("error", `✗ ${r.error.type}`);
    },
    showProblem(title, message) {
      error.hidden = false;
      errorTitle.textContent = title;
      errorMessage.textContent = message;
      setStatus("error", title);
    },
  };
}
