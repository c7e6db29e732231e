// Bounds on the JSON Schemas tools come with (a descriptor's parameters and
// returns, an MCP server's inputSchema and outputSchema). A schema is data from
// someone else: a 1.5 KB one whose definitions each refer twice to the next
// costs 2^N steps to anyone who follows every $ref (an args check, a
// signature), and one nested 1000 levels deep in `examples` cannot be sent to
// the engine at all. Each schema is measured once (cached per object) by its
// nesting depth and by its size with every $ref followed, each definition's
// size computed once (a count over the $ref graph, capped); a schema over
// either bound is not used as it is:
//   - args are not checked against it locally (argsProblem): the tool runs
//     with the args as given (an MCP server checks its own input);
//   - as a declared result (the engine's "returns"), it is simplified (its
//     annotations, e.g. examples, left out) or else dropped (boundedReturns).
import type { JsonObject } from "../types/public.js";

/** Nesting depth of a schema's JSON (objects and lists, annotations included). */
export const SCHEMA_MAX_DEPTH = 64;
/** Objects and lists of a schema counted with each $ref replaced by what it refers to. */
export const SCHEMA_MAX_NODES = 100_000;

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node => typeof v === "object" && v !== null;

class OverBounds extends Error {}

/** The schema's nesting depth and its objects and lists, walked without recursion; stops past the bounds. */
function shape(schema: object): { depth: number; nodes: number } {
  const stack: [unknown, number][] = [[schema, 1]];
  let depth = 0;
  let nodes = 0;
  while (stack.length) {
    const [value, level] = stack.pop()!;
    if (!isObject(value)) continue;
    depth = Math.max(depth, level);
    if (depth > SCHEMA_MAX_DEPTH || ++nodes > SCHEMA_MAX_NODES) return { depth, nodes };
    for (const child of Object.values(value)) if (isObject(child)) stack.push([child, level + 1]);
  }
  return { depth, nodes };
}

const decode = (token: string) => decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");

/** Every `$id` and `$anchor` of a schema, by the text a $ref names them with. */
function anchors(root: Node): Map<string, Node> {
  const found = new Map<string, Node>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (!isObject(value)) continue;
    if (typeof value.$id === "string") found.set(value.$id, value);
    if (typeof value.$anchor === "string") found.set(`#${value.$anchor}`, value);
    if (typeof value.$dynamicAnchor === "string") found.set(`#${value.$dynamicAnchor}`, value);
    for (const child of Object.values(value)) stack.push(child);
  }
  return found;
}

/** What a $ref refers to in the schema (a JSON Pointer, an $id or an anchor), or undefined. */
export function refTarget(ref: string, root: Node, ids?: Map<string, Node>): Node | undefined {
  if (ref === "#" || ref === "") return root;
  if (ref.startsWith("#/")) {
    let node: unknown = root;
    for (const token of ref.slice(2).split("/")) {
      if (!isObject(node)) return undefined;
      node = node[decode(token)];
    }
    return isObject(node) ? node : undefined;
  }
  return ids?.get(ref);
}

/**
 * The schema's size with every $ref followed: a definition's size is counted
 * once and added where it is referred to; a $ref back into one being counted
 * (recursion) adds 1. Throws OverBounds past SCHEMA_MAX_NODES or at a $ref it
 * cannot follow (another document: not checked here, so not bounded either).
 */
function expandedSize(root: Node): number {
  const ids = anchors(root);
  const sizes = new Map<Node, number>();
  const counting = new Set<Node>();
  let total = 0;
  const add = (n: number) => {
    total += n;
    if (total > SCHEMA_MAX_NODES) throw new OverBounds();
  };
  const refSize = (ref: unknown): number => {
    if (typeof ref !== "string") return 0;
    const target = refTarget(ref, root, ids);
    if (!target) throw new OverBounds(`a $ref this check cannot follow (${JSON.stringify(ref).slice(0, 80)})`);
    if (counting.has(target)) return 1;
    const known = sizes.get(target);
    if (known !== undefined) {
      add(known);
      return known;
    }
    counting.add(target);
    const size = sizeOf(target); // counted into the total as it goes
    counting.delete(target);
    sizes.set(target, size);
    return size;
  };
  // Objects and lists below value, its $refs' targets included (the depth is bounded already).
  const sizeOf = (value: Node): number => {
    let size = 1;
    add(1);
    for (const ref of [value.$ref, value.$dynamicRef, value.$recursiveRef]) size += refSize(ref);
    for (const child of Object.values(value)) if (isObject(child)) size += sizeOf(child);
    return size;
  };
  sizeOf(root);
  return total;
}

