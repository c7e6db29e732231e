// The trace of a step-function run drawn as a timeline: one row per executed
// step, in the order the steps started, nested by what contains them (a `for`'s
// body, a handler's compensations, the steps of a function a step called), with
// the outcome, the value or error, and a duration bar scaled to the longest step.
import { formatMs, inlineJson } from "../../js/src/editor/format.js";
import type { TraceEntry } from "./ptc.js";
import { el, summarize } from "./render.js";

export interface TraceNode {
  entry: TraceEntry;
  /** Position in the trace (0-based). */
  index: number;
  depth: number;
  children: TraceNode[];
}

/**
 * Nests a trace. An entry lies inside an earlier one when its path extends that
 * entry's path in the same function (a `do` body, `on-error`/`if` compensations),
 * or when the earlier entry called a function of the file and this entry is one
 * of that function's steps (they follow the call's entry).
 */
export function nestTrace(trace: TraceEntry[], fileFunctions: ReadonlySet<string>): TraceNode[] {
  const roots: TraceNode[] = [];
  const stack: TraceNode[] = [];
  const contains = (outer: TraceEntry, e: TraceEntry) =>
    (e.function === outer.function && e.path.startsWith(outer.path + "/")) ||
    ((outer.kind === "call" || outer.kind === "compensate") &&
      outer.tool !== undefined &&
      fileFunctions.has(outer.tool) &&
      e.function === outer.tool);
  trace.forEach((entry, index) => {
    while (stack.length && !contains(stack[stack.length - 1].entry, entry)) stack.pop();
    const node: TraceNode = { entry, index, depth: stack.length, children: [] };
    (stack.length ? stack[stack.length - 1].children : roots).push(node);
    stack.push(node);
  });
  return roots;
}

const OUTCOME_TEXT: Record<TraceEntry["outcome"], string> = {
  value: "value",
  failure: "failed",
  compensated: "compensated",
  timeout: "timed out",
  abort: "aborted",
  suspended: "waiting for a decision",
};

/** What the source says about a step, to label its row (the variable it binds, the loop variable). */
export interface StepSource {
  let?: string;
  for?: string;
  /** What the step evaluates, as written: a `for`'s list, an `if`'s condition, a `match`'s value, a `let`'s expression. */
  expr?: unknown;
}

export interface TraceView {
  /** The step object at a trace entry's path in the program that ran, if it can be read. */
  stepAt(path: string): StepSource | undefined;
  /** A row was picked (click, Enter or Space). */
  onPick(entry: TraceEntry, row: HTMLElement): void;
  /** The function the run started at: other functions' steps name theirs. */
  entry?: string;
}

