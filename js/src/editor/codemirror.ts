// CodeMirror 6 set-up from the @codemirror/* packages: JSON mode (and a small
// JavaScript mode for the mock tools), line numbers, folding, bracket matching,
// closing brackets, completion, lint marks, undo history, search, and the
// standard key bindings (Tab indents; Escape then Tab leaves the editor).
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type CompletionSource,
} from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  HighlightStyle,
  indentOnInput,
  StreamLanguage,
  syntaxHighlighting,
} from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { search, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState, RangeSetBuilder, StateEffect, StateField, type Extension } from "@codemirror/state";
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
} from "@codemirror/view";
import { tags as t } from "@lezer/highlight";

// ---- hanging indent for wrapped lines ---------------------------------------

// A class per indentation rather than a style attribute: a page whose
// Content-Security-Policy refuses inline styles (style-src without
// 'unsafe-inline') still lays wrapped lines out (the theme's rules are a
// constructed style sheet, which the policy allows).
const MAX_HANG = 60;
const hangDecorations = Array.from({ length: MAX_HANG + 3 }, (_, indent) =>
  Decoration.line({ class: `cm-hang-${indent}` }),
);
const hangRules = Object.fromEntries(
  hangDecorations.map((_, indent) => [
    `.cm-hang-${indent}`,
    { paddingLeft: `calc(${indent}ch + 6px)`, textIndent: `-${indent}ch` },
  ]),
);

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
        for (let pos = from; pos <= to;) {
          const line = view.state.doc.lineAt(pos);
          const indent = Math.min(/^[ \t]*/.exec(line.text)![0].replace(/\t/g, "  ").length, MAX_HANG) + 2;
          builder.add(line.from, line.from, hangDecorations[indent]!);
          pos = line.to + 1;
        }
      }
      return builder.finish();
    }
  },
  { decorations: (v) => v.decorations },
);

// ---- a marked range (the step a trace row names) ----------------------------

const setMarkedRange = StateEffect.define<{ from: number; to: number } | null>();
const markDecoration = Decoration.mark({ class: "cm-traceMark" });

/** A highlighted range, kept until the text changes or another range is marked. */
const markedRange = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects)
      if (e.is(setMarkedRange))
        return e.value && e.value.to > e.value.from
          ? Decoration.set([markDecoration.range(e.value.from, e.value.to)])
          : Decoration.none;
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** Marks a range of the editor (the cursor goes to its start; it scrolls into view); null removes the mark. */
export function markRange(view: EditorView, range: { from: number; to: number } | null): void {
  if (!range) {
    view.dispatch({ effects: setMarkedRange.of(null) });
    return;
  }
  const to = Math.min(range.to, view.state.doc.length);
  const from = Math.min(range.from, to);
  view.dispatch({
    selection: { anchor: from },
    effects: [setMarkedRange.of({ from, to }), EditorView.scrollIntoView(from, { y: "start", yMargin: 24 })],
  });
}

