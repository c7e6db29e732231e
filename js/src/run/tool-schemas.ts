// The schemas a tool may come with, as they are: a JSON Schema object, any
// Standard Schema (zod 4, Valibot, ArkType...: the `~standard` property), or
// an AI SDK jsonSchema() wrapper. The model is shown JSON Schema (a Standard
// Schema's own, `~standard.jsonSchema`); args are checked with the schema's own
// validator when it has one. No schema library is imported: zod stays optional.
import type { StandardSchemaV1 } from "../types/tool-schema.js";
import type { JsonObject } from "../types/public.js";

export function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  const standard = (schema as { "~standard"?: { validate?: unknown } } | null)?.["~standard"];
  return typeof standard === "object" && standard !== null && typeof standard.validate === "function";
}

const cache = new WeakMap<object, JsonObject | undefined>();

function convert(schema: object): JsonObject | undefined {
  if (isStandardSchema(schema)) {
    const json = schema["~standard"].jsonSchema?.input({ target: "draft-2020-12" });
    if (!json) return undefined; // a Standard Schema without JSON Schema: validated, not shown
    const { $schema: _dialect, ...rest } = json;
    return rest as JsonObject;
  }
  // The AI SDK's jsonSchema(): { jsonSchema, validate? } (its jsonSchema may be a promise: not shown).
  const wrapped = (schema as { jsonSchema?: unknown }).jsonSchema;
  if (wrapped !== undefined && Object.getOwnPropertySymbols(schema).length)
    return typeof wrapped === "object" && wrapped !== null && !("then" in wrapped)
      ? (wrapped as JsonObject)
      : undefined;
  return schema as JsonObject;
}

/** The JSON Schema a model is shown of a tool's schema, whatever its kind; undefined when there is none. */
export function jsonSchemaOf(schema: unknown): JsonObject | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  if (!cache.has(schema)) cache.set(schema, convert(schema));
  return cache.get(schema);
}

type IssuePath = ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
const pointer = (path: IssuePath) =>
  path
    .map(
      (p) =>
        `/${String(typeof p === "object" ? p.key : p)
          .replace(/~/g, "~0")
          .replace(/\//g, "~1")}`,
    )
    .join("");

/**
 * Checks args with a Standard Schema's own validator: its output (defaults
 * applied, values coerced as the schema says), or throws an error naming each
 * bad arg's JSON Pointer with the schema's message.
 */
export async function standardArgs(schema: StandardSchemaV1, args: unknown): Promise<unknown> {
  const result = await schema["~standard"].validate(args);
  if (!result.issues) return result.value;
  const problems = result.issues.slice(0, 3).map((issue) => `at ${pointer(issue.path ?? []) || "/"}: ${issue.message}`);
  const shown = jsonSchemaOf(schema);
  throw new Error(
    `invalid args (JSON Pointers into args), so the tool was not run: ${problems.join("; ")}.` +
      (shown ? ` The tool's parameters: ${JSON.stringify(shown)}` : ""),
  );
}