function shortJson(value: unknown, max = 160): string {
  const text = inlineJson(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Step durations come from a clock that browsers coarsen (often to 0.1 ms). */
const duration = (ms: number) => (ms > 0 ? formatMs(ms) : "< 0.1 ms");

function describe(e: TraceEntry, src: StepSource | undefined): { what: (Node | string)[]; spoken: string } {
  const bind = src?.let ? `${src.let} = ` : "";
  const expr = src?.expr === undefined ? "" : typeof src.expr === "string" ? src.expr : shortJson(src.expr);
  const exprNode = () => el("code", { class: "tr-args", title: expr }, expr);
  if (e.kind === "call" || e.kind === "compensate") {
    const args = e.args && Object.keys(e.args).length ? shortJson(e.args) : "{}";
    return {
      what: [
        ...(bind ? [el("span", { class: "tr-bind" }, bind)] : []),
        el("code", { class: "tr-tool" }, e.tool ?? "?"),
        el("code", { class: "tr-args", title: inlineJson(e.args ?? {}) }, args),
      ],
      spoken: `${bind ? `${src!.let} equals ` : ""}${e.tool ?? ""} with ${args}`,
    };
  }
  if (e.kind === "for") {
    const name = src?.for ? `${src.for} in` : "";
    return {
      what: [...(name ? [el("span", { class: "tr-bind" }, name)] : []), ...(expr ? [exprNode()] : [])],
      spoken: `${name} ${expr}`.trim(),
    };
  }
  const what: (Node | string)[] = [];
  if (src?.let)
    what.push(el("span", { class: "tr-bind" }, e.kind === "let" || e.kind === "match" ? `${src.let} =` : src.let));
  if (expr && e.kind !== "return" && e.kind !== "yield") what.push(exprNode());
  return {
    what,
    spoken: `${src?.let ? `${src.let} from ` : ""}${e.kind === "return" || e.kind === "yield" ? "" : expr}`.trim(),
  };
}

/** Fills `list` with the trace's rows (nested lists); returns the row buttons in trace order. */
export function renderTrace(
  list: HTMLElement,
  trace: TraceEntry[],
  fileFunctions: ReadonlySet<string>,
  view: TraceView,
): HTMLButtonElement[] {
  const longest = Math.max(0, ...trace.map((e) => e.durationMs));
  const rows: HTMLButtonElement[] = new Array(trace.length);
  const total = trace.length;

  const item = (node: TraceNode): HTMLLIElement => {
    const e = node.entry;
    const src = view.stepAt(e.path);
    const { what, spoken } = describe(e, src);
    const failed = e.outcome !== "value";
    // An `if` whose compensations ran has no error: its condition held.
    const failure = e.error ?? (e.outcome === "compensated" ? "its compensations ran" : "failed");
    const detail = failed
      ? el(
          "span",
          { class: "tr-detail tr-error" },
          el("span", { class: "tr-sign", "aria-hidden": "true" }, e.error === undefined ? "↺ " : "✗ "),
          failure,
        )
      : e.value === undefined
        ? el("span", { class: "tr-detail" })
        : el(
            "span",
            { class: "tr-detail", title: shortJson(e.value, 4000) },
            el("span", { class: "tr-sign", "aria-hidden": "true" }, "→ "),
            el("code", {}, e.kind === "for" ? summarize(e.value) : shortJson(e.value)),
          );
    const pct = longest > 0 ? Math.max(1.5, (e.durationMs / longest) * 100) : 0;
    const inOther = view.entry !== undefined && e.function !== view.entry;
    const row = el(
      "button",
      {
        type: "button",
        class: `trace-row outcome-${e.outcome} kind-${e.kind}`,
        tabindex: node.index === 0 ? "0" : "-1",
        title: `${e.function} ${e.path}`,
        "data-path": e.path,
        "data-index": String(node.index),
        "aria-label":
          `Step ${node.index + 1} of ${total}${inOther ? ` in ${e.function}` : ""}: ${e.kind}${spoken ? ` ${spoken}` : ""}, ` +
          `${OUTCOME_TEXT[e.outcome]}${failed ? `: ${failure}` : e.value !== undefined ? `: ${e.kind === "for" ? summarize(e.value) : shortJson(e.value, 80)}` : ""}, ` +
          `${duration(e.durationMs)}`,
      },
      el("span", { class: "tr-num", "aria-hidden": "true" }, String(node.index + 1)),
      el(
        "span",
        { class: "tr-body", style: `--depth: ${node.depth}` },
        el(
          "span",
          { class: "tr-head" },
          ...(inOther ? [el("span", { class: "tr-fn" }, e.function)] : []),
          el("span", { class: "tr-kind" }, e.kind),
          ...what,
          el("span", { class: `tr-outcome ${e.outcome}` }, OUTCOME_TEXT[e.outcome]),
        ),
        detail,
      ),
      el(
        "span",
        { class: "tr-time" },
        el(
          "span",
          { class: "tr-bar", "aria-hidden": "true" },
          el("span", { class: "tr-fill", style: `width: ${pct.toFixed(1)}%` }),
        ),
        el("span", { class: "tr-ms" }, duration(e.durationMs)),
      ),
    );
    row.addEventListener("click", () => {
      for (const r of rows) r.setAttribute("aria-current", String(r === row));
      moveFocus(node.index, false);
      view.onPick(e, row);
    });
    rows[node.index] = row;
    const li = el("li", {}, row);
    if (node.children.length) li.append(el("ol", { class: "trace-children" }, ...node.children.map(item)));
    return li;
  };

  // One tab stop for the whole list; arrows, Home and End move between rows.
  const moveFocus = (to: number, focus = true) => {
    const target = rows[Math.max(0, Math.min(rows.length - 1, to))];
    if (!target) return;
    for (const r of rows) r.tabIndex = r === target ? 0 : -1;
    if (focus) target.focus();
  };
  list.onkeydown = (ev: KeyboardEvent) => {
    const at = rows.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to =
      ev.key === "ArrowDown"
        ? at + 1
        : ev.key === "ArrowUp"
          ? at - 1
          : ev.key === "Home"
            ? 0
            : ev.key === "End"
              ? rows.length - 1
              : null;
    if (to === null) return;
    ev.preventDefault();
    moveFocus(to);
  };
  list.replaceChildren(...nestTrace(trace, fileFunctions).map(item));
  return rows;
}
