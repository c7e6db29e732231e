// The JSON Schema (draft 2020-12) of a PTC-JSON program, generated from the
// engine's operation table: one definition per operation (its fields, their
// kinds, which are required, descriptions and the example), plus the grammar of
// expression positions. A program the engine accepts validates against it; what
// a schema cannot say (nesting depth, 5.0 versus 5 once parsed, did-you-mean) is
// left to the engine's validation.
import type { JsonObject, JsonSchema, Operation, OperationField, SchemaOptions } from "../types/public.js";

export const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
// A text that is no reference: where a value is computed, almost always a field name (the engine's bare_string).
const BARE_TEXT = { type: "string", not: ref("reference") };
// The engine's reference strings (engine/ptc_json/reference.h): "$" and a letter or "_", keys after dots.
const REFERENCE_PATTERN = "^\\$[A-Za-z_][^.]*(\\.[^.]+)*$";
export const opDefName = (op: string) => `op_${op}`;

/** The schema of one field value, by the field's kind in the op table. */
function fieldSchema(field: OperationField, toolNames: string[] | undefined, opName: string): JsonSchema {
  const description = field.description;
  // A condition must be an operation; a step must not be a bare string.
  // (filter_in filters a whole list: it is not a condition either.)
  const condition = {
    anyOf: [
      { ...ref("operation"), not: { required: ["op"], properties: { op: { const: "filter_in" } } } },
      ref("reference"),
      ref("short_form"),
      ref("equality_map"),
    ],
  };
  const item =
    field.role === "predicate"
      ? condition
      : field.role === "step"
        ? { ...ref("expression"), not: BARE_TEXT }
        : ref("expression");
  switch (field.kind) {
    case "expr":
      return { ...item, description };
    case "expr_list":
      return { type: "array", items: item, description };
    case "expr_fields": {
      // group_by's aggs may not be named "key": each group stores its key there.
      const names: JsonSchema = opName === "group_by" ? { propertyNames: { not: { const: "key" } } } : {};
      if (field.role !== "step") return { ...ref("fields"), ...names, description };
      return {
        ...ref("fields"),
        ...names,
        additionalProperties: { ...ref("expression"), not: BARE_TEXT },
        description,
      };
    }
    case "json":
      return { description };
    case "string":
      if (opName === "call" && field.name === "tool" && toolNames)
        return { type: "string", enum: toolNames, description };
      return { type: "string", minLength: 1, description };
    case "field":
      return { type: ["string", "null"], description };
    case "string_list":
      return { type: "array", items: { type: "string" }, description };
    case "non_negative_integer": // or an operation computing it
      return { anyOf: [{ type: "integer", minimum: 0 }, ref("operation"), ref("reference")], description };
    case "percent":
      return { type: "number", minimum: 0, maximum: 100, description };
    case "text":
      return { type: "string", description };
    case "iterations":
      return { type: "integer", minimum: 1, maximum: 1000, description };
    case "choice":
      return { type: "string", enum: field.choices ?? [], description };
    case "percentile_method":
      return { type: "string", enum: ["linear", "nearest"], description };
    case "precision":
      return { type: "integer", minimum: 0, maximum: 15, description };
    case "order":
      return { type: "string", enum: ["asc", "desc"], description };
    case "sort_keys": {
      const order = { type: "string", enum: ["asc", "desc"] };
      const key = {
        type: "object",
        properties: { field: { type: "string", minLength: 1 }, order },
        required: ["field"],
        additionalProperties: false,
      };
      return { type: "array", minItems: 1, items: { anyOf: [{ type: "string", minLength: 1 }, key] }, description };
    }
    default:
      throw new Error(
        `ptc-wasm: the op table has a field kind the schema does not know: '${field.kind}' (${opName}.${field.name})`,
      );
  }
}

/**
 * Fields that go together or exclude each other (the engine's checkForms):
 * each group is all-or-nothing, at most one group is present, and with
 * `required` exactly one is.
 */
const FIELD_FORMS: Record<string, { groups: string[][]; required: boolean }> = {
  let: { groups: [["name", "value"], ["bindings"]], required: true },
  var: { groups: [["field"], ["path"]], required: false },
  sort_by: { groups: [["by"], ["field", "order"]], required: false },
};

