// Checking run options and turning them into what the engine and driver need;
// shared by the in-process and the worker runtime.
import { now, type DoneStatus, type Payload, type Projections, type Timings } from "./driver.js";
import { RowBlockWriter } from "./rows.js";
import type { ProgramInput, PtcError, RunOptions, RunResult, ValidateOptions } from "./types.js";

export const DEFAULT_TIMEOUT_MS = 1000;
export const DEFAULT_MAX_HEAP_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 50;

export function failure(type: PtcError["type"], message: string): RunResult & { ok: false } {
  return { ok: false, error: { type, message } };
}

/** The program as JSON text, or a parse_error result when it cannot be one. */
export function programText(program: ProgramInput): string | (RunResult & { ok: false }) {
  if (typeof program === "string") return program;
  try {
    const text = JSON.stringify(program);
    if (text === undefined) return failure("parse_error", 'No program given: expected {"program": {"op": ...}}');
    return text;
  } catch (e) {
    return failure("parse_error", `The program object is not JSON data: ${(e as Error).message}`);
  }
}

function checkObjectOption(name: string, value: unknown): void {
  if (value !== undefined && (value === null || typeof value !== "object" || Array.isArray(value)))
    throw new TypeError(`ptc-wasm: options.${name} must be an object`);
}

/** The longest timer JavaScript can set (longer ones fire at once). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function checkLimit(name: string, value: unknown, max = Number.MAX_SAFE_INTEGER): void {
  if (value !== undefined && !(typeof value === "number" && value > 0 && value <= max))
    throw new TypeError(`ptc-wasm: options.${name} must be a positive number${max < Number.MAX_SAFE_INTEGER ? ` of at most ${max}` : ""}`);
}

function checkSignal(signal: unknown): void {
  const s = signal as AbortSignal | undefined;
  if (s !== undefined && !(s && typeof s.aborted === "boolean" && typeof s.addEventListener === "function"))
    throw new TypeError("ptc-wasm: options.signal must be an AbortSignal");
}

/** Throws TypeError for options of the wrong type (a caller's bug, not a bad program). */
export function checkRunOptions(options: RunOptions): void {
  checkObjectOption("context", options.context);
  checkObjectOption("memory", options.memory);
  checkObjectOption("tools", options.tools);
  checkLimit("timeoutMs", options.timeoutMs, MAX_TIMEOUT_MS);
  checkLimit("maxHeapBytes", options.maxHeapBytes);
  checkLimit("maxDepth", options.maxDepth);
  checkSignal(options.signal);
}

export function checkValidateOptions(options: ValidateOptions): void {
  checkLimit("maxDepth", options.maxDepth);
  if (options.tools !== undefined && (options.tools === null || typeof options.tools !== "object"))
    throw new TypeError("ptc-wasm: options.tools must be a list of names or an object of tools");
}

// The last options text and what it was made of: callers pass the same limits
// and tools run after run, and the same text (the same string) lets the engine
// find the program it prepared with them without building or hashing anew.
let lastOptions = { timeoutMs: 0, maxHeapBytes: 0, maxDepth: 0, tools: [] as string[], json: "" };

function sameNames(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function engineOptionsJson(options: RunOptions): string {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxHeapBytes = options.maxHeapBytes ?? DEFAULT_MAX_HEAP_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const tools = options.tools ? Object.keys(options.tools) : [];
  const last = lastOptions;
  if (last.timeoutMs === timeoutMs && last.maxHeapBytes === maxHeapBytes && last.maxDepth === maxDepth && sameNames(last.tools, tools))
    return last.json;
  const json = JSON.stringify({ timeoutMs, maxHeapBytes, maxDepth, tools });
  lastOptions = { timeoutMs, maxHeapBytes, maxDepth, tools, json };
  return json;
}

export function validateOptionsJson(options: ValidateOptions): string {
  const engineOptions: Record<string, unknown> = { maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH };
  if (options.tools) engineOptions.tools = Array.isArray(options.tools) ? options.tools : Object.keys(options.tools);
  return JSON.stringify(engineOptions);
}

const rowBlocks = new RowBlockWriter();

/**
 * JSON of only the context keys the program loads (the rest never crosses),
 * and of the memory. A loaded list the program reads only through some fields
 * of its items crosses with just those fields, as binary row blocks
 * (js/src/rows.ts) when it can, else as JSON.
 */
export function payloadFor(options: RunOptions, loads: string[], fields?: Projections): Payload {
  try {
    // The text is built key by key: no intermediate object, and a key named
    // "__proto__" stays a key.
    const context = (options.context ?? {}) as Record<string, unknown>;
    let text = "{";
    rowBlocks.reset();
    for (const key of loads) {
      if (!Object.prototype.hasOwnProperty.call(context, key)) continue;
      const only = fields?.[key];
      if (only && rowBlocks.write(key, context[key], only)) continue;
      const value = JSON.stringify(context[key]);
      if (value === undefined) continue; // as JSON.stringify drops undefined and functions
      text += (text.length > 1 ? "," : "") + JSON.stringify(key) + ":" + value;
    }
    const rows = rowBlocks.bytes();
    return {
      context: text + "}",
      memory: options.memory ? JSON.stringify(options.memory) : "{}",
      ...(rows.length ? { rows } : {}), // a view of a reused buffer: valid until the next payload
    };
  } catch (e) {
    return { error: `The context or memory is not JSON data: ${(e as Error).message}` };
  }
}

export function abortedResult(signal: AbortSignal): RunResult {
  return failure("execution_error", `The run was aborted by the caller: ${reasonText(signal.reason)}`);
}

export function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name;
  return typeof reason === "string" ? reason : String(reason);
}

export function toRunResult(status: DoneStatus, started: number, timings: Timings): RunResult {
  const metrics = {
    durationMs: now() - started,
    memoryBytes: status.metrics.memoryBytes,
    toolCalls: status.metrics.toolCalls,
    ...timings,
  };
  if (!status.ok) return { ok: false, error: status.error, metrics };
  return { ok: true, result: status.result, memoryDelta: status.memoryDelta ?? {}, memory: status.memory ?? {}, metrics };
}
