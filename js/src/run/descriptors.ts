// Tools as descriptors: { description, parameters, execute }. The description
// and the parameters' JSON Schema go into the prompt; the args of a call are
// checked against the schema (in JS, before execute runs) and a mismatch becomes
// the tool's failure, naming the arg's JSON Pointer and what was expected.
import { extras } from "./extras-loader.js";
import { isStandardSchema, jsonSchemaOf, standardArgs } from "./tool-schemas.js";
import type { CallIdentity, JsonObject, Tool, ToolDescriptor } from "../types/public.js";

/** A descriptor: an object with an execute function, or a deferred tool ({ defer: true }, run by the host). */
export function isToolDescriptor(tool: unknown): tool is ToolDescriptor {
  if (typeof tool !== "object" || tool === null) return false;
  const d = tool as ToolDescriptor;
  return typeof d.execute === "function" || d.defer === true;
}

/**
 * Whether a call of one of `tools` may check its args against a JSON Schema
 * (the extras' argsProblem, which a page fetches on first use: a run loads
 * them first). A Standard Schema checks args itself.
 */
export function declaresParameters(tools: unknown): boolean {
  try {
    if (!tools || typeof tools !== "object") return false;
    return Object.values(tools).some((tool) => {
      if (!isToolDescriptor(tool)) return false;
      const schema = tool.parameters ?? tool.inputSchema;
      return typeof schema === "object" && schema !== null && !isStandardSchema(schema);
    });
  } catch {
    return false; // a getter that throws: its calls fail saying so
  }
}

/**
 * What a descriptor declares about its calls, read once; undefined for a plain
 * function, or for a descriptor whose getters throw (its calls then fail,
 * saying the descriptor could not be read).
 */
export function declarations(tool: unknown): Pick<ToolDescriptor, "effect" | "approval" | "defer"> | undefined {
  try {
    if (!isToolDescriptor(tool)) return undefined;
    return { effect: tool.effect, approval: tool.approval, defer: tool.defer };
  } catch {
    return undefined;
  }
}

/**
 * Why a descriptor's effect, approval or defer cannot be used, or undefined.
 * A misspelt effect must not quietly make a write tool a read one.
 */
export function descriptorProblem(tool: unknown): string | undefined {
  const declared = declarations(tool);
  if (!declared) return undefined;
  const { effect, approval, defer } = declared;
  if (effect !== undefined && effect !== "read" && effect !== "write")
    return `has effect ${JSON.stringify(effect) ?? String(effect)}: it must be "read" or "write"`;
  if (approval !== undefined && typeof approval !== "boolean" && typeof approval !== "function")
    return "has an approval that is neither true/false nor a function of the call's args";
  if (defer !== undefined && typeof defer !== "boolean") return "has a defer that is not true or false";
  return undefined;
}

/** A tool as the prompt describes it. */
export interface ToolInfo {
  name: string;
  description?: string;
  parameters?: JsonObject;
  /** JSON Schema of its result (the descriptor's `returns`). */
  returns?: JsonObject;
}

/** Name, description and parameters of each tool (plain functions have neither). */
export function toolInfos(tools: Record<string, unknown> | string[] | undefined): ToolInfo[] {
  if (!tools) return [];
  if (Array.isArray(tools)) return tools.map((name) => ({ name }));
  return Object.entries(tools).map(([name, tool]) => {
    if (!isToolDescriptor(tool)) return { name };
    const info: ToolInfo = { name };
    if (typeof tool.description === "string" && tool.description) info.description = tool.description;
    const parameters = jsonSchemaOf(tool.parameters ?? tool.inputSchema);
    if (parameters) info.parameters = parameters;
    const returns = jsonSchemaOf(tool.returns ?? tool.outputSchema);
    if (returns) info.returns = returns;
    return info;
  });
}

/**
 * What an AI SDK tool() object's execute gets besides its input: the SDK's
 * own execution options (`abortSignal`, `toolCallId`, `messages`), with the
 * call's identity and signal under ptc-wasm's names too. A descriptor that
 * names its schema `inputSchema` (the SDK's name) and not `parameters` is
 * taken for one.
 */
function sdkOptions(identity: CallIdentity) {
  return { ...identity, abortSignal: identity.signal, toolCallId: identity.callId, messages: [] };
}

/** What to call for a tool entry, once its args are checked; or why it cannot be called. */
export function prepareCall(
  name: string,
  tool: Tool | undefined,
  args: JsonObject,
): { execute: (args: JsonObject, identity: CallIdentity) => unknown } | { problem: string } {
  if (typeof tool === "function") return { execute: tool as (args: JsonObject, identity: CallIdentity) => unknown };
  if (!isToolDescriptor(tool))
    return { problem: `'${name}' is not a function or a tool descriptor {description, parameters, execute}` };
  if (typeof tool.execute !== "function")
    return {
      problem: `'${name}' is deferred (the host runs it): resume the run with { value } or { error } for this call, not { approved: true }`,
    };
  const execute = tool.execute as (args: JsonObject, identity: CallIdentity) => unknown;
  // Every call gets its identity and signal; an AI SDK tool() gets them as the SDK's options.
  const sdk = tool.parameters === undefined && tool.inputSchema !== undefined;
  const run = (a: JsonObject, identity: CallIdentity) => execute.call(tool, a, sdk ? sdkOptions(identity) : identity);
  const schema = tool.parameters ?? tool.inputSchema;
  // A Standard Schema (zod...) checks the args itself; the tool gets its output, and the identity as any descriptor.
  if (isStandardSchema(schema))
    return { execute: async (a, identity) => run((await standardArgs(schema, a)) as JsonObject, identity) };
  const parameters = jsonSchemaOf(schema);
  if (parameters) {
    let problem: string | undefined;
    try {
      problem = extras().argsProblem(parameters, args);
    } catch (e) {
      problem = `its parameters schema could not be used (${(e as Error).message})`;
    }
    if (problem) return { problem };
  }
  return { execute: run };
}