/** The marked range, if any (for the tests). */
export function markedRangeOf(view: EditorView): { from: number; to: number } | null {
  const iter = view.state.field(markedRange, false)?.iter();
  return iter && iter.value ? { from: iter.from, to: iter.to } : null;
}

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
  ".cm-gutters": {
    backgroundColor: "var(--gutter-bg)",
    color: "var(--muted)",
    border: "none",
    borderRight: "1px solid var(--border)",
  },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)", color: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--selection) !important",
  },
  ".cm-matchingBracket": {
    backgroundColor: "var(--match-bg)",
    outline: "1px solid var(--match-border)",
    color: "inherit",
  },
  ".cm-nonmatchingBracket": { backgroundColor: "var(--error-bg)", color: "inherit" },
  ".cm-foldGutter .cm-gutterElement": { padding: "0 4px", cursor: "pointer" },
  ".cm-foldPlaceholder": {
    backgroundColor: "var(--chip-bg)",
    border: "1px solid var(--border)",
    color: "var(--muted)",
  },
  ".cm-tooltip": { backgroundColor: "var(--panel-bg)", border: "1px solid var(--border)", color: "var(--fg)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--accent-fg)" },
  ".cm-ptcHover": {
    maxWidth: "30em",
    padding: "6px 9px",
    whiteSpace: "pre-wrap",
    fontFamily: "var(--sans)",
    fontSize: "13px",
  },
  ".cm-ptcHover strong": { display: "block", fontFamily: "var(--mono)", marginBottom: "3px" },
  ".cm-completionDetail": { opacity: "0.75", fontStyle: "normal", marginLeft: "1em" },
  ".cm-completionInfo": { maxWidth: "28em", whiteSpace: "pre-wrap", fontFamily: "var(--sans)", fontSize: "13px" },
  ".cm-lintRange-error": {
    backgroundImage: "none",
    textDecoration: "underline wavy var(--error)",
    textUnderlineOffset: "3px",
    backgroundColor: "var(--error-bg)",
  },
  ".cm-lintRange-warning": {
    backgroundImage: "none",
    textDecoration: "underline wavy var(--warning)",
    textUnderlineOffset: "3px",
  },
  ".cm-diagnostic": { fontFamily: "var(--sans)", maxWidth: "36em", whiteSpace: "pre-wrap" },
  ".cm-diagnostic-error": { borderLeftColor: "var(--error)" },
  ".cm-lint-marker": { width: "0.9em", height: "0.9em" },
  ".cm-panels": { backgroundColor: "var(--gutter-bg)", color: "var(--fg)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--border)" },
  ".cm-search": { fontFamily: "var(--sans)", fontSize: "13px", padding: "4px 8px 6px" },
  ".cm-search label": { fontSize: "12.5px", color: "var(--muted)" },
  ".cm-textfield": {
    font: "13px var(--mono)",
    backgroundColor: "var(--editor-bg)",
    color: "var(--fg)",
    border: "1px solid var(--border)",
    borderRadius: "5px",
    padding: "3px 6px",
  },
  ".cm-button": {
    font: "12.5px var(--sans)",
    backgroundImage: "none",
    backgroundColor: "var(--panel-bg)",
    color: "var(--fg)",
    border: "1px solid var(--border)",
    borderRadius: "5px",
    padding: "2px 8px",
  },
  ".cm-panel.cm-search [name=close]": { color: "var(--muted)", fontSize: "18px", right: "6px" },
  ".cm-searchMatch": { backgroundColor: "var(--match-bg)", outline: "1px solid var(--match-border)" },
  ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: "var(--selection)" },
  ".cm-traceMark": { backgroundColor: "var(--trace-mark)", borderRadius: "2px" },
  ...hangRules,
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
  /** Id of an element that tells the keys (Tab indents, Escape then Tab leaves). */
  describedBy?: string;
  language: "json" | "javascript";
  onChange?: (view: EditorView) => void;
  completion?: CompletionSource;
  /** Soft-wrap long lines (default on; setWrapping changes it). */
  wrap?: boolean;
  extra?: Extension[];
}

const wrapping = new Compartment();
const labelling = new Compartment();

/** What assistive technology calls the editor (`aria-label`); `describedBy` names the key hint. */
const labelAttributes = (label: string, describedBy?: string) =>
  EditorView.contentAttributes.of({ "aria-label": label, ...(describedBy ? { "aria-describedby": describedBy } : {}) });

export function setLabel(view: EditorView, label: string, describedBy?: string): void {
  view.dispatch({ effects: labelling.reconfigure(labelAttributes(label, describedBy)) });
}

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
    history(),
    markedRange,
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
    search({ top: true }),
    keymap.of([
      ...closeBracketsKeymap,
      ...completionKeymap,
      ...searchKeymap,
      ...defaultKeymap,
      ...historyKeymap,
      ...foldKeymap,
      indentWithTab,
    ]),
    theme,
    wrapping.of(o.wrap === false ? [] : [EditorView.lineWrapping, hangingIndent]),
    labelling.of(labelAttributes(o.label, o.describedBy)),
    EditorView.contentAttributes.of({
      "aria-multiline": "true",
      spellcheck: "false",
      autocapitalize: "off",
      autocorrect: "off",
    }),
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

export const textOf = (view: EditorView) => view.state.doc.toString();

/** Replaces the editor's lint marks (errors at their place; none: []). */
export function mark(view: EditorView, diagnostics: Diagnostic[]): void {
  view.dispatch(setDiagnostics(view.state, diagnostics));
}
