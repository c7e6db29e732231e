// The declared results of a run's tools (a descriptor's `returns`, the AI SDK's
// and MCP's `outputSchema`) as the engine's option "returns": {tool: JSON
// Schema}. The engine then warns, before anything runs, of a program reading a
// field a tool's result cannot have (unknown_result_field,
// engine/ptc_json/returns_check.h): in validate, analyze and the run's result.
// A schema over the bounds (schema-bounds.ts) is sent simplified, or not at
// all: one tool's schema never makes the engine refuse another's run.
import { boundedReturns } from "./schema-bounds.js";
import { jsonSchemaOf } from "./tool-schemas.js";

// A tool object's member of the option ("" when it declares no result): a run
// after run with the same tools costs a WeakMap look-up per tool.
const members = new WeakMap<object, string>();

function memberOf(name: string, tool: object): string {
  let text = members.get(tool);
  if (text === undefined) {
    try {
      const declared = tool as { returns?: unknown; outputSchema?: unknown };
      const declaredSchema = jsonSchemaOf(declared.returns ?? declared.outputSchema);
      const schema = declaredSchema && boundedReturns(declaredSchema).schema;
      text = schema ? JSON.stringify(schema) : "";
    } catch {
      text = ""; // a getter that throws: the call itself says the descriptor could not be read
    }
    members.set(tool, text);
  }
  return text && JSON.stringify(name) + ":" + text;
}

/** `{"tool": schema, ...}` of the tools that declare a result, or "" when none does. */
export function returnsJson(tools: Record<string, unknown> | readonly string[] | undefined): string {
  if (!tools || Array.isArray(tools)) return "";
  let out = "";
  for (const name of Object.keys(tools)) {
    const tool = (tools as Record<string, unknown>)[name];
    if (typeof tool !== "object" || tool === null) continue; // a plain function declares nothing
    const member = memberOf(name, tool);
    if (member) out += (out ? "," : "{") + member;
  }
  return out && out + "}";
}

/** An engine options text with the "returns" option added (when there is one). */
export function withReturns(optionsJson: string, returns: string): string {
  return returns ? `${optionsJson.slice(0, -1)},"returns":${returns}}` : optionsJson;
}
