// CodeMirror 6 set-up from the @codemirror/* packages alone: JSON mode (and a
// small JavaScript mode for the mock tools), line numbers, folding, bracket
// matching, closing brackets, completion, lint marks, and a compact undo
// history and Enter-with-indent (the project has no @codemirror/commands).
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionSource } from "@codemirror/autocomplete";
import { json } from "@codemirror/lang-json";
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  getIndentation,
  HighlightStyle,
  IndentContext,
  indentOnInput,
  indentString,
  StreamLanguage,
  syntaxHighlighting,
} from "@codemirror/language";
import { lintGutter } from "@codemirror/lint";
import {
  Annotation,
  ChangeSet,
  Compartment,
  RangeSetBuilder,
  EditorSelection,
  EditorState,
  StateEffect,
  StateField,
  Transaction,
  type Extension,
} from "@codemirror/state";
import {
  Decoration,
  drawSelection,
  dropCursor,
  EditorView,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  type Command,
} from "@codemirror/view";
import { tags as t } from "@lezer/highlight";

// ---- undo history -------------------------------------------------------

interface HistoryEntry {
  /** Changes that undo (or redo) the entry. */
  changes: ChangeSet;
  selection: EditorSelection;
  time: number;
  kind: string;
}
interface HistoryState {
  done: HistoryEntry[];
  undone: HistoryEntry[];
}
const fromHistory = Annotation.define<boolean>();
const setHistory = StateEffect.define<HistoryState>();
const MAX_HISTORY = 300;
const GROUP_MS = 600;

const eventKind = (tr: Transaction) => {
  const e = tr.annotation(Transaction.userEvent) ?? "";
  return e.startsWith("input.type") ? "type" : e.startsWith("delete") ? "delete" : e || "other";
};

const historyField = StateField.define<HistoryState>({
  create: () => ({ done: [], undone: [] }),
  update(history, tr) {
    for (const e of tr.effects) if (e.is(setHistory)) return e.value;
    if (!tr.docChanged || tr.annotation(fromHistory)) return history;
    const inverse = tr.changes.invert(tr.startState.doc);
    const kind = eventKind(tr);
    const now = Date.now();
    const last = history.done[history.done.length - 1];
    if (last && (kind === "type" || kind === "delete") && last.kind === kind && now - last.time < GROUP_MS) {
      const merged = { changes: inverse.compose(last.changes), selection: last.selection, time: now, kind };
      return { done: [...history.done.slice(0, -1), merged], undone: [] };
    }
    const entry = { changes: inverse, selection: tr.startState.selection, time: now, kind };
    return { done: [...history.done, entry].slice(-MAX_HISTORY), undone: [] };
  },
});

function historyCommand(direction: "undo" | "redo"): Command {
  return (view) => {
    const history = view.state.field(historyField, false);
    if (!history) return false;
    const from = direction === "undo" ? history.done : history.undone;
    const entry = from[from.length - 1];
    if (!entry) return false;
    const back: HistoryEntry = {
      changes: entry.changes.invert(view.state.doc),
      selection: view.state.selection,
      time: 0,
      kind: "history",
    };
    const next =
      direction === "undo"
        ? { done: history.done.slice(0, -1), undone: [...history.undone, back] }
        : { done: [...history.done, back], undone: history.undone.slice(0, -1) };
    view.dispatch({
      changes: entry.changes,
      selection: entry.selection,
      effects: setHistory.of(next),
      annotations: [fromHistory.of(true), Transaction.userEvent.of(direction)],
      scrollIntoView: true,
    });
    return true;
  };
}
export const undo = historyCommand("undo");
export const redo = historyCommand("redo");

// ---- editing commands ----------------------------------------------------

/** Enter: a new line indented for the syntax; between brackets, the closing one goes on its own line. */
const newlineAndIndent: Command = (view) => {
  const { state } = view;
  if (state.readOnly) return false;
  const tr = state.changeByRange((range) => {
    const { from, to } = range;
    const line = state.doc.lineAt(from);
    const pair = state.sliceDoc(from - 1, from) + state.sliceDoc(to, to + 1);
    const explode = pair === "{}" || pair === "[]" || pair === "()";
    const cx = new IndentContext(state, { simulateBreak: from, simulateDoubleBreak: explode });
    const lineIndent = /^[ \t]*/.exec(line.text)![0].length;
    const indent = getIndentation(cx, from) ?? lineIndent;
    const first = "\n" + indentString(state, indent);
    const insert = explode ? first + "\n" + indentString(state, lineIndent) : first;
    return { changes: { from, to, insert }, range: EditorSelection.cursor(from + first.length) };
  });
  view.dispatch(state.update(tr, { scrollIntoView: true, userEvent: "input" }));
  return true;
};

