// A program's data as the engine reads it: JSON of only the context keys it
// loads, and list items it reads only in part as binary row blocks
// (engine/rows.ts). Built fresh for every run: the caller's objects may have
// changed since the last.
import { isPlainObject } from "./checks.js";
import type { Payload, Projections } from "./driver.js";
import { describeThrown } from "../util/describe.js";
import { RowBlockWriter } from "../engine/rows.js";
import type { RunOptions } from "../types/public.js";

const rowBlocks = new RowBlockWriter();

const isEnumerable = Object.prototype.propertyIsEnumerable;

// The object whose keys JSON.stringify(context) would write: the context, or
// what its toJSON returns.
function contextObject(context: unknown): Record<string, unknown> {
  const own = context as { toJSON?: unknown } | undefined;
  if (!own || typeof own.toJSON !== "function") return (own ?? {}) as Record<string, unknown>;
  const value: unknown = (own.toJSON as (key: string) => unknown)("");
  if (!isPlainObject(value)) throw new TypeError("its toJSON() did not return an object");
  return value as Record<string, unknown>;
}

const hasToJSON = (value: unknown) =>
  value !== null &&
  (typeof value === "object" || typeof value === "bigint") &&
  typeof (value as { toJSON?: unknown }).toJSON === "function";

// JSON of a value as a member of an object: its toJSON gets the key, as in
// JSON.stringify(context) (JSON.stringify(value) would pass ""). The holder's
// computed key stays a key even when it is "__proto__".
function memberJson(key: string, value: unknown): string | undefined {
  const member = JSON.stringify({ [key]: value });
  return member.length > 2 ? member.slice(JSON.stringify(key).length + 2, -1) : undefined;
}

/**
 * JSON of only the context keys the program loads (the rest never crosses),
 * and of the memory. A loaded list the program reads only through some fields
 * of its items crosses with just those fields, as binary row blocks
 * (js/src/rows.ts) when it can, else as JSON. The program sees exactly what
 * JSON.stringify(context) would send: own enumerable keys, toJSON applied;
 * a non-enumerable or inherited key is absent.
 */
// When the program loads a key the context does not have, the keys it does
// have cross too, as nulls (the program cannot load them, its loads are
// fixed): the engine's warning names them as it would with the whole context.
function otherKeys(context: Record<string, unknown>, loads: string[]): string {
  let all = true;
  for (let i = 0; all && i < loads.length; i++) all = isEnumerable.call(context, loads[i]!);
  if (all) return "";
  return Object.keys(context)
    .filter((key) => !loads.includes(key))
    .map((key) => JSON.stringify(key) + ":null")
    .join(",");
}

export function payloadFor(options: RunOptions, loads: string[], fields?: Projections): Payload {
  // What the error names, should reading the caller's data throw.
  let readingKey: string | undefined;
  let readingMemory = false;
  try {
    // The text is built key by key: no intermediate object, and a key named
    // "__proto__" stays a key.
    const context = contextObject(options.context);
    let text = "{";
    rowBlocks.reset();
    for (const key of loads) {
      if (!isEnumerable.call(context, key)) continue;
      readingKey = key;
      const value = context[key]; // read once: a getter runs once, as in JSON.stringify
      const only = fields?.[key];
      if (only && rowBlocks.write(key, value, only)) continue;
      const json = hasToJSON(value) ? memberJson(key, value) : JSON.stringify(value);
      if (json === undefined) continue; // as JSON.stringify drops undefined and functions
      text += (text.length > 1 ? "," : "") + JSON.stringify(key) + ":" + json;
    }
    const others = otherKeys(context, loads);
    if (others) text += (text.length > 1 ? "," : "") + others;
    readingMemory = true;
    const memory = options.memory ? JSON.stringify(options.memory) : "{}";
    // rows: a view of a reused buffer, valid until the next payload.
    return rowBlocks.empty()
      ? { context: text + "}", memory }
      : { context: text + "}", memory, rows: rowBlocks.bytes() };
  } catch (e) {
    const what = readingMemory
      ? "The memory"
      : readingKey === undefined
        ? "The context"
        : `The context key ${JSON.stringify(readingKey)}`;
    return { error: `${what} is not JSON data: ${describeThrown(e)}` };
  }
}
