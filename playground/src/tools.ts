// Mock tools: the visitor writes the body of an object literal of functions
// (`get_users: async () => [...]`); the page evaluates it with `new Function`,
// in the visitor's own tab.
import { formatJson } from "./format.js";

export type MockTool = (args: Record<string, unknown>) => unknown;

export type CompiledTools =
  | { ok: true; tools: Record<string, MockTool>; names: string[] }
  | { ok: false; message: string };

let cache: { source: string; compiled: CompiledTools } | undefined;

/** Evaluates the Tools source (cached per text). */
export function compileTools(source: string): CompiledTools {
  if (cache?.source === source) return cache.compiled;
  let compiled: CompiledTools;
  try {
    // The text is an object literal's body; a trailing newline keeps a final `// comment` harmless.
    const value: unknown = new Function(`"use strict";\nreturn ({\n${source}\n});`)();
    const tools: Record<string, MockTool> = {};
    const bad: string[] = [];
    for (const [name, fn] of Object.entries(value as Record<string, unknown>)) {
      if (typeof fn === "function") tools[name] = fn as MockTool;
      else bad.push(name);
    }
    compiled = bad.length
      ? { ok: false, message: `Tools: ${bad.map((b) => `'${b}'`).join(", ")} ${bad.length === 1 ? "is" : "are"} not a function` }
      : { ok: true, tools, names: Object.keys(tools) };
  } catch (e) {
    const err = e as Error;
    compiled = { ok: false, message: `Tools: ${err.name}: ${err.message}` };
  }
  cache = { source, compiled };
  return compiled;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** Tools source for an example's mock data: each tool returns its sample rows. */
export function toolsSourceFor(data: Record<string, unknown> | undefined): string {
  const header = [
    "// Mock tools, as the body of an object literal: name: (args) => value.",
    "// Async works too; args is the call's evaluated \"args\" object.",
  ];
  const entries = Object.entries(data ?? {});
  if (entries.length === 0) {
    return [...header, "// Example (uncomment to use with {\"op\": \"call\", \"tool\": \"echo\", \"args\": {\"x\": 1}}):", "// echo: async (args) => args,", ""].join("\n");
  }
  const body = entries.map(([name, value]) => {
    const key = IDENT.test(name) ? name : JSON.stringify(name);
    const json = formatJson(value, 78);
    return `${key}: async (args) => ${json},`;
  });
  return [...header, ...body, ""].join("\n");
}
