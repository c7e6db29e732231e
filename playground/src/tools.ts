// Mock tools' source text: the visitor writes the body of an object literal of
// functions (`get_users: async () => [...]`), which sandbox.ts evaluates in a
// sandboxed frame. A tool gets the call's args and `{ call }`, the number of
// earlier calls of that tool in the same run (0, 1, 2, ...). This module writes
// that text for an example's sample data or tools spec.
import { formatJson } from "../../js/src/editor/format.js";

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** Tools source for an example's mock data: each tool returns its sample rows. */
export function toolsSourceFor(data: Record<string, unknown> | undefined): string {
  const header = [
    "// Mock tools, as the body of an object literal: name: (args) => value.",
    '// Async works too; args is the call\'s evaluated "args" object.',
  ];
  const entries = Object.entries(data ?? {});
  if (entries.length === 0) {
    return [
      ...header,
      '// Example (uncomment to use with {"op": "call", "tool": "echo", "args": {"x": 1}}):',
      "// echo: async (args) => args,",
      "",
    ].join("\n");
  }
  const body = entries.map(([name, value]) => {
    const key = IDENT.test(name) ? name : JSON.stringify(name);
    return `${key}: async (args) => ${returned(value, 0)},`;
  });
  return [...header, ...body, ""].join("\n");
}

/** A step-function example's mock tool (examples/step-functions/index.json). */
type ToolSpec = { returns?: unknown; throws?: string; echo?: boolean; sequence?: ToolSpec[] };

const keyOf = (name: string) => (IDENT.test(name) ? name : JSON.stringify(name));

/** The JavaScript that answers one way: return a value, throw, or echo the args. */
function answer(spec: ToolSpec, indent: number): string {
  if (spec.throws !== undefined) return `throw new Error(${JSON.stringify(String(spec.throws))});`;
  if (spec.echo) return "return args;";
  return `return ${formatJson(spec.returns ?? null, 78 - indent)};`;
}

/** The expression body of an arrow function returning a value (an object literal in parentheses). */
function returned(value: unknown, indent: number): string {
  const json = formatJson(value ?? null, 78 - indent);
  return value && typeof value === "object" && !Array.isArray(value) ? `(${json})` : json;
}

/**
 * Tools source for a step-function example's tools spec: `returns` a value,
 * `throws` an Error with that message, `echo`es its args, or answers a
 * `sequence` one call after another (past its end, the last answer repeats).
 */
export function toolsSourceForStepFunctions(spec: Record<string, unknown> | undefined): string {
  const lines = [
    "// Mock tools, as the body of an object literal: name: async (args) => value.",
    '// A tool fails when it throws: async () => { throw new Error("card declined"); }',
  ];
  const entries = Object.entries((spec ?? {}) as Record<string, ToolSpec>);
  if (entries.length === 0) {
    lines.push("// This example needs no tool: add one here and call it from a step.", "");
    return lines.join("\n");
  }
  for (const [name, s] of entries) {
    const key = keyOf(name);
    if (s.sequence?.length) {
      lines.push(`// ${name} answers each call in turn; { call } counts its calls in this run: 0, 1, 2, …`);
      lines.push(`${key}: async (args, { call }) => {`);
      s.sequence.forEach((step, i) => {
        const last = i === s.sequence!.length - 1;
        lines.push(last ? `  ${answer(step, 2)}` : `  if (call === ${i}) ${answer(step, 2)}`);
      });
      lines.push("},");
    } else if (s.throws !== undefined) {
      lines.push(`${key}: async (args) => { ${answer(s, 0)} },`);
    } else if (s.echo) {
      lines.push(`${key}: async (args) => args,`);
    } else {
      lines.push(`${key}: async (args) => ${returned(s.returns, key.length + 20)},`);
    }
  }
  lines.push("");
  return lines.join("\n");
}
