// Tool signatures as a model reads them: `search(query: string, limit?: integer)
// -> {id: string, total: number}[]`, written from the JSON Schemas of a tool's
// args (parameters) and result (returns). Shorter than pasted JSON Schema, and
// it names every field a program may read of the result.
import type { JsonObject } from "../types/public.js";

type Schema = JsonObject;

// Nested objects past this depth are written `object`: the signature stays one line.
const MAX_DEPTH = 3;
// Fields of one object shown before `...`.
const MAX_FIELDS = 16;

const json = (v: unknown) => JSON.stringify(v);

function resolveRef(ref: string, root: Schema): Schema | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1]!] as Record<string, Schema> | undefined;
  return defs?.[decodeURIComponent(match[2]!).replace(/~1/g, "/").replace(/~0/g, "~")];
}

function union(parts: string[]): string {
  return [...new Set(parts)].join("|");
}

// An array's item type in parentheses when it is a union: (string|number)[].
const listOf = (item: string) => `${item.includes("|") ? `(${item})` : item}[]`;

/** The type of a JSON Schema, written compactly (`{name: string, tags?: string[]}`). */
export function typeOf(schema: unknown, root: Schema = schema as Schema, depth = 0, seen = new Set<string>()): string {
  if (schema === true || schema === undefined) return "any";
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return "any";
  const s = schema as Schema;
  if (typeof s.$ref === "string") {
    if (seen.has(s.$ref)) return "object";
    const target = resolveRef(s.$ref, root);
    return target ? typeOf(target, root, depth, new Set([...seen, s.$ref])) : "any";
  }
  if (Array.isArray(s.enum)) return union(s.enum.map((v) => json(v)));
  if ("const" in s) return json(s.const);
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(s[key])) return union((s[key] as Schema[]).map((part) => typeOf(part, root, depth, seen)));
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return typeOf(s.allOf[0], root, depth, seen);
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (!types.length && s.properties) types.push("object");
  if (!types.length && s.items) types.push("array");
  if (!types.length) return "any";
  return union(types.map((type) => typeNamed(type, s, root, depth, seen)));
}

function typeNamed(type: string, s: Schema, root: Schema, depth: number, seen: Set<string>): string {
  if (type === "array") return listOf(typeOf(s.items, root, depth, seen));
  if (type !== "object") return type;
  const props = s.properties as Record<string, Schema> | undefined;
  if (!props || !Object.keys(props).length) {
    const values = s.additionalProperties;
    return values && typeof values === "object" ? `{[key]: ${typeOf(values, root, depth + 1, seen)}}` : "object";
  }
  if (depth >= MAX_DEPTH) return "object";
  return fields(s, root, depth + 1, seen);
}

/** `{a: string, b?: number}`: an object schema's fields, optional ones marked with `?`. */
function fields(s: Schema, root: Schema, depth: number, seen: Set<string>): string {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const names = Object.keys(props);
  const shown = names
    .slice(0, MAX_FIELDS)
    .map((name) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(props[name], root, depth, seen)}`);
  if (names.length > MAX_FIELDS) shown.push("...");
  return `{${shown.join(", ")}}`;
}

/** `name(a: string, b?: integer)` from a parameters schema, and ` -> <result type>` when returns is given. */
export function toolSignature(name: string, parameters?: Schema, returns?: Schema): string {
  let args = "";
  if (parameters && typeof parameters === "object") {
    const props = parameters.properties as Record<string, Schema> | undefined;
    args = props ? fields(parameters, parameters, 1, new Set()).slice(1, -1) : "args: see schema";
  }
  const result = returns && typeof returns === "object" ? ` -> ${typeOf(returns)}` : "";
  return `${name}(${args})${result}`;
}
