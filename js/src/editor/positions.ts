// Text positions: UTF-8 byte offsets (what the engine reports) to string
// offsets (what the editor uses), JSON Pointers to text ranges, and the first
// JSON syntax error of a text with its exact position.
import { ensureSyntaxTree } from "@codemirror/language";
import type { EditorState } from "@codemirror/state";
import type { SyntaxNode } from "@lezer/common";

/** The UTF-16 index of the character that starts at UTF-8 byte `byteOffset` of `text`. */
export function byteOffsetToIndex(text: string, byteOffset: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < byteOffset) {
    const code = text.codePointAt(i)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code > 0xffff ? 2 : 1;
  }
  return i;
}

/** "/program/steps/1" → ["program", "steps", "1"] (RFC 6901 escapes undone). */
export function parsePointer(pointer: string): string[] {
  if (pointer === "" || pointer === "/") return pointer === "/" ? [""] : [];
  return pointer
    .replace(/^\//, "")
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export interface PointerRange {
  from: number;
  to: number;
  /** False when only a prefix of the pointer was found (the range is the deepest node found). */
  exact: boolean;
}

const VALUE_NODES = new Set(["Object", "Array", "String", "Number", "True", "False", "Null"]);

function valueChildren(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (VALUE_NODES.has(c.name)) out.push(c);
  return out;
}

function propertyKey(state: EditorState, property: SyntaxNode): string | undefined {
  const name = property.getChild("PropertyName");
  if (!name) return undefined;
  try {
    return JSON.parse(state.sliceDoc(name.from, name.to)) as string;
  } catch {
    return undefined;
  }
}

/**
 * The text range of the node a JSON Pointer names, read from the Lezer JSON tree.
 * A pointer whose last token is an object key gives the whole property
 * (`"key": value`), so an unknown field is marked name and value together.
 */
export function resolvePointer(state: EditorState, pointer: string): PointerRange | null {
  const tree = ensureSyntaxTree(state, state.doc.length, 500);
  if (!tree) return null;
  let node: SyntaxNode | null = valueChildren(tree.topNode)[0] ?? null;
  if (!node) return null;
  let range: { from: number; to: number } = node;
  for (const token of parsePointer(pointer)) {
    if (node?.name === "Object") {
      let found: SyntaxNode | null = null;
      for (const p of node.getChildren("Property")) if (propertyKey(state, p) === token) found = p;
      if (!found) return { from: range.from, to: range.to, exact: false };
      range = found;
      node = valueChildren(found)[0] ?? null;
    } else if (node?.name === "Array" && /^(0|[1-9]\d*)$/.test(token)) {
      const item: SyntaxNode | undefined = valueChildren(node)[Number(token)];
      if (!item) return { from: range.from, to: range.to, exact: false };
      range = node = item;
    } else {
      return { from: range.from, to: range.to, exact: false };
    }
  }
  return { from: range.from, to: range.to, exact: true };
}

/** The end of the JSON token that starts at `index` (at least one character when there is one). */
export function tokenEnd(text: string, index: number): number {
  if (index >= text.length) return index;
  const ch = text[index];
  if (ch === '"') {
    for (let i = index + 1; i < text.length; i++) {
      if (text[i] === "\\") i++;
      else if (text[i] === '"' || text[i] === "\n") return i + 1;
    }
    return text.length;
  }
  const word = /^[\w.+-]+/.exec(text.slice(index, index + 200));
  return index + (word ? word[0].length : 1);
}

export interface JsonSyntaxError {
  index: number;
  message: string;
}

/** The first syntax error of a JSON text (string index and a message), or null when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (message: string): never => {
    throw { index: i, message } satisfies JsonSyntaxError;
  };
  const describe = () => (i >= text.length ? "the end of the text" : `'${text[i]}'`);
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`Unexpected ${describe()}; expected a value`);
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail("Unescaped control character in a string (a string cannot span lines)");
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail("Bad \\u escape in a string");
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail("Bad escape in a string");
      }
      i++;
    }
    if (i >= text.length) fail("Unterminated string");
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail(`Unexpected ${describe()}; expected a value`);
    i += m![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 1000) fail("Nested too deeply");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`Unexpected ${describe()}; expected a property name in double quotes`);
        string();
        ws();
        if (text[i] !== ":") fail(`Unexpected ${describe()}; expected ':' after the property name`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") return void i++;
        fail(`Unexpected ${describe()}; expected ',' or '}'`);
      }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") return void i++;
        fail(`Unexpected ${describe()}; expected ',' or ']'`);
      }
    } else if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) number();
    else fail(`Unexpected ${describe()}; expected a value`);
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail(`Unexpected ${describe()} after the JSON value`);
    return null;
  } catch (e) {
    if (typeof e === "object" && e !== null && "index" in e) return e as JsonSyntaxError;
    throw e;
  }
}
