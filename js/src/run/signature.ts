// Tool signatures as a model reads them: `search(query: string, limit?: integer)
// -> {id: string, total: number}[]`, written from the JSON Schemas of a tool's
// args (parameters) and result (returns). Shorter than pasted JSON Schema, and
// it names every field a program may read of the result.
//
// Bounded whatever the schema: a definition ($ref) reached from more than one
// place, or from inside itself, is written once by name (`Node[] where Node =
// {id: string, children?: Node[]}`) instead of on every path; the walk takes at
// most MAX_STEPS schema nodes and the text at most MAX_CHARS characters, and a
// cut says so where it is made.
import { refTarget } from "./schema-bounds.js";
import type { JsonObject } from "../types/public.js";

type Schema = JsonObject;

// Nested objects past this depth are written `object`: the signature stays one line.
const MAX_DEPTH = 3;
// Fields of one object shown before `...`.
const MAX_FIELDS = 16;
// Schema nodes one signature walks, and its length: past them the rest is cut.
const MAX_STEPS = 2000;
export const MAX_SIGNATURE_CHARS = 4000;
// Lists and unions nested deeper than this are written `any` (objects stop at MAX_DEPTH).
const MAX_NESTING = 24;
// Literals (enum, const) and field names longer than this are shortened.
const MAX_LITERAL = 60;

const CUT = "…";

function short(text: string): string {
  return text.length > MAX_LITERAL ? `${text.slice(0, MAX_LITERAL - 1)}${CUT}` : text;
}

const json = (v: unknown) => short(JSON.stringify(v) ?? "null");

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** One signature's walk: its budget, and the definitions it writes by name. */
class Walk {
  steps = 0;
  cut = false;
  /** Definitions written by name, and their text once written. */
  readonly names = new Map<Node, string>();
  readonly texts = new Map<string, string>();
  /** Definitions being written inline (a $ref back into one names it). */
  readonly inline = new Set<Node>();
  /** How many $refs of each root reach each definition. */
  readonly uses = new Map<Node, Map<Node, number>>();

  step(): boolean {
    if (++this.steps <= MAX_STEPS) return true;
    this.cut = true;
    return false;
  }

  usesOf(root: Node, target: Node): number {
    let counts = this.uses.get(root);
    if (!counts) this.uses.set(root, (counts = refCounts(root)));
    return counts.get(target) ?? 0;
  }

  nameFor(target: Node, ref: string): string {
    let name = this.names.get(target);
    if (name) return name;
    const last = ref.split("/").pop() ?? "";
    let base = last && last !== "#" ? last.replace(/~1/g, "/").replace(/~0/g, "~") : "Self";
    try {
      base = decodeURIComponent(base);
    } catch {
      // kept as written
    }
    base = short(base.replace(/\s+/g, "_") || "Self");
    name = base;
    for (let n = 2; [...this.names.values()].includes(name); n++) name = `${base}${n}`;
    this.names.set(target, name);
    return name;
  }

  /** ` where A = ...; B = ...` of the definitions written by name, or "". */
  where(): string {
    const defs = [...this.texts].map(([name, text]) => `${name} = ${text}`);
    return defs.length ? ` where ${defs.join("; ")}` : "";
  }
}

/** How many $refs of a schema reach each definition (a bounded walk without recursion). */
function refCounts(root: Node): Map<Node, number> {
  const counts = new Map<Node, number>();
  const stack: unknown[] = [root];
  for (let seen = 0; stack.length && seen < 10 * MAX_STEPS; seen++) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    const ref = (value as Node).$ref;
    if (typeof ref === "string") {
      const target = refTarget(ref, root);
      if (target) counts.set(target, (counts.get(target) ?? 0) + 1);
    }
    for (const child of Object.values(value)) stack.push(child);
  }
  return counts;
}

// A definition too small to be worth a name: written where it is used.
const isSimple = (s: Node) =>
  !s.properties &&
  !s.items &&
  !s.anyOf &&
  !s.oneOf &&
  !s.allOf &&
  !s.$ref &&
  !isNode(s.additionalProperties) &&
  !(Array.isArray(s.enum) && s.enum.length > 4);

function union(parts: string[]): string {
  return [...new Set(parts)].join("|");
}

// An array's item type in parentheses when it is a union: (string|number)[].
const listOf = (item: string) => `${item.includes("|") ? `(${item})` : item}[]`;