function measure(schema: object): string | undefined {
  const { depth, nodes } = shape(schema);
  if (depth > SCHEMA_MAX_DEPTH) return `it nests more than ${SCHEMA_MAX_DEPTH} levels deep`;
  if (nodes > SCHEMA_MAX_NODES) return `it has more than ${SCHEMA_MAX_NODES} objects and lists`;
  try {
    expandedSize(schema as Node);
    return undefined;
  } catch (e) {
    if (e instanceof OverBounds && e.message) return `it has ${e.message}`;
    if (e instanceof OverBounds)
      return `it has more than ${SCHEMA_MAX_NODES} objects and lists with its $refs followed (definitions referred to on many paths)`;
    return `it could not be measured (${(e as Error).message})`; // a getter that throws, a stack overflow
  }
}

const problems = new WeakMap<object, string | null>();

/**
 * Why a JSON Schema is over the bounds (its nesting depth, its size with
 * $refs followed), or undefined when it is within them. Measured once per
 * schema object.
 */
export function schemaProblem(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  let problem = problems.get(schema);
  if (problem === undefined) {
    problem = measure(schema) ?? null;
    problems.set(schema, problem);
  }
  return problem ?? undefined;
}

// Keywords that only annotate: no check, no signature and no result field depends on them.
const ANNOTATIONS = new Set([
  "examples",
  "default",
  "description",
  "title",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
// Keywords whose value is an object of schemas by name, a schema, or a list of schemas.
const NAMED = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const ONE = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
]);
const MANY = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);

/** The schema without its annotations (at every schema position, not in data such as enum or const). */
function withoutAnnotations(schema: unknown, level = 0): unknown {
  if (!isObject(schema) || Array.isArray(schema)) return schema;
  if (level > SCHEMA_MAX_DEPTH) throw new OverBounds();
  const out: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (NAMED.has(key) && isObject(value) && !Array.isArray(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutAnnotations(v, level + 2)]));
    else if (MANY.has(key) && Array.isArray(value)) out[key] = value.map((v) => withoutAnnotations(v, level + 2));
    else if (ONE.has(key)) out[key] = withoutAnnotations(value, level + 1);
    else out[key] = value;
  }
  return out;
}

/** What became of a declared result schema: used as it is, simplified, or dropped (with why). */
export interface BoundedSchema {
  schema?: JsonObject;
  /** Why it was not used as it is; undefined when it was. */
  problem?: string;
  /** True when the schema is a simplified one (its annotations left out). */
  simplified?: boolean;
}

const returnsCache = new WeakMap<object, BoundedSchema>();

/**
 * A declared result schema within the bounds: the schema itself when it is
 * within them; else the schema without its annotations (examples, default,
 * descriptions...) when that one is; else none (the result's fields are then
 * not declared). Cached per schema object.
 */
export function boundedReturns(schema: JsonObject): BoundedSchema {
  let bounded = returnsCache.get(schema);
  if (bounded) return bounded;
  const problem = schemaProblem(schema);
  if (!problem) bounded = { schema };
  else {
    let simplified: unknown;
    try {
      simplified = withoutAnnotations(schema);
    } catch {
      simplified = undefined;
    }
    bounded =
      isObject(simplified) && !schemaProblem(simplified)
        ? { schema: simplified as JsonObject, problem, simplified: true }
        : { problem };
  }
  returnsCache.set(schema, bounded);
  return bounded;
}
