// Completion in the program editor, driven by the engine's operation table:
// op names after `"op": "`, the fields of the enclosing op (or keyed form) as keys, and a few
// value lists (sort order, tool names from the Tools tab, context keys for load).
import type { Completion, CompletionContext, CompletionResult } from "@codemirror/autocomplete";
import type { EditorState } from "@codemirror/state";
import type { Operation } from "../types/public.js";

interface ObjectFrame {
  kind: "object";
  keys: string[];
  op?: string;
  state: "key" | "colon" | "value" | "comma";
  lastKey?: string;
}
interface ArrayFrame {
  kind: "array";
}
type Frame = ObjectFrame | ArrayFrame;

export interface CursorContext {
  /** The object the cursor is in (all its keys and its op, also those after the cursor). */
  object?: ObjectFrame;
  role: "key" | "value" | "other";
  /** For a value: the key it belongs to. */
  key?: string;
  /** The string token the cursor is in: from its opening quote to its end (closing quote included if any). */
  string?: { from: number; to: number; closed: boolean };
}

/**
 * Reads the JSON text up to and beyond `pos` with a tolerant tokenizer (the text
 * is usually half-typed) and says where the cursor is: a key or a value, in
 * which object, and that object's op.
 */
export function cursorContext(text: string, pos: number): CursorContext {
  const stack: Frame[] = [];
  let found: CursorContext | null = null;
  const top = () => stack[stack.length - 1];
  const here = (): CursorContext => {
    const f = top();
    if (f?.kind !== "object") return { role: f ? "value" : "other" };
    if (f.state === "key") return { object: f, role: "key" };
    if (f.state === "value" || f.state === "colon") return { object: f, role: "value", key: f.lastKey };
    return { object: f, role: "other" };
  };
  const afterValue = () => {
    const f = top();
    if (f?.kind === "object") f.state = "comma";
  };
  let i = 0;
  while (i < text.length) {
    if (!found && i >= pos) found = here();
    const c = text[i];
    if (c === '"') {
      const from = i;
      let j = i + 1;
      let closed = false;
      for (; j < text.length; j++) {
        if (text[j] === "\\") j++;
        else if (text[j] === '"') {
          closed = true;
          j++;
          break;
        } else if (text[j] === "\n") break;
      }
      const value = text.slice(from + 1, closed ? j - 1 : j);
      if (!found && pos > from && (pos < j || (!closed && pos <= j)))
        found = { ...here(), string: { from, to: j, closed } };
      const f = top();
      if (f?.kind === "object" && f.state === "key") {
        f.lastKey = value;
        f.keys.push(value);
        f.state = "colon";
      } else {
        if (f?.kind === "object" && f.state === "value" && f.lastKey === "op") f.op = value;
        afterValue();
      }
      i = j;
      continue;
    }
    if (c === "{") stack.push({ kind: "object", keys: [], state: "key" });
    else if (c === "[") stack.push({ kind: "array" });
    else if (c === "}" || c === "]") {
      stack.pop();
      afterValue();
    } else if (c === ":") {
      const f = top();
      if (f?.kind === "object") f.state = "value";
    } else if (c === ",") {
      const f = top();
      if (f?.kind === "object") f.state = "key";
    } else if (/[\w.+-]/.test(c!)) {
      while (i + 1 < text.length && /[\w.+-]/.test(text[i + 1]!)) i++;
      afterValue();
    }
    i++;
  }
  return found ?? here();
}

export interface CompletionSources {
  operations: () => Operation[] | null;
  toolNames: () => string[];
  contextKeys: () => string[];
}

const quoted = (s: string) => JSON.stringify(s);

