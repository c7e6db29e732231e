// The JSON Schema (draft 2020-12) of a step-function file as a model sends it,
// {"functions": [<function>, ...]}, generated from the engine's step table,
// operators and functions (engine/step_functions/step_table.cpp). A file the
// engine accepts validates against it; what a schema cannot say (references
// bound, types, calls resolved, did-you-mean) is left to the engine's verification.
import { SCHEMA_DIALECT } from "./schema.js";
import type {
  JsonObject,
  JsonSchema,
  SchemaOptions,
  WorkflowFunction,
  WorkflowLanguage,
  WorkflowStepKey,
  WorkflowStepKind,
} from "../types/public.js";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
export const stepDefName = (kind: string) => `step_${kind}`;
const functionDefName = (key: string) => `function_${key.slice(1)}`;
const operatorDefName = (index: number) => `operator_${index}`;

const NAME = { type: "string", pattern: "^[A-Za-z0-9_]+(-[A-Za-z0-9_]+)*$" };

/** The schema of one key of a step, by its kind in the step table. */
function keySchema(key: WorkflowStepKey, toolNames: string[] | undefined): JsonSchema {
  switch (key.kind) {
    case "expr":
    case "returned":
      return ref("expression");
    case "name":
      return { ...NAME, description: "a name the step binds (read it as $name)" };
    case "target":
      return {
        type: "string",
        minLength: 1,
        description: `a function of the file or a tool${toolNames ? ` (tools: ${toolNames.join(", ") || "none"})` : ""}`,
      };
    case "args":
      return ref("args");
    case "steps":
      return { type: "array", minItems: 1, items: ref("step") };
    case "cases":
      return { type: "object", additionalProperties: ref("expression"), description: '"_" is the default case' };
    case "calls":
      return { type: "array", items: ref("compensation") };
    case "handler":
      return ref("on_error");
    case "flag":
      return { const: true };
    case "parallel":
      return {
        anyOf: [{ type: "boolean" }, { type: "integer", minimum: 1, maximum: 1000 }],
        description: "false: items in order; true or n: concurrently (at most n at once)",
      };
    case "retry":
      return ref("retry");
    case "state":
      return {
        type: "object",
        minProperties: 1,
        additionalProperties: ref("expression"),
        description: "names and their first values; a let of one in the body carries to the next item and after",
      };
    case "undo":
      return ref("undo");
    default:
      throw new Error(`ptc-wasm: the step table has a key kind the schema does not know: '${key.kind}' (${key.name})`);
  }
}

function stepSchema(kind: WorkflowStepKind, toolNames: string[] | undefined): JsonSchema {
  const properties: JsonObject = {};
  for (const key of kind.keys) properties[key.name] = keySchema(key, toolNames);
  return {
    title: `${kind.name} step`,
    description: `${kind.description} Keys: ${kind.shape}`,
    type: "object",
    properties,
    required: kind.keys.filter((k) => k.presence !== "optional").map((k) => k.name),
    additionalProperties: false,
  };
}

/** A function's arguments: a list in the order of its parameters, or a single one bare. */
function functionSchema(f: WorkflowFunction): JsonSchema {
  const items: JsonSchema[] = f.params.map((p): JsonSchema =>
    p.kind === "choice"
      ? { enum: p.choices ?? [], description: p.description }
      : p.kind === "text"
        ? { type: "string", description: p.description }
        : p.kind === "json"
          ? { description: `${p.description} (a constant)` }
          : { ...ref("expression"), description: p.description },
  );
  const required = f.params.filter((p) => p.required).length;
  const list: JsonSchema = { type: "array", prefixItems: items, minItems: required, maxItems: f.params.length };
  const bare: JsonSchema[] = required <= 1 ? [{ ...ref("expression"), not: { type: "array" } }] : [];
  return {
    title: f.key,
    description: `${f.description} Shape: ${f.shape}`,
    properties: { [f.key]: bare.length ? { anyOf: [list, ...bare] } : list },
    examples: [f.example],
  };
}

/** The step kinds, told apart by their kind key in the table's order (an if step also has "return"). */
function stepDispatch(kinds: WorkflowStepKind[]): JsonSchema {
  const kindKey = (k: WorkflowStepKind) => k.keys.find((key) => key.presence === "kind")?.name ?? "";
  let chain: JsonSchema = {
    description: `A step has one of the keys ${kinds.map((k) => `"${kindKey(k)}"`).join(", ")}`,
    anyOf: kinds.map((k) => ({ required: [kindKey(k)] })),
  };
  for (const kind of [...kinds].reverse())
    chain = { if: { required: [kindKey(kind)] }, then: ref(stepDefName(kind.name)), else: chain };
  return { type: "object", ...chain };
}

function toolNameList(tools: SchemaOptions["tools"]): string[] | undefined {
  if (!tools) return undefined;
  return Array.isArray(tools) ? [...tools] : Object.keys(tools);
}

