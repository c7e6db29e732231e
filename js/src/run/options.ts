// Turning run options into what the engine and driver need (checked first, in
// checks.ts); shared by the in-process and the worker runtime.
import { isPlainObject } from "./checks.js";
import { now, type DoneStatus, type Payload, type Projections, type Timings } from "./driver.js";
import { describeThrown } from "../util/describe.js";
import { RowBlockWriter } from "../engine/rows.js";
import { returnsJson, withReturns } from "./declared-returns.js";
import { ENGINE_LIMITS } from "../types/engine-tables.js";
import type { ProgramInput, PtcError, RunOptions, RunResult, ValidateOptions } from "../types/public.js";

// The defaults are the engine's limits table (engine/core/limits.h).
export const DEFAULT_TIMEOUT_MS = ENGINE_LIMITS.timeoutMs.default;
export const DEFAULT_MAX_HEAP_BYTES = ENGINE_LIMITS.maxHeapBytes.default;
export const DEFAULT_MAX_DEPTH = ENGINE_LIMITS.maxDepth.default;
export const DEFAULT_MAX_TOOL_CALLS = ENGINE_LIMITS.maxToolCalls.default;
export const DEFAULT_MAX_CONCURRENCY = ENGINE_LIMITS.maxConcurrency.default;

export function failure(type: PtcError["type"], code: PtcError["code"], message: string): RunResult & { ok: false } {
  return { ok: false, error: { type, code, message } };
}

/** The program as JSON text, or a parse_error result when it cannot be one. */
export function programText(program: ProgramInput): string | (RunResult & { ok: false }) {
  if (typeof program === "string") return program;
  try {
    const text = JSON.stringify(program);
    if (text === undefined)
      return failure("parse_error", "missing_program", 'No program given: expected {"program": {"op": ...}}');
    return text;
  } catch (e) {
    return failure("parse_error", "not_json", `The program object is not JSON data: ${describeThrown(e)}`);
  }
}

// The last options text and what it was made of: callers pass the same limits
// and tools run after run, and the same text (the same string) lets the engine
// find the program it prepared with them without building or hashing anew.
let lastOptions = {
  timeoutMs: 0,
  maxHeapBytes: 0,
  maxDepth: 0,
  maxToolCalls: 0,
  maxConcurrency: 0,
  singleTurn: false,
  tools: [] as string[],
  returns: "",
  json: "",
};

function sameNames(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The tools a run may call: those given, and those of the recording it replays
 * (their calls are answered from it, so they need no function).
 */
export function toolNames(options: { tools?: object; replay?: { tool: string }[] }): string[] {
  const names = options.tools ? Object.keys(options.tools) : [];
  if (!options.replay) return names;
  return [...new Set([...names, ...options.replay.map((entry) => entry.tool)])];
}

export function engineOptionsJson(options: RunOptions): string {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxHeapBytes = options.maxHeapBytes ?? DEFAULT_MAX_HEAP_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxToolCalls = options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS;
  const maxConcurrency = options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  const tools = toolNames(options);
  const singleTurn = options.singleTurn === true;
  const returns = returnsJson(options.tools);
  const last = lastOptions;
  if (
    last.returns === returns &&
    last.singleTurn === singleTurn &&
    last.timeoutMs === timeoutMs &&
    last.maxHeapBytes === maxHeapBytes &&
    last.maxDepth === maxDepth &&
    last.maxToolCalls === maxToolCalls &&
    last.maxConcurrency === maxConcurrency &&
    sameNames(last.tools, tools)
  )
    return last.json;
  const json = withReturns(
    JSON.stringify({
      timeoutMs,
      maxHeapBytes,
      maxDepth,
      maxToolCalls,
      maxConcurrency,
      tools,
      ...(singleTurn ? { singleTurn } : {}),
    }),
    returns,
  );
  lastOptions = { timeoutMs, maxHeapBytes, maxDepth, maxToolCalls, maxConcurrency, singleTurn, tools, returns, json };
  return json;
}

export function validateOptionsJson(options: ValidateOptions): string {
  const engineOptions: Record<string, unknown> = { maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH };
  if (options.tools) engineOptions.tools = Array.isArray(options.tools) ? options.tools : Object.keys(options.tools);
  const contextKeys = options.contextKeys ?? (options.context ? Object.keys(options.context) : undefined);
  if (contextKeys) engineOptions.contextKeys = contextKeys;
  return withReturns(JSON.stringify(engineOptions), returnsJson(options.tools));
}

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
  if (loads.every((key) => isEnumerable.call(context, key))) return "";
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
    const rows = rowBlocks.bytes();
    return {
      context: text + "}",
      memory,
      ...(rows.length ? { rows } : {}), // a view of a reused buffer: valid until the next payload
    };
  } catch (e) {
    const what = readingMemory
      ? "The memory"
      : readingKey === undefined
        ? "The context"
        : `The context key ${JSON.stringify(readingKey)}`;
    return { error: `${what} is not JSON data: ${describeThrown(e)}` };
  }
}

export function abortedResult(signal: AbortSignal): RunResult {
  let reason: unknown;
  try {
    reason = signal.reason;
  } catch (e) {
    reason = e; // an object posing as an AbortSignal
  }
  return failure("execution_error", "aborted", `The run was aborted by the caller: ${describeThrown(reason)}`);
}

export function toRunResult(status: DoneStatus, started: number, timings: Timings): RunResult {
  const metrics = {
    durationMs: now() - started,
    memoryBytes: status.metrics.memoryBytes,
    toolCalls: status.metrics.toolCalls,
    ...timings,
  };
  const warnings = status.warnings ? { warnings: status.warnings } : {};
  if (!status.ok) return { ok: false, error: status.error, metrics, ...warnings };
  return {
    ok: true,
    result: status.result,
    memoryDelta: status.memoryDelta ?? {},
    memory: status.memory ?? {},
    metrics,
    ...warnings,
  };
}
