// Turning a program's run options into the engine's options, and the engine's
// done status into the run's result (options checked first, in checks.ts; the
// run's data: payload.ts). Shared by the in-process and the worker runtime.
import { now, type DoneStatus, type Timings } from "./driver.js";
import { describeThrown } from "../util/describe.js";
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
    toolMs: timings.toolMs,
    payloadMs: timings.payloadMs,
  };
  const result: RunResult = status.ok
    ? {
        ok: true,
        result: status.result,
        memoryDelta: status.memoryDelta ?? {},
        memory: status.memory ?? {},
        metrics,
      }
    : { ok: false, error: status.error, metrics };
  if (status.warnings) result.warnings = status.warnings;
  return result;
}
