// A step-function file is JSON values written one after another (not one JSON
// document). This parses such a file with the text range of every node, so
// that an engine path like "/0/steps/1/call" (which treats the file as an array
// of functions) can be marked in the editor.
import { formatJson } from "../../js/src/editor/format.js";
import { parsePointer } from "../../js/src/editor/positions.js";

export interface FileNode {
  from: number;
  to: number;
  /** For an object: its properties, in order (the range of a property is `"key": value`). */
  props?: { key: string; from: number; to: number; value: FileNode }[];
  items?: FileNode[];
}

export interface StepFunctionsFile {
  /** The top-level values with their ranges. */
  nodes: FileNode[];
  /** The top-level values themselves. */
  values: unknown[];
}

/** Parses JSON values written one after another; null when the text is not such a file. */
export function parseStepFunctions(text: string): StepFunctionsFile | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`at ${i}`);
  };
  const stringEnd = (at: number) => {
    let j = at + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    if (j >= text.length) fail();
    return j + 1;
  };
  const value = (depth: number): FileNode => {
    if (depth > 500) fail();
    ws();
    const from = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const props: NonNullable<FileNode["props"]> = [];
      ws();
      if (text[i] === "}") return { from, to: ++i, props };
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const keyFrom = i;
        i = stringEnd(i);
        const key = JSON.parse(text.slice(keyFrom, i)) as string;
        ws();
        if (text[i] !== ":") fail();
        i++;
        const v = value(depth + 1);
        props.push({ key, from: keyFrom, to: v.to, value: v });
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return { from, to: ++i, props };
        else fail();
      }
    }
    if (c === "[") {
      i++;
      const items: FileNode[] = [];
      ws();
      if (text[i] === "]") return { from, to: ++i, items };
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return { from, to: ++i, items };
        else fail();
      }
    }
    if (c === '"') i = stringEnd(i);
    else {
      const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
      if (!m) fail();
      i += m![0].length;
    }
    return { from, to: i };
  };
  try {
    const nodes: FileNode[] = [];
    const values: unknown[] = [];
    ws();
    while (i < text.length) {
      const node = value(0);
      nodes.push(node);
      values.push(JSON.parse(text.slice(node.from, node.to)));
      ws();
    }
    return { nodes, values };
  } catch {
    return null;
  }
}

/**
 * The text range a JSON Pointer names in a step-function file (read as an array:
 * "/0" is the first function). A pointer ending at an object key gives the whole
 * `"key": value`; when only a prefix exists, the deepest node found.
 */
export function resolveStepFunctionsPointer(
  file: StepFunctionsFile,
  pointer: string,
): { from: number; to: number; exact: boolean } | null {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0)
    return file.nodes.length
      ? { from: file.nodes[0].from, to: file.nodes[file.nodes.length - 1].to, exact: true }
      : null;
  let node: FileNode = { from: 0, to: 0, items: file.nodes };
  let range: { from: number; to: number } | null = null;
  for (const token of tokens) {
    let next: { range: { from: number; to: number }; node: FileNode } | undefined;
    if (node.props) {
      const p = [...node.props].reverse().find((x) => x.key === token);
      if (p) next = { range: p, node: p.value };
    } else if (node.items && /^(0|[1-9]\d*)$/.test(token)) {
      const item = node.items[Number(token)];
      if (item) next = { range: item, node: item };
    }
    if (!next) return range ? { ...range, exact: false } : null;
    range = { from: next.range.from, to: next.range.to };
    node = next.node;
  }
  return range ? { ...range, exact: true } : null;
}

/** The value a pointer names in the parsed values (undefined when there is none). */
export function valueAt(file: StepFunctionsFile, pointer: string): unknown {
  let v: unknown = file.values;
  for (const token of parsePointer(pointer)) {
    if (v && typeof v === "object" && Object.prototype.hasOwnProperty.call(v, token))
      v = (v as Record<string, unknown>)[token];
    else return undefined;
  }
  return v;
}

export interface FunctionInfo {
  name: string;
  /** The declared parameters: name → type. */
  input: Record<string, string>;
  output?: string;
}

/** The functions of a parsed file, in order (values that are not function objects are skipped). */
export function functionsOf(file: StepFunctionsFile): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  for (const v of file.values) {
    if (!v || typeof v !== "object" || Array.isArray(v)) continue;
    const f = v as Record<string, unknown>;
    if (typeof f.function !== "string") continue;
    const input: Record<string, string> = {};
    if (f.input && typeof f.input === "object" && !Array.isArray(f.input))
      for (const [k, t] of Object.entries(f.input)) input[k] = typeof t === "string" ? t : JSON.stringify(t);
    out.push({ name: f.function, input, output: typeof f.output === "string" ? f.output : undefined });
  }
  return out;
}

/** Each value laid out like the spec's JSON, one after another with a blank line between. */
export function formatStepFunctions(file: StepFunctionsFile): string {
  return file.values.map((v) => formatJson(v)).join("\n\n") + "\n";
}
