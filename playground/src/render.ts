// The page's elements by id, and the DOM helpers it shares with the embeddable editor.
export { el, escapeHtml, highlightJson, showJson, summarize } from "../../js/src/editor/render.js";

/** An element of index.html by its id. */
export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
