// A tool's args checked against its parameters' JSON Schema, in JS before the
// tool runs: a mismatch names each bad arg's JSON Pointer and what was expected,
// so that the model can fix the call in one retry. Part of the extras (the
// validator is a third of them), loaded with the first call that needs it.
import { Validator, type OutputUnit, type Schema } from "@cfworker/json-schema";
import { schemaProblem } from "../run/schema-bounds.js";
import type { JsonObject } from "../types/public.js";
import { cutText } from "../util/shown-text.js";

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
  text = cutText(text, 40);
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
  // A schema over the bounds (run/schema-bounds.ts) could keep the host's thread
  // busy for seconds per call: the args are not checked here, the tool gets them
  // as given (an MCP server checks its own input; mcpTools warns at connect).
  if (schemaProblem(parameters)) return undefined;
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
