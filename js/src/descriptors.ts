// Tools as descriptors: { description, parameters, execute }. The description
// and the parameters' JSON Schema go into the prompt; the args of a call are
// checked against the schema (in JS, before execute runs) and a mismatch becomes
// the tool's failure, naming the arg's JSON Pointer and what was expected.
import { Validator, type OutputUnit, type Schema } from "@cfworker/json-schema";
import type { JsonObject, Tool, ToolDescriptor, ToolFunction } from "./types.js";

/** A descriptor: an object with an execute function, or a deferred tool ({ defer: true }, run by the host). */
export function isToolDescriptor(tool: unknown): tool is ToolDescriptor {
  if (typeof tool !== "object" || tool === null) return false;
  const d = tool as ToolDescriptor;
  return typeof d.execute === "function" || d.defer === true;
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
}

/** Name, description and parameters of each tool (plain functions have neither). */
export function toolInfos(tools: Record<string, unknown> | string[] | undefined): ToolInfo[] {
  if (!tools) return [];
  if (Array.isArray(tools)) return tools.map((name) => ({ name }));
  return Object.entries(tools).map(([name, tool]) => {
    if (!isToolDescriptor(tool)) return { name };
    const info: ToolInfo = { name };
    if (typeof tool.description === "string" && tool.description) info.description = tool.description;
    if (tool.parameters && typeof tool.parameters === "object") info.parameters = tool.parameters as JsonObject;
    return info;
  });
}

// One compiled validator per parameters schema.
const validators = new WeakMap<object, Validator>();

function validatorFor(parameters: object): Validator {
  let validator = validators.get(parameters);
  if (!validator) {
    validator = new Validator(parameters as Schema, "2020-12", false);
    validators.set(parameters, validator);
  }
  return validator;
}

// Keywords that only say "something below failed": the error to report is a deeper one.
const containers = new Set([
  "properties",
  "patternProperties",
  "items",
  "prefixItems",
  "contains",
  "allOf",
  "$ref",
  "$dynamicRef",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "if",
  "then",
  "else",
  "propertyNames",
  "additionalProperties",
]);

function decodePointerToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointer.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[decodePointerToken(token)];
  }
  return node;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  const type = value === null ? "null" : Array.isArray(value) ? "list" : typeof value;
  let text = JSON.stringify(value) ?? String(value);
  if (text.length > 40) text = `${text.slice(0, 37)}...`;
  return type === "null" ? "null" : `${type} ${text}`;
}

const escapeToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");

function explain(unit: OutputUnit, args: JsonObject, parameters: JsonObject): { pointer: string; text: string } {
  const pointer = unit.instanceLocation.replace(/^#/, "");
  const got = valueAt(args, pointer);
  const quoted = /"([^"]*)"/.exec(unit.error)?.[1];
  switch (unit.keyword) {
    case "required":
      return { pointer: `${pointer}/${escapeToken(quoted ?? "")}`, text: `the required arg '${quoted}' is missing` };
    case "false": {
      const names = Object.keys((parameters.properties as JsonObject | undefined) ?? {});
      const name = decodePointerToken(pointer.split("/").pop() ?? "");
      return {
        pointer,
        text: `'${name}' is not a parameter of this tool${names.length ? ` (its parameters: ${names.join(", ")})` : ""}`,
      };
    }
    case "type": {
      const expected = /Expected (.*)\.$/.exec(unit.error)?.[1]?.replace(/"/g, "") ?? "another type";
      return { pointer, text: `expected ${expected}, got ${describeValue(got)}` };
    }
    default:
      return { pointer, text: `${unit.error.replace(/\.$/, "")} (got ${describeValue(got)})` };
  }
}

/** Why args do not match a tool's parameters schema, or undefined when they do. */
export function argsProblem(parameters: JsonObject, args: JsonObject): string | undefined {
  const { valid, errors } = validatorFor(parameters).validate(args);
  if (valid) return undefined;
  const leaves = errors.filter((e) => !containers.has(e.keyword));
  // The deepest problems are the most specific; a few of them, so one retry can fix them all.
  const units = leaves.length ? leaves : errors.slice(-1);
  units.sort((a, b) => b.instanceLocation.length - a.instanceLocation.length);
  const problems = [
    ...new Set(
      units.map((unit) => {
        const { pointer, text } = explain(unit, args, parameters);
        return `at ${pointer || "/"}: ${text}`;
      }),
    ),
  ].slice(0, 3);
  return (
    `invalid args (JSON Pointers into args), so the tool was not run: ${problems.join("; ")}. ` +
    `The tool's parameters: ${JSON.stringify(parameters)}`
  );
}

/** What to call for a tool entry, once its args are checked; or why it cannot be called. */
export function prepareCall(
  name: string,
  tool: Tool | undefined,
  args: JsonObject,
): { execute: ToolFunction } | { problem: string } {
  if (typeof tool === "function") return { execute: tool };
  if (!isToolDescriptor(tool))
    return { problem: `'${name}' is not a function or a tool descriptor {description, parameters, execute}` };
  if (typeof tool.execute !== "function")
    return {
      problem: `'${name}' is deferred (the host runs it): resume the run with { value } or { error } for this call, not { approved: true }`,
    };
  if (tool.parameters && typeof tool.parameters === "object") {
    let problem: string | undefined;
    try {
      problem = argsProblem(tool.parameters as JsonObject, args);
    } catch (e) {
      problem = `its parameters schema could not be used (${(e as Error).message})`;
    }
    if (problem) return { problem };
  }
  return { execute: (a) => tool.execute(a) };
}
