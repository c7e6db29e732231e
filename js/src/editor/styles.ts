// The embedded editor's looks: one style sheet, themable by CSS custom
// properties (--ptc-*), adopted by the document as a constructed style sheet
// so that a page whose Content-Security-Policy refuses inline styles still
// shows it (CodeMirror's own rules travel the same way). Light and dark follow
// the OS unless `theme` fixes one.

/** The custom properties a host may set on the element (or any ancestor), with the light defaults. */
export const THEME_PROPERTIES: Record<string, [light: string, dark: string]> = {
  sans: [
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  ],
  mono: [
    'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace',
    'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace',
  ],
  "panel-bg": ["#ffffff", "#151922"],
  fg: ["#1b1f2e", "#e5e8f0"],
  muted: ["#5f6b7d", "#98a2b3"],
  border: ["#dde1ea", "#272d3a"],
  accent: ["#4f46e5", "#818cf8"],
  "accent-fg": ["#ffffff", "#0d1017"],
  error: ["#c52a1c", "#ff8a7a"],
  "error-bg": ["#fdf1f0", "#2d1716"],
  warning: ["#b45309", "#fdb022"],
  "warn-bg": ["#fff5e6", "#2b2212"],
  ok: ["#067647", "#47cd89"],
  "trace-mark": ["rgba(250, 204, 21, 0.38)", "rgba(250, 204, 21, 0.22)"],
  "chip-bg": ["#eef0f6", "#222836"],
  "code-bg": ["#f6f7fb", "#11141b"],
  "editor-bg": ["#ffffff", "#12151d"],
  "gutter-bg": ["#f8f9fc", "#141822"],
  "active-line": ["#f2f4fb", "#1a1f2b"],
  selection: ["#d8dbff", "#334080"],
  "match-bg": ["#e3e7ff", "#2a3160"],
  "match-border": ["#a5b4fc", "#6366f1"],
  "tok-key": ["#1d4ed8", "#8fb8ff"],
  "tok-string": ["#067647", "#7ee2a8"],
  "tok-number": ["#b54708", "#fdc46b"],
  "tok-atom": ["#c11574", "#f7a1d0"],
  "tok-keyword": ["#6d28d9", "#c4b5fd"],
  "tok-comment": ["#6b7280", "#7d8597"],
  "tok-punct": ["#64748b", "#94a3b8"],
};

const vars = (which: 0 | 1) =>
  Object.entries(THEME_PROPERTIES)
    .map(([name, values]) => `--${name}: var(--ptc-${name}, ${values[which]});`)
    .join(" ");

const CSS = `
:host { display: block; }
.ptc-editor { ${vars(0)} color-scheme: light; container-type: inline-size; display: grid; gap: 10px;
  grid-template-columns: minmax(0, 1fr); font: 14px/1.45 var(--sans); color: var(--fg); min-width: 0; }
.ptc-editor[data-theme="dark"] { ${vars(1)} color-scheme: dark; }
@media (prefers-color-scheme: dark) { .ptc-editor[data-theme="auto"] { ${vars(1)} color-scheme: dark; } }
.ptc-editor__program { border: 1px solid var(--border); border-radius: var(--ptc-radius, 8px); overflow: hidden;
  min-height: var(--ptc-editor-min-height, 220px); height: var(--ptc-editor-height, auto); display: flex; }
.ptc-editor__program > .cm-editor { flex: 1; min-width: 0; }
.ptc-editor__program > .cm-editor.cm-focused { outline: 2px solid var(--accent); outline-offset: -1px; }
.ptc-editor__panel { border: 1px solid var(--border); border-radius: var(--ptc-radius, 8px); background: var(--panel-bg);
  padding: 10px 12px; min-width: 0; display: flex; flex-direction: column; gap: 8px; }
@container (min-width: 760px) { .ptc-editor__body { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 10px; } }
.ptc-editor__body { display: grid; gap: 10px; min-width: 0; }
.ptc-editor__bar { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.ptc-editor__title { font-weight: 600; margin: 0; font-size: 14px; }
.ptc-editor__status { color: var(--muted); font-size: 13px; margin-left: auto; }
.ptc-editor[data-status="error"] .ptc-editor__status { color: var(--error); }
.ptc-editor[data-status="ok"] .ptc-editor__status { color: var(--ok); }
.ptc-editor__run { font: 600 13px var(--sans); background: var(--accent); color: var(--accent-fg); border: 0;
  border-radius: 6px; padding: 5px 14px; cursor: pointer; }
.ptc-editor__run:focus-visible { outline: 2px solid var(--fg); outline-offset: 2px; }
.ptc-editor__run:disabled { opacity: 0.6; cursor: default; }
.ptc-editor__result { margin: 0; font: 12.5px/1.5 var(--mono); background: var(--code-bg); border-radius: 6px;
  padding: 8px 10px; overflow: auto; max-height: var(--ptc-result-max-height, 320px); white-space: pre-wrap;
  overflow-wrap: anywhere; }
.ptc-editor__result.stale { opacity: 0.45; }
.ptc-editor__error { background: var(--error-bg); border-left: 3px solid var(--error); border-radius: 4px;
  padding: 6px 10px; }
.ptc-editor__error strong { color: var(--error); display: block; }
.ptc-editor__error p { margin: 2px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13px; }
.ptc-editor__section h3 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted);
  margin: 4px 0; }
.ptc-editor__section ul, .ptc-editor__section ol { margin: 0; padding-left: 1.3em; font-size: 13px; }
.ptc-editor__section li { margin: 2px 0; overflow-wrap: anywhere; }
.ptc-editor__warnings { background: var(--warn-bg); border-radius: 4px; padding: 4px 10px 6px; }
.ptc-editor__warnings h3 { color: var(--warning); }
.ptc-editor code, .ptc-editor__call-args { font-family: var(--mono); font-size: 12px; }
.ptc-editor__call { background: none; border: 0; padding: 0; font: inherit; color: inherit; text-align: left;
  cursor: pointer; }
.ptc-editor__call:hover .ptc-editor__call-tool, .ptc-editor__call:focus-visible .ptc-editor__call-tool {
  text-decoration: underline; }
.ptc-editor__call-tool { font-family: var(--mono); font-weight: 600; }
.ptc-editor__call-meta { color: var(--muted); font-size: 12px; }
.ptc-editor__call[data-outcome]:not([data-outcome="value"]) .ptc-editor__call-meta { color: var(--error); }
.ptc-editor__metrics { color: var(--muted); font-size: 12px; margin: 0; }
.j-key { color: var(--tok-key); } .j-str { color: var(--tok-string); } .j-num { color: var(--tok-number); }
.j-atom { color: var(--tok-atom); } .j-note { color: var(--muted); font-style: italic; }
.ptc-editor [hidden] { display: none !important; }
`;

const adopted = new WeakSet<Document | ShadowRoot>();

/** Adds the editor's style sheet to a shadow root (or document), once. */
export function adoptStyles(target: Document | ShadowRoot): void {
  if (adopted.has(target)) return;
  adopted.add(target);
  if (typeof CSSStyleSheet === "function" && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
    return;
  }
  // An older browser: a <style> element (a strict policy needs style-src 'unsafe-inline' there).
  const style = document.createElement("style");
  style.textContent = CSS;
  (target instanceof Document ? target.head : target).append(style);
}