export function ptcCompletionSource(sources: CompletionSources) {
  return (cx: CompletionContext): CompletionResult | null => {
    const ops = sources.operations();
    if (!ops) return null;
    const state: EditorState = cx.state;
    const text = state.doc.toString();
    const where = cursorContext(text, cx.pos);
    const str = where.string;
    // Without an open string, complete only on request (Ctrl-Space) and insert quotes too.
    if (!str && !cx.explicit) return null;
    if (where.role === "other") return null;
    const from = str ? str.from + 1 : cx.pos;
    const contentEnd = str ? (str.closed ? str.to - 1 : str.to) : cx.pos;
    const typed = text.slice(from, cx.pos);
    if (!/^[\w$-]*$/.test(typed)) return null;

    let options: Completion[] = [];
    if (where.role === "key") {
      const obj = where.object!;
      const present = new Set(obj.keys);
      if (str) present.delete(text.slice(from, contentEnd)); // the key being typed
      // A keyed form ({"call": "t", ...}): its first key names the op, whose other fields it takes.
      const first = obj.keys.find((k) => present.has(k));
      const keyed = obj.op === undefined ? ops.find((o) => o.keyed && o.name === first) : undefined;
      const op = keyed ?? ops.find((o) => o.name === obj.op);
      const fields = op ? op.fields.filter((f) => !keyed || f.name !== keyed.keyed) : [];
      const keyOption = (name: string, detail: string, info: string, boost: number): Completion => ({
        label: name,
        detail,
        info,
        type: "property",
        boost,
        apply: (view, _c, applyFrom, applyTo) => {
          // Replace the key (and its closing quote) by `name": `, or just the name when a colon follows.
          const end = str?.closed ? applyTo + 1 : applyTo;
          const hasColon = /^\s*:/.test(view.state.sliceDoc(end, end + 40));
          const insert = (str ? "" : '"') + name + '"' + (hasColon ? "" : ": ");
          view.dispatch({
            changes: { from: applyFrom, to: end, insert },
            selection: { anchor: applyFrom + insert.length },
            userEvent: "input.complete",
          });
        },
      });
      if (!present.has("op") && !keyed) options.push(keyOption("op", "operation", "The operation of this node", 2));
      if (!op && !present.size) options.push(keyOption("pipe", "steps", '{"pipe": [steps]}: a pipe', 1));
      if (!op && !present.size)
        for (const o of ops.filter((o) => o.keyed && o.name !== "pipe"))
          options.push(keyOption(o.name, `${o.keyed} · keyed form`, `${o.keyedShape}: ${o.description}`, 1));
      for (const f of fields) {
        if (present.has(f.name)) continue;
        const need = f.presence === "required" ? "required" : f.presence === "one_of" ? "one of" : "optional";
        options.push(
          keyOption(f.name, `${f.kind} · ${need}`, `${f.description} (${op!.name})`, f.presence === "required" ? 1 : 0),
        );
      }
    } else {
      const key = where.key;
      const op = where.object?.op;
      const valueOption = (label: string, detail: string, info: string | undefined, type: string): Completion => ({
        label,
        detail,
        info,
        type,
        apply: str ? label : quoted(label),
      });
      if (key === "op") {
        options = ops.map((o) => ({
          ...valueOption(o.name, o.category, `${o.description}\n${o.shape}`, "keyword"),
          section: o.category,
        }));
      } else if (key === "order") {
        options = ["asc", "desc"].map((o) => valueOption(o, "sort order", undefined, "enum"));
      } else if ((key === "tool" && op === "call") || (key === "call" && !op && where.object?.keys[0] === "call")) {
        options = sources.toolNames().map((t) => valueOption(t, "tool", "A mock tool from the Tools tab", "function"));
      } else if (key === "name" && op === "load") {
        options = sources.contextKeys().map((k) => valueOption(k, "context", "A key of the Context tab", "variable"));
      }
    }
    if (options.length === 0) return null;
    return { from, to: str ? contentEnd : cx.pos, options, validFor: /^[\w$-]*$/ };
  };
}

/** Step functions: the mock tools and the file's functions as the value of "call". */
export function stepFunctionCompletionSource(sources: { toolNames: () => string[]; functionNames: () => string[] }) {
  return (cx: CompletionContext): CompletionResult | null => {
    const text = cx.state.doc.toString();
    const where = cursorContext(text, cx.pos);
    const str = where.string;
    if ((!str && !cx.explicit) || where.role !== "value" || where.key !== "call") return null;
    const from = str ? str.from + 1 : cx.pos;
    if (!/^[\w$-]*$/.test(text.slice(from, cx.pos))) return null;
    const option = (label: string, detail: string, info: string): Completion => ({
      label,
      detail,
      info,
      type: "function",
      apply: str ? label : quoted(label),
    });
    const functions = sources.functionNames();
    const options = [
      ...functions.map((f) => option(f, "function", "A function of this file")),
      ...sources
        .toolNames()
        .filter((t) => !functions.includes(t))
        .map((t) => option(t, "tool", "A mock tool from the Tools tab")),
    ];
    if (options.length === 0) return null;
    return { from, to: str ? (str.closed ? str.to - 1 : str.to) : cx.pos, options, validFor: /^[\w$-]*$/ };
  };
}
