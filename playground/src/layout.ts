// The page's layout: the three editors (soft wrap, labels, completion), the
// input tabs, the operation reference panel, and the parts each dialect shows.
import type { CompletionContext } from "@codemirror/autocomplete";
import type { EditorView } from "@codemirror/view";
import { ptcHover } from "../../js/src/editor/hover.js";
import { announce } from "./announce.js";
import { dialects, type CompletionHints } from "./dialects.js";
import { createEditor, markRange, setLabel, setWrapping, textOf } from "../../js/src/editor/codemirror.js";
import type { DialectId } from "./examples.js";
import { $ } from "./render.js";
import type { Session } from "./share.js";
import { dialect, state, views } from "./state.js";
import { functionNames, resetFunctions, showTrace } from "./trace-panel.js";

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

/** The context's top-level keys, for completion of `load`. */
function contextKeys(): string[] {
  try {
    const ctx = JSON.parse(views.context.state.doc.toString());
    return ctx && typeof ctx === "object" && !Array.isArray(ctx) ? Object.keys(ctx) : [];
  } catch {
    return [];
  }
}

/**
 * Makes the editors with the first session's text (before anything else uses
 * `views`); `onEdit` follows every change, `toolNames` feeds completion.
 */
export function createEditors(session: Session, o: { onEdit: () => void; toolNames: () => string[] }): void {
  const onChange = (view: EditorView) => {
    updateWrapping(view);
    o.onEdit();
  };
  const hints: CompletionHints = {
    operations: () => state.operations,
    toolNames: o.toolNames,
    contextKeys,
    functionNames,
  };
  const completions = Object.fromEntries(Object.values(dialects).map((d) => [d.id, d.completion(hints)]));
  const d = dialect();
  views.program = createEditor({
    parent: $("program-editor"),
    doc: session.program,
    wrap: !hasLongLine(session.program),
    label: d.programLabel,
    describedBy: "editor-keys",
    language: "json",
    onChange,
    completion: (cx: CompletionContext) => completions[state.dialect](cx),
    // Step functions have no op table to explain.
    extra: [ptcHover(() => (state.dialect === "ptc-json" ? state.operations : null))],
  });
  views.context = createEditor({
    parent: $("context-editor"),
    doc: session.context,
    wrap: !hasLongLine(session.context),
    label: d.dataLabel,
    describedBy: "editor-keys",
    language: "json",
    onChange,
  });
  views.tools = createEditor({
    parent: $("tools-editor"),
    doc: session.tools,
    wrap: !hasLongLine(session.tools),
    label: "Mock tools (JavaScript): the body of an object literal of functions",
    describedBy: "editor-keys",
    language: "javascript",
    onChange,
  });
  for (const view of [views.program, views.context, views.tools]) wrapped.set(view, !hasLongLine(view));
}

/** The Wrap lines button. */
export function toggleWrapping(): void {
  wrapWanted = !wrapWanted;
  $("wrap-toggle").setAttribute("aria-pressed", String(wrapWanted));
  for (const view of [views.program, views.context, views.tools]) updateWrapping(view);
  if (wrapWanted && hasLongLine(views.program))
    announce("Lines longer than 1000 characters are not wrapped; Format splits them");
}

// ---- reference panel -------------------------------------------------------

/** Wide screens keep the reference open beside the editors; narrower ones overlay it. */
export const wideLayout = window.matchMedia("(min-width: 1400px)");

export function setReference(open: boolean, focus = false): void {
  const panel = $("reference");
  panel.hidden = !open;
  $("reference-toggle").setAttribute("aria-expanded", String(open));
  $("layout").classList.toggle("with-reference", open);
  if (open && focus) $("ref-filter").focus();
}

/** The reference's Insert button: the example at the cursor. */
export function insertIntoProgram(text: string): void {
  const { from, to } = views.program.state.selection.main;
  views.program.dispatch({
    changes: { from, to, insert: text },
    selection: { anchor: from + text.length },
    scrollIntoView: true,
    userEvent: "input",
  });
  views.program.focus();
  if (!wideLayout.matches) setReference(false);
}

// ---- tabs ------------------------------------------------------------------

/** The Context/Input and Mock tools tabs (arrows, Home, End move between them). */
export function setupTabs(): void {
  const tabs = [$("tab-context"), $("tab-tools")];
  const select = (tab: HTMLElement, focus: boolean) => {
    for (const t of tabs) {
      const selected = t === tab;
      t.setAttribute("aria-selected", String(selected));
      t.tabIndex = selected ? 0 : -1;
      $(t.getAttribute("aria-controls")!).hidden = !selected;
    }
    if (focus) tab.focus();
    (tab === tabs[0] ? views.context : views.tools).requestMeasure();
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
  $("input-error").addEventListener("click", () =>
    select($("tab-context").classList.contains("has-error") ? tabs[0] : tabs[1], true),
  );
  $("consent-review").addEventListener("click", () => select(tabs[1], true));
}

// ---- dialects --------------------------------------------------------------

/** Shows the parts of the page the dialect has (memory and tool calls, or the entry and the trace), with its names. */
export function setDialect(next: DialectId): void {
  const changed = next !== state.dialect;
  state.dialect = next;
  const d = dialects[next];
  const parts = d.parts;
  document.body.dataset.dialect = next;
  $("dialect-label").textContent = d.label;
  $("tab-context-name").textContent = d.dataTab;
  if (changed) {
    // (The editors were created with the first session's labels.)
    setLabel(views.program, d.programLabel, "editor-keys");
    setLabel(views.context, d.dataLabel, "editor-keys");
  }
  $("entry-bar").hidden = !parts.entry;
  $("trace-card").hidden = !parts.trace;
  $("calls-card").hidden = !parts.toolCalls;
  $("memory-card").hidden = !parts.memory;
  $("reference-toggle").hidden = !parts.reference;
  if (!parts.reference) setReference(false);
  else if (changed) setReference(wideLayout.matches);
  if (parts.entry) resetFunctions(textOf(views.program));
  if (parts.trace) showTrace([]);
  else if (changed) markRange(views.program, null);
}