function fieldForms({ groups, required }: { groups: string[][]; required: boolean }): JsonSchema[] {
  const any = (names: string[]) => ({ anyOf: names.map((n) => ({ required: [n] })) });
  const rules: JsonSchema[] = [];
  groups.forEach((a, i) => {
    for (const b of groups.slice(i + 1)) rules.push({ not: { allOf: [any(a), any(b)] } });
  });
  if (required) rules.push({ anyOf: groups.map((g) => ({ required: g })) });
  return rules;
}

/**
 * The definition of one operation object; `keyed`: of its keyed form
 * ({"call": "x", "args": ...}), whose key named after the op holds the field
 * `op.keyed` (the op table's column, engine/ptc_json/op_table_keyed.h).
 */
export function operationSchema(op: Operation, toolNames?: string[], keyed = false): JsonSchema {
  const keyOf = (name: string) => (keyed && name === op.keyed ? op.name : name);
  const properties: JsonObject = keyed ? {} : { op: { const: op.name } };
  const required = keyed ? [] : ["op"];
  const oneOf: string[] = [];
  for (const field of op.fields) {
    properties[keyOf(field.name)] = fieldSchema(field, toolNames, op.name);
    if (field.presence === "required" || keyOf(field.name) !== field.name) required.push(keyOf(field.name));
    if (field.presence === "one_of") oneOf.push(field.name);
  }
  const schema: JsonSchema = {
    title: keyed ? `${op.name} (keyed form)` : op.name,
    description: `${op.description} Shape: ${keyed ? op.keyedShape : op.shape}`,
    type: "object",
    properties,
    required,
    additionalProperties: false,
    ...(keyed ? {} : { examples: [op.example] }),
  };
  // "exactly one of" (get: field or path).
  if (oneOf.length) schema.oneOf = oneOf.map((name) => ({ required: [name] }));
  const forms = FIELD_FORMS[op.name];
  const rules = forms ? fieldForms({ ...forms, groups: forms.groups.map((g) => g.map(keyOf)) }) : [];
  // A comparison's `left`, min's and max's `values`: read instead of the input and its `field`.
  for (const instead of ["left", "values"])
    if (properties[instead] && properties.field)
      rules.push(...fieldForms({ groups: [["field"], [instead]], required: false }));
  // An aggregate's `expr` instead of its `field` (and of min's and max's `values`).
  if (properties.expr && properties.where && properties.field)
    rules.push(...fieldForms({ groups: [["expr"], ["field", "values"]], required: false }));
  if (op.name === "sort_by") {
    // `key` instead of `field` and `by`; a "-name" field says descending, so not with `order`.
    rules.push(...fieldForms({ groups: [["key"], ["field", "by"]], required: false }));
    rules.push({
      not: { required: ["field", "order"], properties: { field: { type: "string", pattern: "^-." } } },
    });
  }
  if (rules.length) schema.allOf = rules;
  return schema;
}

function toolNameList(tools: SchemaOptions["tools"]): string[] | undefined {
  if (!tools) return undefined;
  return Array.isArray(tools) ? [...tools] : Object.keys(tools);
}