const selectAll: Command = (view) => {
  view.dispatch({ selection: { anchor: 0, head: view.state.doc.length }, userEvent: "select" });
  return true;
};

const editingKeymap = [
  { key: "Mod-z", run: undo, preventDefault: true },
  { key: "Mod-y", mac: "Mod-Shift-z", run: redo, preventDefault: true },
  { key: "Mod-Shift-z", run: redo, preventDefault: true },
  { key: "Enter", run: newlineAndIndent },
  { key: "Mod-a", run: selectAll },
];

// ---- hanging indent for wrapped lines ---------------------------------------

/** Wrapped continuation lines start two columns right of their line's indentation. */
const hangingIndent = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = this.build(view);
    }
    update(u: ViewUpdate) {
      if (u.docChanged || u.viewportChanged) this.decorations = this.build(u.view);
    }
    build(view: EditorView): DecorationSet {
      const builder = new RangeSetBuilder<Decoration>();
      for (const { from, to } of view.visibleRanges) {
        for (let pos = from; pos <= to; ) {
          const line = view.state.doc.lineAt(pos);
          const indent = /^[ \t]*/.exec(line.text)![0].replace(/\t/g, "  ").length + 2;
          builder.add(line.from, line.from, Decoration.line({
            attributes: { style: `padding-left: calc(${indent}ch + 6px); text-indent: -${indent}ch` },
          }));
          pos = line.to + 1;
        }
      }
      return builder.finish();
    }
  },
  { decorations: (v) => v.decorations },
);

// ---- looks ---------------------------------------------------------------

const highlight = HighlightStyle.define([
  { tag: t.propertyName, color: "var(--tok-key)" },
  { tag: t.string, color: "var(--tok-string)" },
  { tag: t.number, color: "var(--tok-number)" },
  { tag: [t.bool, t.null], color: "var(--tok-atom)" },
  { tag: t.keyword, color: "var(--tok-keyword)" },
  { tag: t.comment, color: "var(--tok-comment)", fontStyle: "italic" },
  { tag: [t.brace, t.squareBracket, t.separator, t.operator], color: "var(--tok-punct)" },
  { tag: t.variableName, color: "var(--fg)" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13.5px", backgroundColor: "var(--editor-bg)", color: "var(--fg)" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.55" },
  ".cm-content": { caretColor: "var(--fg)", padding: "6px 0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)", borderLeftWidth: "2px" },
  ".cm-gutters": { backgroundColor: "var(--gutter-bg)", color: "var(--muted)", border: "none", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)", color: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--selection) !important",
  },
  ".cm-matchingBracket": { backgroundColor: "var(--match-bg)", outline: "1px solid var(--match-border)", color: "inherit" },
  ".cm-nonmatchingBracket": { backgroundColor: "var(--error-bg)", color: "inherit" },
  ".cm-foldGutter .cm-gutterElement": { padding: "0 4px", cursor: "pointer" },
  ".cm-foldPlaceholder": { backgroundColor: "var(--chip-bg)", border: "1px solid var(--border)", color: "var(--muted)" },
  ".cm-tooltip": { backgroundColor: "var(--panel-bg)", border: "1px solid var(--border)", color: "var(--fg)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--accent-fg)" },
  ".cm-completionDetail": { opacity: "0.75", fontStyle: "normal", marginLeft: "1em" },
  ".cm-completionInfo": { maxWidth: "28em", whiteSpace: "pre-wrap", fontFamily: "var(--sans)", fontSize: "13px" },
  ".cm-lintRange-error": { backgroundImage: "none", textDecoration: "underline wavy var(--error)", textUnderlineOffset: "3px", backgroundColor: "var(--error-bg)" },
  ".cm-lintRange-warning": { backgroundImage: "none", textDecoration: "underline wavy var(--warning)", textUnderlineOffset: "3px" },
  ".cm-diagnostic": { fontFamily: "var(--sans)", maxWidth: "36em", whiteSpace: "pre-wrap" },
  ".cm-diagnostic-error": { borderLeftColor: "var(--error)" },
  ".cm-lint-marker": { width: "0.9em", height: "0.9em" },
});

// ---- a small JavaScript mode for the Tools editor --------------------------