/** The JSON Schema of a step-function file {"functions": [...]} or {"steps": [...]}, from the engine's step table. */
export function workflowSchema(language: WorkflowLanguage, options: SchemaOptions = {}): JsonSchema {
  const toolNames = toolNameList(options.tools);
  const specialKeys = [...language.operators.map((o) => o.key), "$merge", ...language.functions.map((f) => f.key)];
  const defs: JsonObject = {
    function: {
      description: "One function: its name, its parameters and output (types), and its steps.",
      type: "object",
      properties: {
        function: { ...NAME, description: "its name: letters, digits and _, with - groups" },
        input: { type: "object", additionalProperties: ref("type"), description: 'parameters: {"name": "type"}' },
        output: ref("type"),
        deps: { type: "array", items: { type: "string", minLength: 1 }, description: "functions and tools it calls" },
        steps: { type: "array", minItems: 1, items: ref("step") },
      },
      required: ["function", "output", "steps"],
      additionalProperties: false,
    },
    type: {
      description: 'number, text, bool, nil, "list T", "result T E" (a whole output only) or a named type',
      type: "string",
      minLength: 1,
    },
    step: stepDispatch(language.steps),
    args: {
      description: "The call's arguments: names to expressions.",
      type: "object",
      additionalProperties: ref("expression"),
    },
    compensation: {
      description: "A call that undoes an earlier step.",
      type: "object",
      properties: {
        let: keySchema({ name: "let", kind: "name", presence: "optional" }, toolNames),
        call: keySchema({ name: "call", kind: "target", presence: "kind" }, toolNames),
        args: ref("args"),
      },
      required: ["call"],
      additionalProperties: false,
    },
    undo: {
      description: "A call that undoes this step's call if the function fails later (newest first).",
      type: "object",
      properties: {
        call: keySchema({ name: "call", kind: "target", presence: "kind" }, toolNames),
        args: ref("args"),
      },
      required: ["call"],
      additionalProperties: false,
    },
    on_error: {
      description:
        "Handles a failure of the call: compensations in order, then the steps of 'then' (with $error) and its " +
        "'yield' (to the loop's list, or 'to' a state list), then return, continue or break (with 'then' or " +
        "'yield' and none of them, the steps after the call run).",
      type: "object",
      properties: {
        compensate: { type: "array", items: ref("compensation") },
        then: { type: "array", minItems: 1, items: ref("step") },
        yield: ref("expression"),
        to: { type: "string", minLength: 1 },
        return: ref("expression"),
        continue: { const: true },
        break: { const: true },
      },
      dependentRequired: { to: ["yield"] },
      additionalProperties: false,
    },
    retry: {
      description: "Calls again when the call fails: tries in all; only failures whose message contains an 'on' text.",
      type: "object",
      properties: {
        tries: { type: "integer", minimum: 1, maximum: 10 },
        on: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
        let: keySchema({ name: "let", kind: "name", presence: "optional" }, toolNames),
      },
      required: ["tries"],
      additionalProperties: false,
    },
    expression: {
      description:
        'A value: JSON, where a string may hold $references ("$name.field", "$input.x", "Hi $name"); lists and ' +
        'objects are evaluated member by member; an object with one operator or function key ({"+": [...]}, ' +
        '{"$lower": [...]}) or "$merge" computes a value.',
      if: {
        type: "object",
        minProperties: 1,
        maxProperties: 1,
        propertyNames: { enum: specialKeys },
      },
      then: ref("operation"),
      else: {
        anyOf: [
          { type: "array", items: ref("expression") },
          { type: "object", additionalProperties: ref("expression") },
          { type: ["null", "boolean", "number", "string"] },
        ],
      },
    },
    operation: {
      description: "An operator, $merge or a function: one key, whose value is its operands or arguments.",
      type: "object",
      allOf: [
        ...language.operators.map((o, i) => ({ if: { required: [o.key] }, then: ref(operatorDefName(i)) })),
        { if: { required: ["$merge"] }, then: ref("merge") },
        ...language.functions.map((f) => ({ if: { required: [f.key] }, then: ref(functionDefName(f.key)) })),
      ],
    },
    merge: {
      description: "Merges objects, later keys winning.",
      properties: { $merge: { type: "array", minItems: 1, items: ref("expression") } },
    },
  };
  language.operators.forEach((o, i) => {
    const list = {
      type: "array",
      items: ref("expression"),
      minItems: o.minOperands,
      ...(o.maxOperands === null ? {} : { maxItems: o.maxOperands }),
    };
    const operands = o.key === "not" ? { anyOf: [list, { ...ref("expression"), not: { type: "array" } }] } : list;
    defs[operatorDefName(i)] = { title: o.key, description: o.description, properties: { [o.key]: operands } };
  });
  for (const f of language.functions) defs[functionDefName(f.key)] = functionSchema(f);
  for (const kind of language.steps) defs[stepDefName(kind.name)] = stepSchema(kind, toolNames);
  return {
    $schema: SCHEMA_DIALECT,
    title: "Step-function file",
    description:
      'A step-function file: {"functions": [<function>, ...]}; the entry is the last function unless named. ' +
      'Short form: {"steps": [...], "output"?: type}, the entry\'s steps (a function "main", output "any" by ' +
      "default), after the functions given as its helpers.",
    type: "object",
    properties: {
      functions: { type: "array", minItems: 1, items: ref("function") },
      steps: { type: "array", minItems: 1, items: ref("step") },
      output: ref("type"),
    },
    anyOf: [{ required: ["functions"] }, { required: ["steps"] }],
    dependentRequired: { output: ["steps"] },
    $defs: defs,
  };
}
