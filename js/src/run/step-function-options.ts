// Step functions, the second dialect (docs/step-functions.md): option checks,
// the engine's options and payload, and the result with its trace. The runs
// themselves go through the same driver as PTC-JSON programs.
import { now, type DoneStatus, type Payload, type Timings } from "./driver.js";
import { describeThrown } from "../util/describe.js";
import { checkedOptions } from "./checks.js";
import {
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_MAX_HEAP_BYTES,
  DEFAULT_MAX_TOOL_CALLS,
  DEFAULT_TIMEOUT_MS,
  toolNames,
} from "./options.js";
import type { WorkflowOptions, ValidateWorkflowOptions, WorkflowResult } from "../types/step-functions.js";
import type { TraceEntry } from "../types/public.js";

const STEP_FUNCTION_OPTIONS = [
  "entry",
  "input",
  "tools",
  "timeoutMs",
  "maxHeapBytes",
  "maxToolCalls",
  "maxConcurrency",
  "toolTimeoutMs",
  "signal",
  "suspend",
  "journal",
  "replay",
  "stateKey",
  "runId",
] as const;

/** The options of runWorkflow(), checked as run()'s are (checks.ts); throws TypeError. */
export function checkStepFunctionOptions(options: WorkflowOptions): WorkflowOptions {
  return checkedOptions(options, STEP_FUNCTION_OPTIONS);
}

export function stepFunctionEngineOptions(options: WorkflowOptions): string {
  return JSON.stringify({
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxHeapBytes: options.maxHeapBytes ?? DEFAULT_MAX_HEAP_BYTES,
    maxToolCalls: options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS,
    maxConcurrency: options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    tools: toolNames(options),
    ...(options.entry ? { entry: options.entry } : {}),
  });
}

export function validateStepFunctionOptions(options: ValidateWorkflowOptions): string {
  const engineOptions: Record<string, unknown> = {};
  if (options.entry) engineOptions.entry = options.entry;
  if (options.tools) engineOptions.tools = Array.isArray(options.tools) ? options.tools : Object.keys(options.tools);
  if (options.input) engineOptions.input = options.input;
  return JSON.stringify(engineOptions);
}

/** The entry's input crosses as the run's payload. */
export function stepFunctionPayload(options: WorkflowOptions): Payload {
  try {
    return { context: JSON.stringify(options.input ?? {}), memory: "" };
  } catch (e) {
    return { error: `The input is not JSON data: ${describeThrown(e)}` };
  }
}

export function toStepFunctionResult(status: DoneStatus, started: number, timings: Timings): WorkflowResult {
  const metrics = {
    durationMs: now() - started,
    memoryBytes: status.metrics.memoryBytes,
    toolCalls: status.metrics.toolCalls,
    ...timings,
  };
  const trace = (status.trace ?? []) as unknown as TraceEntry[];
  const warnings = status.warnings ? { warnings: status.warnings } : {};
  if (!status.ok) return { ok: false, error: status.error, ...(status.trace ? { trace } : {}), metrics, ...warnings };
  return { ok: true, result: status.result, trace, metrics, ...warnings };
}