interface JsState {
  comment: boolean;
  depth: number;
}
const JS_KEYWORDS =
  /^(?:async|await|const|let|var|function|return|if|else|for|of|in|new|throw|try|catch|finally|while|do|break|continue|true|false|null|undefined|this|typeof|instanceof|switch|case|default|class)\b/;

const javascriptLite = StreamLanguage.define<JsState>({
  name: "javascript-lite",
  startState: () => ({ comment: false, depth: 0 }),
  copyState: (s) => ({ ...s }),
  token(stream, state) {
    if (state.comment) {
      if (stream.skipTo("*/")) {
        stream.pos += 2;
        state.comment = false;
      } else stream.skipToEnd();
      return "comment";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match("/*")) {
      state.comment = true;
      return "comment";
    }
    const ch = stream.peek()!;
    if (ch === '"' || ch === "'" || ch === "`") {
      stream.next();
      let escaped = false;
      for (let c = stream.next(); c != null; c = stream.next()) {
        if (c === ch && !escaped) break;
        escaped = !escaped && c === "\\";
      }
      return "string";
    }
    if (stream.match(/^\d+(\.\d+)?([eE][+-]?\d+)?/)) return "number";
    if (stream.match(JS_KEYWORDS)) return "keyword";
    if (stream.match(/^[A-Za-z_$][\w$]*(?=\s*:(?!:))/)) return "propertyName";
    if (stream.match(/^[A-Za-z_$][\w$]*/)) return "variableName";
    if (stream.match(/^(=>|[-+*/%=<>!&|?]+)/)) return "operator";
    const c = stream.next()!;
    if ("([{".includes(c)) state.depth++;
    else if (")]}".includes(c)) state.depth = Math.max(0, state.depth - 1);
    return "[{".includes(c) ? "brace" : "]}".includes(c) ? "brace" : null;
  },
  indent(state, textAfter, cx) {
    const closing = /^[)\]}]/.test(textAfter) ? 1 : 0;
    return Math.max(0, state.depth - closing) * cx.unit;
  },
  languageData: {
    commentTokens: { line: "//", block: { open: "/*", close: "*/" } },
    closeBrackets: { brackets: ["(", "[", "{", "'", '"', "`"] },
    indentOnInput: /^\s*[)\]}]$/,
  },
});

// ---- editors -------------------------------------------------------------

export interface EditorOptions {
  parent: HTMLElement;
  doc: string;
  label: string;
  language: "json" | "javascript";
  onChange?: (view: EditorView) => void;
  completion?: CompletionSource;
  /** Soft-wrap long lines (default on; setWrapping changes it). */
  wrap?: boolean;
  extra?: Extension[];
}

const wrapping = new Compartment();

export function setWrapping(view: EditorView, on: boolean): void {
  view.dispatch({ effects: wrapping.reconfigure(on ? [EditorView.lineWrapping, hangingIndent] : []) });
}

export function createEditor(o: EditorOptions): EditorView {
  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    foldGutter({ openText: "▾", closedText: "▸" }),
    lintGutter(),
    highlightSpecialChars(),
    historyField,
    drawSelection(),
    dropCursor(),
    indentOnInput(),
    syntaxHighlighting(highlight),
    bracketMatching(),
    closeBrackets(),
    highlightActiveLine(),
    o.language === "json" ? json() : javascriptLite,
    autocompletion({
      override: o.completion ? [o.completion] : [],
      activateOnTyping: true,
      icons: false,
    }),
    keymap.of([...closeBracketsKeymap, ...completionKeymap, ...editingKeymap, ...foldKeymap]),
    theme,
    wrapping.of(o.wrap === false ? [] : [EditorView.lineWrapping, hangingIndent]),
    EditorView.contentAttributes.of({ "aria-label": o.label, "aria-multiline": "true", spellcheck: "false", autocapitalize: "off", autocorrect: "off" }),
    ...(o.extra ?? []),
  ];
  if (o.onChange) {
    const onChange = o.onChange;
    extensions.push(EditorView.updateListener.of((u) => u.docChanged && onChange(u.view)));
  }
  return new EditorView({ state: EditorState.create({ doc: o.doc, extensions }), parent: o.parent });
}

/** Replaces the whole text (undoable), keeping the cursor near where it was. */
export function setText(view: EditorView, text: string): void {
  if (view.state.doc.toString() === text) return;
  const head = Math.min(view.state.selection.main.head, text.length);
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    selection: { anchor: head },
    userEvent: "set",
  });
}