/** The JSON Schema of a program `{"program": ...}`, from the op table. */
export function programSchema(ops: Operation[], options: SchemaOptions = {}): JsonSchema {
  const toolNames = toolNameList(options.tools);
  // Every union is discriminated (by the presence of "op", then by its value)
  // with if/then, so that a validator checks each node against one definition
  // only: validation stays linear in the program's size, whatever the validator.
  const isOperation = { type: "object", required: ["op"] };
  const notOperation = { not: { anyOf: [{ required: ["op"] }, { required: ["pipe"] }] } };
  // A keyed form: the engine reads the op's name as the object's first key; a
  // schema does not order keys, so an object without "op" holding that name
  // and only the op's fields is one (the engine refuses it in another order).
  const keyedOps = ops.filter((op) => op.keyed && op.name !== "pipe");
  const keyedTest = (op: Operation) => ({
    required: [op.name],
    propertyNames: { enum: [op.name, ...op.fields.map((f) => f.name).filter((n) => n !== op.keyed)] },
  });
  // The pipe form or a keyed form: one test, so that an implicit object is told apart at the depth it was.
  const shortForms = [{ required: ["pipe"] }, ...keyedOps.map(keyedTest)];
  const isShortForm = { type: "object", anyOf: shortForms };
  // Neither an operation nor a short form: an implicit object or an equality map.
  const notAnyOperation = { not: { anyOf: [{ required: ["op"] }, ...shortForms] } };
  const defs: JsonObject = {
    program: {
      description:
        'The program\'s root: an operation, an implicit object (an object without "op", whose values that ' +
        'are operations are evaluated), or a reference ("$orders").',
      if: { type: "string" },
      then: ref("reference"),
      else: {
        type: "object",
        if: isOperation,
        then: ref("operation"),
        else: { if: isShortForm, then: ref("short_form"), else: ref("implicit_object") },
      },
    },
    reference: {
      description:
        'A reference: "$_" the current value, "$_.a.b" a path of it; "$name" a let or as binding, else a memory ' +
        'key, else a context key, "$name.a.b" a path inside it.',
      type: "string",
      pattern: REFERENCE_PATTERN,
    },
    expression: {
      description:
        'An expression position: an operation ({"op": ...}), a reference ("$_.field", "$name"), an implicit ' +
        'object (no "op"; operations in it are evaluated at any depth), a list (evaluated item by item), or any ' +
        "other JSON value, taken literally.",
      if: isOperation,
      then: ref("operation"),
      else: {
        if: isShortForm,
        then: ref("short_form"),
        else: {
          anyOf: [
            ref("implicit_object"),
            { type: "array", items: ref("expression") },
            { type: ["null", "boolean", "number", "string"] },
          ],
        },
      },
    },
    short_form: {
      description:
        'An operation without "op": the pipe form, or a keyed form, its name as the first key holding its main ' +
        'field: {"call": "t", "args": {...}}, {"try": <expr>, "catch": <expr>}, {"if": <cond>, "then": ..., ' +
        '"else": ...}, {"return": <expr>}...',
      type: "object",
      anyOf: shortForms,
      allOf: [
        { if: { required: ["pipe"] }, then: ref("pipe_form") },
        ...keyedOps.map((op) => ({ if: keyedTest(op), then: ref(`${opDefName(op.name)}_keyed`) })),
      ],
    },
    pipe_form: {
      description: '{"pipe": [step, ...]}: short for {"op": "pipe", "steps": [...]}; "pipe" is its only key.',
      type: "object",
      properties: { pipe: { type: "array", items: { ...ref("expression"), not: BARE_TEXT } } },
      required: ["pipe"],
      additionalProperties: false,
    },
    equality_map: {
      description:
        'A condition {"tier": "gold", "region": "EU"}: every key, a field of the current item, equals its value ' +
        "(a text, number, boolean, null or reference).",
      type: "object",
      minProperties: 1,
      ...notAnyOperation,
      additionalProperties: { type: ["null", "boolean", "number", "string"] },
    },
    implicit_object: {
      description: 'An object without "op": builds that object; each value is an expression.',
      type: "object",
      ...notAnyOperation,
      additionalProperties: ref("expression"),
    },
    fields: {
      description:
        "An object of fields (not an operation): each value is an expression (operations evaluated at any depth).",
      type: "object",
      ...notOperation,
      additionalProperties: ref("expression"),
    },
    operation: {
      description: 'One PTC-JSON operation: "op" names it, and the definition of that op gives its fields.',
      type: "object",
      required: ["op"],
      properties: { op: { enum: ops.map((op) => op.name) } },
      allOf: ops.map((op) => ({
        if: { properties: { op: { const: op.name } } },
        then: ref(opDefName(op.name)),
      })),
    },
  };
  for (const op of ops) defs[opDefName(op.name)] = operationSchema(op, toolNames);
  for (const op of keyedOps) defs[`${opDefName(op.name)}_keyed`] = operationSchema(op, toolNames, true);
  return {
    $schema: SCHEMA_DIALECT,
    title: "PTC-JSON program",
    description:
      'A PTC-JSON program: {"program": <operation or implicit object>}. Operations are objects with an "op" ' +
      "key and the fields of that operation.",
    type: "object",
    properties: { program: ref("program") },
    required: ["program"],
    $defs: defs,
  };
}
