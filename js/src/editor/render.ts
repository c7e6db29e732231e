// Small DOM helpers of the editor and the playground: highlighted JSON, element creation.
import { formatJson } from "./format.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** HTML of JSON text with token classes (j-key, j-str, j-num, j-atom). */
export function highlightJson(text: string): string {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    out += escapeHtml(text.slice(last, m.index));
    if (m[1] !== undefined)
      out +=
        m[2] !== undefined
          ? `<span class="j-key">${escapeHtml(m[1])}</span>${m[2]}`
          : `<span class="j-str">${escapeHtml(m[1])}</span>`;
    else if (m[3] !== undefined) out += `<span class="j-num">${m[3]}</span>`;
    else out += `<span class="j-atom">${m[4]}</span>`;
    last = m.index! + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

const MAX_CHARS = 200_000;

/** Fills a <pre> with a value as highlighted JSON (long texts are cut). */
export function showJson(pre: HTMLElement, value: unknown, width = 72): void {
  let text = value === undefined ? "" : formatJson(value, width);
  let note = "";
  if (text.length > MAX_CHARS) {
    note = `\n… ${Math.round((text.length - MAX_CHARS) / 1024)} KB more not shown`;
    text = text.slice(0, MAX_CHARS);
  }
  pre.innerHTML = highlightJson(text) + (note ? `<span class="j-note">${escapeHtml(note)}</span>` : "");
}

/** A one-line summary of a value: "list of 3", "object with 2 keys", "42". */
export function summarize(value: unknown): string {
  if (Array.isArray(value)) return `list of ${value.length}`;
  if (value && typeof value === "object") {
    const n = Object.keys(value).length;
    return `object with ${n} key${n === 1 ? "" : "s"}`;
  }
  const s = JSON.stringify(value) ?? "null";
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}
