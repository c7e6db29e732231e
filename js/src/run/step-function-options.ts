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
import type {
  JournalEntry,
  JsonValue,
  PtcError,
  RunMetrics,
  RunSuspended,
  StateKey,
  Tool,
  TraceEntry,
  Warning,
} from "../types/public.js";

export interface WorkflowOptions {
  /** The function to run; default: the last function of the file. */
  entry?: string;
  /** The entry's input: exactly its declared parameters. */
  input?: Record<string, unknown>;
  /** Host tools the steps call (a function of the file with the same name wins). */
  tools?: Record<string, Tool>;
  /** Time limit of the whole run, tool awaits included (default 1000). */
  timeoutMs?: number;
  /** Bytes of values the run may hold, with the JSON text it writes for you (default 10 MiB). */
  maxHeapBytes?: number;
  /** Tool calls the run may make (default 1000); the next one ends it with an execution_error no on-error catches. */
  maxToolCalls?: number;
  /**
   * Tool calls outstanding at once (default 8): the iterations of a `for` whose
   * body cannot return (no return, if, or on-error return in it) run
   * concurrently; yields keep item order. 1: one call at a time.
   */
  maxConcurrency?: number;
  /** Time limit of one tool call: past it the call fails, a failure on-error may catch (default: none). */
  toolTimeoutMs?: number;
  signal?: AbortSignal;
  /** Stop at every tool call instead of running it (see RunOptions.suspend). */
  suspend?: boolean;
  /** Return the run's tool I/O as `journal` in the result, for `replay`. */
  journal?: boolean;
  /** Answer tool calls from this recording; a call it does not hold ends the run (replay_missing). */
  replay?: JournalEntry[];
  /** Signs a suspended state (see RunOptions.stateKey). */
  stateKey?: StateKey;
  /** The run's identity in its tool calls, chosen by the host (see RunOptions.runId). */
  runId?: string;
}

export interface ValidateWorkflowOptions {
  entry?: string;
  /** Tool names, or a tools object: calls to anything else fail verification. */
  tools?: string[] | Record<string, unknown>;
  /** When given, the entry's input is checked against its declared parameters. */
  input?: Record<string, unknown>;
}

export type WorkflowResult =
  | {
      ok: true;
      status?: undefined;
      result: JsonValue;
      trace: TraceEntry[];
      journal?: JournalEntry[];
      metrics: RunMetrics;
      warnings?: Warning[];
    }
  | {
      ok: false;
      error: PtcError;
      trace?: TraceEntry[];
      journal?: JournalEntry[];
      metrics?: RunMetrics;
      warnings?: Warning[];
      status?: undefined;
    }
  | RunSuspended<"workflow">;

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