function typeAt(schema: unknown, root: Node, depth: number, walk: Walk, nesting: number): string {
  if (schema === true || schema === undefined) return "any";
  if (!isNode(schema)) return "any";
  if (nesting > MAX_NESTING) return "any";
  if (!walk.step()) return CUT;
  const s = schema;
  if (typeof s.$ref === "string") return refType(s.$ref, root, depth, walk, nesting);
  if (Array.isArray(s.enum)) {
    const shown = s.enum.slice(0, MAX_FIELDS).map((v) => json(v));
    return union(s.enum.length > MAX_FIELDS ? [...shown, CUT] : shown);
  }
  if ("const" in s) return json(s.const);
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(s[key]))
      return union((s[key] as unknown[]).map((part) => typeAt(part, root, depth, walk, nesting + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return typeAt(s.allOf[0], root, depth, walk, nesting + 1);
  const types = Array.isArray(s.type) ? (s.type as unknown[]).map(String) : typeof s.type === "string" ? [s.type] : [];
  if (!types.length && s.properties) types.push("object");
  if (!types.length && s.items) types.push("array");
  if (!types.length) return "any";
  return union(types.map((type) => typeNamed(short(type), s, root, depth, walk, nesting)));
}

/** A $ref's type: inline when its definition is used once (or is simple), else by name. */
function refType(ref: string, root: Node, depth: number, walk: Walk, nesting: number): string {
  const target = refTarget(ref, root);
  if (!target) return "any";
  const named = walk.names.get(target);
  if (named) return named;
  if (walk.inline.has(target)) return walk.nameFor(target, ref); // recursion: named, written below
  if (walk.usesOf(root, target) > 1 && !isSimple(target)) {
    const name = walk.nameFor(target, ref);
    walk.texts.set(name, CUT); // its place in the list, before definitions it refers to
    walk.texts.set(name, typeAt(target, root, 0, walk, 0));
    return name;
  }
  return inlineType(target, root, depth, walk, nesting + 1);
}

/** A definition written where it is used; by name if it refers to itself (written once, in the list). */
function inlineType(target: Node, root: Node, depth: number, walk: Walk, nesting: number): string {
  walk.inline.add(target);
  const text = typeAt(target, root, depth, walk, nesting);
  walk.inline.delete(target);
  const name = walk.names.get(target);
  if (!name) return text;
  walk.texts.set(name, text);
  return name;
}

function typeNamed(type: string, s: Node, root: Node, depth: number, walk: Walk, nesting: number): string {
  if (type === "array") return listOf(typeAt(s.items, root, depth, walk, nesting + 1));
  if (type !== "object") return type;
  const props = s.properties;
  if (!isNode(props) || !Object.keys(props).length) {
    const values = s.additionalProperties;
    return isNode(values) ? `{[key]: ${typeAt(values, root, depth + 1, walk, nesting + 1)}}` : "object";
  }
  if (depth >= MAX_DEPTH) return "object";
  return fields(s, root, depth + 1, walk, nesting + 1);
}

/** `{a: string, b?: number}`: an object schema's fields, optional ones marked with `?`. */
function fields(s: Node, root: Node, depth: number, walk: Walk, nesting: number): string {
  const props = (isNode(s.properties) ? s.properties : {}) as Node;
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  const names = Object.keys(props);
  const shown = names
    .slice(0, MAX_FIELDS)
    .map(
      (name) => `${short(name)}${required.has(name) ? "" : "?"}: ${typeAt(props[name], root, depth, walk, nesting)}`,
    );
  if (names.length > MAX_FIELDS) shown.push("...");
  return `{${shown.join(", ")}}`;
}

/** The text within MAX_SIGNATURE_CHARS, and a note where the walk or the text was cut. */
function finished(text: string, walk: Walk): string {
  if (text.length > MAX_SIGNATURE_CHARS)
    return `${text.slice(0, MAX_SIGNATURE_CHARS)}${CUT} [signature cut at ${MAX_SIGNATURE_CHARS} characters: the JSON Schema has the rest]`;
  if (walk.cut) return `${text} [signature cut (${CUT}) after ${MAX_STEPS} schema nodes: the JSON Schema has the rest]`;
  return text;
}

/** The type of a JSON Schema, written compactly (`{name: string, tags?: string[]}`), its shared definitions by name. */
export function typeOf(schema: unknown): string {
  const walk = new Walk();
  const root = (isNode(schema) ? schema : {}) as Node;
  const text = inlineType(root, root, 0, walk, 0);
  return finished(text + walk.where(), walk);
}

/** `name(a: string, b?: integer)` from a parameters schema, and ` -> <result type>` when returns is given. */
export function toolSignature(name: string, parameters?: Schema, returns?: Schema): string {
  const walk = new Walk();
  let args = "";
  if (isNode(parameters)) {
    args = isNode(parameters.properties) ? fields(parameters, parameters, 1, walk, 0).slice(1, -1) : "args: see schema";
  }
  const result = isNode(returns) ? ` -> ${inlineType(returns, returns, 0, walk, 0)}` : "";
  return finished(`${name}(${args})${result}${walk.where()}`, walk);
}
