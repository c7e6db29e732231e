// Step functions, the second dialect (docs/step-functions.md): option checks,
// the engine's options and payload, and the result with its trace. The runs
// themselves go through the same driver as PTC-JSON programs.
import { now, type DoneStatus, type Payload, type Timings } from "./driver.js";
import { DEFAULT_MAX_HEAP_BYTES, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from "./options.js";
import type { JsonObject, JsonValue, PtcError, RunMetrics, Tool } from "./types.js";

export interface WorkflowOptions {
  /** The function to run; default: the last function of the file. */
  entry?: string;
  /** The entry's input: exactly its declared parameters. */
  input?: Record<string, unknown>;
  /** Host tools the steps call (a function of the file with the same name wins). */
  tools?: Record<string, Tool>;
  /** Time limit of the whole run, tool awaits included (default 1000). */
  timeoutMs?: number;
  /** Bytes of values the run may hold (default 10 MiB). */
  maxHeapBytes?: number;
  signal?: AbortSignal;
}

export interface ValidateWorkflowOptions {
  entry?: string;
  /** Tool names, or a tools object: calls to anything else fail verification. */
  tools?: string[] | Record<string, unknown>;
  /** When given, the entry's input is checked against its declared parameters. */
  input?: Record<string, unknown>;
}

/** One executed step (docs/step-functions.md, "Trace"). */
export interface TraceEntry {
  function: string;
  path: string;
  step: number;
  kind: "let" | "call" | "match" | "if" | "return" | "for" | "yield" | "compensate";
  tool?: string;
  args?: JsonObject;
  durationMs: number;
  outcome: "value" | "failure" | "compensated" | "timeout" | "abort";
  value?: JsonValue;
  error?: string;
}

export type WorkflowResult =
  | { ok: true; result: JsonValue; trace: TraceEntry[]; metrics: RunMetrics }
  | { ok: false; error: PtcError; trace?: TraceEntry[]; metrics?: RunMetrics };

/** Throws TypeError for options of the wrong type (a caller's bug, not a bad file). */
export function checkWorkflowOptions(options: WorkflowOptions): void {
  if (options.entry !== undefined && typeof options.entry !== "string")
    throw new TypeError("ptc-wasm: options.entry must be a function name");
  for (const name of ["input", "tools"] as const) {
    const value = options[name];
    if (value !== undefined && (value === null || typeof value !== "object" || Array.isArray(value)))
      throw new TypeError(`ptc-wasm: options.${name} must be an object`);
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0 && options.timeoutMs <= MAX_TIMEOUT_MS))
    throw new TypeError(`ptc-wasm: options.timeoutMs must be a positive number of at most ${MAX_TIMEOUT_MS}`);
  if (options.maxHeapBytes !== undefined && !(options.maxHeapBytes > 0))
    throw new TypeError("ptc-wasm: options.maxHeapBytes must be a positive number");
  const s = options.signal as AbortSignal | undefined;
  if (s !== undefined && !(s && typeof s.aborted === "boolean" && typeof s.addEventListener === "function"))
    throw new TypeError("ptc-wasm: options.signal must be an AbortSignal");
}

export function workflowEngineOptions(options: WorkflowOptions): string {
  return JSON.stringify({
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxHeapBytes: options.maxHeapBytes ?? DEFAULT_MAX_HEAP_BYTES,
    tools: Object.keys(options.tools ?? {}),
    ...(options.entry ? { entry: options.entry } : {}),
  });
}

export function validateWorkflowOptions(options: ValidateWorkflowOptions): string {
  const engineOptions: Record<string, unknown> = {};
  if (options.entry) engineOptions.entry = options.entry;
  if (options.tools) engineOptions.tools = Array.isArray(options.tools) ? options.tools : Object.keys(options.tools);
  if (options.input) engineOptions.input = options.input;
  return JSON.stringify(engineOptions);
}

/** The entry's input crosses as the run's payload. */
export function workflowPayload(options: WorkflowOptions): Payload {
  try {
    return { context: JSON.stringify(options.input ?? {}), memory: "" };
  } catch (e) {
    return { error: `The input is not JSON data: ${(e as Error).message}` };
  }
}

export function toWorkflowResult(status: DoneStatus, started: number, timings: Timings): WorkflowResult {
  const metrics = { durationMs: now() - started, memoryBytes: status.metrics.memoryBytes, toolCalls: status.metrics.toolCalls, ...timings };
  const trace = (status.trace ?? []) as unknown as TraceEntry[];
  if (!status.ok) return { ok: false, error: status.error, ...(status.trace ? { trace } : {}), metrics };
  return { ok: true, result: status.result, trace, metrics };
}
