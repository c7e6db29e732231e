// The public options and results of step functions, the second dialect
// (docs/step-functions.md): what runWorkflow(), validateWorkflow() and
// analyzeWorkflow() take and runWorkflow() gives. The API calls a step-function
// file a workflow, as in runWorkflow; the names keep that word. PTC-JSON's
// (RunOptions, ValidateOptions, RunResult) are in public.ts beside them.
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
} from "./public.js";

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
