// The package's public types: the leaf of js/src, which every layer may import
// and which imports nothing but its neighbours in types/.
import type { ErrorCode, ErrorType } from "./error-codes.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { ResidentContext } from "./resident-context.js";

export type { StandardResult, StandardSchemaV1, ToolSchema } from "./tool-schema.js";

export type { ErrorCode, ErrorCodeInfo, ErrorType } from "./error-codes.js";
export type { FieldKind } from "./engine-tables.js";
export type { JsonObject, JsonValue } from "./json.js";

export interface PtcError {
  type: ErrorType;
  /** Why, as a stable snake_case code to branch on (docs/errors.md), e.g. "unknown_op". */
  code: ErrorCode;
  /** What went wrong, written so that a model can fix its program. */
  message: string;
  /** JSON Pointer of the offending node, e.g. "/program/steps/1/where". */
  path?: string;
  /** Byte offset in the program text, for JSON syntax errors. */
  position?: number;
  /**
   * Calls of write tools abandoned (by timeoutMs, toolTimeoutMs, the signal)
   * while their tool still ran: they may have completed. Present only then.
   */
  unconfirmed?: UnconfirmedWrite[];
}

/** A write the run abandoned while its tool still ran, by the identity its tool was given. */
export interface UnconfirmedWrite {
  tool: string;
  /** JSON Pointer of the calling node (or step). */
  path: string;
  runId: string;
  callId: string;
}

/** What formatError takes: a result's error, or one built by hand, whose `code` may be absent. */
export type FormattableError = Omit<PtcError, "code"> & { code?: ErrorCode };

export type {
  ToolArgs,
  ArgsFunction,
  CallIdentity,
  StateKey,
  ToolFunction,
  ToolDescriptor,
  ApprovalCheck,
  DeferredToolDescriptor,
  AiSdkToolLike,
  Tool,
} from "./tool-types.js";
import type { StateKey, Tool } from "./tool-types.js";
export type { ToolDefinition, DefinedTool, ArgsOf, ResultOf, InferInput, InferOutput } from "./define-tool.js";

export interface RunOptions {
  /** Data the program reads with {"op": "load", "name": ...}. */
  context?: Record<string, unknown>;
  /**
   * Context data already in the engine (runtime.load()): the program loads its
   * keys as context, without them crossing again; `context` keys of the same
   * name win.
   */
  resident?: ResidentContext;
  /** Memory from earlier turns; {"op": "var"} falls back to it. */
  memory?: Record<string, unknown>;
  /** Tools the program may call with {"op": "call", "tool": ...}: functions or descriptors. */
  tools?: Record<string, Tool>;
  /** Time limit of the whole run, tool awaits included (default 1000). */
  timeoutMs?: number;
  /** Bytes of values the run may hold, with the JSON text it writes for you (default 10 MiB). */
  maxHeapBytes?: number;
  /** Deepest nesting of operations a program may have (default 50, at most 500). */
  maxDepth?: number;
  /** Tool calls the run may make (default 1000); the next one ends the run with an execution_error no try catches. */
  maxToolCalls?: number;
  /**
   * Tool calls outstanding at once (default 8): the items of a map (flat_map,
   * filter, reject) and the operands of an op such as list or object that call
   * tools run concurrently; results keep item order. 1: one call at a time.
   */
  /**
   * No later program reads this run's memory (a one-shot run): a final object
   * {"result": ..., "other": ...} then warns (`result_stored`) that only `result`
   * is returned and the other keys went to memory.
   */
  singleTurn?: boolean;
  maxConcurrency?: number;
  /** Time limit of one tool call: past it the call fails, a failure try may catch (default: none). */
  toolTimeoutMs?: number;
  /** Return every tool call (path, args, outcome, duration, result size) as `trace` in the result (default false). */
  trace?: boolean;
  /** Aborts the run (while computing or waiting on a tool). */
  signal?: AbortSignal;
  /**
   * Stop at every tool call instead of running it: the result is
   * { status: "suspended", pending, state }, and runtime.resume() continues
   * with the calls' results (a host that runs tools elsewhere).
   */
  suspend?: boolean;
  /** Return the run's tool I/O as `journal` in the result, for `replay` (default false). */
  journal?: boolean;
  /**
   * Answer tool calls from this recording (a result's `journal`) instead of the
   * tools: a call it does not hold ends the run (replay_missing).
   */
  replay?: JournalEntry[];
  /**
   * The host's key for suspended states (text or bytes): the state is signed
   * (an HMAC-SHA-256 `mac` over all of it) and resume() with the same key
   * refuses a state changed in any part (bad_state). Without it, a state is as
   * trusted as where it was kept.
   */
  stateKey?: StateKey;
  /**
   * The run's identity, chosen by the host: the `runId` every tool call gets
   * (`execute(args, { signal, runId, callId })`) and a suspended state keeps.
   * Default: a new random id per run. Give the same id to every try of the
   * same job (a queue's job id, say): the calls of the same program with the
   * same answers then get the same `{ runId, callId }` on each try, so a write
   * tool that dedupes by them writes once however often the job is run again.
   * 1 to 128 characters of printable ASCII without spaces (`!` to `~`); another
   * value ends the run before it starts with a validation_error (`bad_run_id`).
   */
  runId?: string;
}

export interface ValidateOptions {
  /**
   * Tool names, or a tools object: unknown tool names then fail validation, and
   * a field read of a tool's result that its declared `returns` does not list
   * is a warning (`unknown_result_field`).
   */
  tools?: string[] | Record<string, Tool>;
  maxDepth?: number;
  /**
   * The context the program will run with (or just its keys): a `load` of a
   * key it does not have is then a warning (`unknown_context_key`) naming the keys there are.
   */
  context?: Record<string, unknown>;
  contextKeys?: string[];
}

export interface RunMetrics {
  /** Wall time of the run, boundary crossings included. */
  durationMs: number;
  /** Peak bytes of values the run held (with the JSON text of what it returned). */
  memoryBytes: number;
  toolCalls: number;
  /** Time spent waiting for tools. */
  toolMs: number;
  /** Time spent in JavaScript turning the loaded context (or step-function input) and the memory into what crosses into the engine. */
  payloadMs: number;
}

export interface RunSuccess {
  ok: true;
  status?: undefined;
  result: JsonValue;
  /** With `trace: true`: the run's tool calls, in the order they were made. */
  trace?: ToolCallTrace[];
  /** With `journal: true`: every answered tool call (args and answer), for `replay`. */
  journal?: JournalEntry[];
  /** What this run added to memory (the memory contract). */
  memoryDelta: JsonObject;
  /** The memory passed in, merged with memoryDelta: pass it to the next turn. */
  memory: JsonObject;
  metrics: RunMetrics;
  /** What the program read that is not there, or wrote almost right: each names the fix (docs/errors.md). */
  warnings?: Warning[];
}

export interface RunFailure {
  ok: false;
  error: PtcError;
  /** With `trace: true`: the run's tool calls, in the order they were made. */
  trace?: ToolCallTrace[];
  /** With `journal: true`: every answered tool call (args and answer), for `replay`. */
  journal?: JournalEntry[];
  metrics?: RunMetrics;
  /** As RunSuccess's: often what led to the error (a misspelt context key, then a list op on null). */
  warnings?: Warning[];
  status?: undefined;
}

export type RunResult = RunSuccess | RunFailure | RunSuspended<"program">;
export type ValidateResult = { ok: true; warnings?: ValidationWarning[] } | { ok: false; error: PtcError };

/**
 * A warning beside a result: the run went on as the language says, but read a
 * name that is not there or has a shape that is almost right. `code` is stable
 * (docs/errors.md), `path` the JSON Pointer of the node or step, `message` names the fix.
 */
export interface Warning {
  code: ErrorCode;
  path: string;
  message: string;
}

/** What validate()/validateWorkflow() report of a valid program or file. */
export type ValidationWarning =
  | Warning
  | {
      /** validateWorkflow(): a write tool's call that nothing rolls back. */
      code: "write_not_compensated";
      /** JSON Pointer of the write call's step. */
      path: string;
      tool: string;
      message: string;
    };

/**
 * One place a program may call a tool. count: "once", or how often it may run:
 * "per item of <JSON Pointer of the list>" inside map/filter/flat_map (or a
 * step-function for), "at most N times" inside a loop; nested ones are joined
 * with ", ", outermost first. bounded: false when it runs per item of a list.
 * caught: inside a try's expr (PTC-JSON) or a call step with on-error.
 */
export interface AnalysisCall {
  path: string;
  count: string;
  bounded: boolean;
  caught?: true;
  /** Step functions: the function the call is written in; its count is per call of that function. */
  function?: string;
  /**
   * Step functions: the first later call step that may fail without running a
   * compensation (no on-error, or one without compensate), leaving this call's
   * effect standing.
   */
  uncompensatedAfter?: string;
}

export interface AnalysisTool {
  name: string;
  calls: AnalysisCall[];
  /** When the tools given are an object of tools: what the tool's descriptor declares ("read" by default). */
  effect?: "read" | "write";
  /** It asks before each call (its descriptor's `approval`): a run stops there, suspended. */
  approval?: true;
  /** The host runs it (`defer: true`): every call suspends the run. */
  deferred?: true;
}

/** What a PTC-JSON program may do, found without running it (runtime.analyze). */
export interface ProgramAnalysis {
  tools: AnalysisTool[];
  /** Context keys it loads; fields: the only fields of their items it reads, when that is known. */
  context: { key: string; fields?: string[] }[];
  /**
   * Memory keys it reads (var names no let/as binds) and may write (the keys
   * of its final object but "result"); writesUnknown: its final value may be
   * an object whose keys are known only when it runs.
   */
  memory: { reads: string[]; writes: string[]; writesUnknown: boolean };
  depth: number;
  nodes: number;
}

/** What a step-function file may do, found without running it (runtime.analyzeWorkflow). */
export interface WorkflowAnalysis {
  tools: AnalysisTool[];
  /** The fields of $input it reads. */
  input: string[];
  /** Steps nested in for bodies (1: none) and the number of steps. */
  depth: number;
  nodes: number;
}

export type AnalyzeResult<A> =
  { ok: true; analysis: A; warnings?: ValidationWarning[] } | { ok: false; error: PtcError };

/** A program: JSON text, or an already-parsed {"program": {...}} object. */
export type ProgramInput = string | { program: unknown; [key: string]: unknown };

export type {
  OperationField,
  Operation,
  WorkflowStepKey,
  WorkflowStepKind,
  WorkflowOperator,
  WorkflowFunction,
  WorkflowLanguage,
} from "./language.js";

/**
 * A compiled WebAssembly.Module. Named here rather than written as
 * `WebAssembly.Module` so that the package's types need neither the DOM lib nor
 * a WebAssembly declaration (the lib's WebAssembly.Module is an empty interface:
 * any object is one, as far as types go).
 */
export type WasmModule = object;

/** Where the .wasm comes from: its bytes, a compiled module (WebAssembly.Module), or a URL/path. */
export type WasmSource = ArrayBuffer | Uint8Array | WasmModule | URL | string;

export interface CreateRuntimeOptions {
  /**
   * The engine's .wasm, when it is not next to the package's JS: a URL or path,
   * its bytes, or a compiled WebAssembly.Module (what Cloudflare Workers give for
   * a `.wasm` import). Bundlers that do not copy it (esbuild) need it served
   * from node_modules/ptc-wasm/dist/ptc.wasm.
   */
  wasm?: WasmSource;
  /**
   * Browsers, worker mode: the URL of the engine worker script, when it is not
   * next to the package's JS. Bundlers that do not bundle it (esbuild) need it
   * served from node_modules/ptc-wasm/dist/worker.browser.mjs. Node ignores it.
   */
  workerUrl?: URL | string;
  /**
   * Run the engine in a worker thread (Node worker_threads, browser Web Worker).
   * Same API; tools still run on the caller's side. A run that overstays its
   * timeout while computing terminates and replaces the worker. Default: true on
   * a browser page (in-process would block the page while a program computes,
   * and an abort would wait for the run's timeout); false in Node, Deno, Bun,
   * Cloudflare Workers and inside a Web Worker.
   */
  worker?: boolean;
  /**
   * WebAssembly memory only grows. An engine that grew by more than this many
   * bytes beyond its resident contexts is replaced once idle, so the host gets
   * the memory back (default 256 MiB): in-process after 2 s without runs; in
   * worker mode the worker is ended once no run waits on it, and the next run
   * starts a fresh one (resident contexts are sent to it again).
   */
  recycleEngineBytes?: number;
  /**
   * The step-function dialect. true: load the engine with both dialects,
   * dist/ptc.wasm. "lazy": load the engine without it, dist/ptc-json.wasm (PTC-JSON
   * only, about 49 KB gzip less: what a page fetches before its first run), and
   * ptc.wasm when a step-function file first runs (runWorkflow, resume) or on
   * runtime.preload(); until then validateWorkflow and analyzeWorkflow answer an
   * execution_error (bad_host_call) and workflowLanguage, workflowSchema,
   * workflowPrompt and describeLanguage throw, each saying to await
   * runtime.preload(). false: PTC-JSON only for good; the step-function entry
   * points answer or throw likewise, saying so. Default: "lazy" on a page (the
   * browser build); in Node, ptc-json.wasm first too, and ptc.wasm read when
   * anything first needs the step-function dialect, the synchronous methods
   * included (nothing throws: every method answers as with true). With `wasm`
   * given, that module is loaded either way.
   */
  stepFunctions?: boolean | "lazy";
}

/** Options of runtime.asFunctionTool(). */
export interface FunctionToolOptions {
  /** The tools programs may call (functions or descriptors): listed in the description, names enforced by the schema. */
  tools?: Record<string, Tool>;
  /** The context runs will get: its keys are listed in the description. */
  context?: Record<string, unknown>;
  /** The function's name (default "run_program"). */
  name?: string;
  /** Use the compact prompt as the description (default true). */
  compact?: boolean;
  /**
   * The parameters: "minimal" (default, {program: object}: the engine's errors
   * name every fix) or "full" (the program's whole JSON Schema, for constrained decoding).
   */
  schema?: "minimal" | "full";
}

/** A function-calling tool definition (OpenAI-style): the arguments are a program {"program": ...}. */
export interface FunctionTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

// The types of runs that stop and resume (the gate: gate/journal.ts,
// gate/suspension.ts), of traces (run/telemetry.ts, run/step-function-options.ts) and of the
// extras' options: named by the types above and by several layers, so kept here,
// in the leaf every layer may import.

/** What a run runs: a PTC-JSON program or a step-function file ("workflow", as runWorkflow names it). */
export type RunKind = "program" | "workflow";

/** One tool call of a run, as `trace: true` returns it (RunResult.trace). */
export interface ToolCallTrace {
  /** The call's id in its run (in the order calls were made, from 1). */
  id: number;
  tool: string;
  /** JSON Pointer of the calling node. */
  path: string;
  args: JsonObject;
  /**
   * value: the tool answered; failure: it threw, or overstayed toolTimeoutMs
   * (`error` says which); fault: its result is not JSON data; timeout: the run's
   * time limit struck while it was out; abort: the caller's signal; abandoned:
   * the run ended (another call's error) while it was out; suspended: held for
   * the host (an approval, a deferred tool, `suspend`), the run stopped there.
   */
  outcome: "value" | "failure" | "fault" | "timeout" | "abort" | "abandoned" | "suspended";
  /** When the engine issued the call, in ms since the run (or resumed leg) started. */
  startMs: number;
  /** From the call's start (when the engine issued it) to its answer. */
  durationMs: number;
  /**
   * Who answered a call no tool ran: "recording" (a `replay`, or the journal
   * of a resumed run), "host" (the result given to resume for a held call).
   */
  answeredBy?: "recording" | "host";
  /** Characters of the result's JSON text (outcome value). */
  resultSize?: number;
  error?: string;
}

/** One answered tool call: what it was asked and what it answered (a value, or the failure's message). */
export type JournalEntry = { tool: string; path: string; args: JsonObject } & (
  { value: JsonValue } | { error: string }
);

/** Why a call was held instead of run. */
export type PendingReason = "approval" | "deferred" | "suspend";

/** A call the run stopped at: the host decides it, then resumes (runtime.resume). */
export interface PendingCall {
  /** Names the call in `results` of resume(). */
  id: string;
  tool: string;
  /** JSON Pointer of the calling node (or step). */
  path: string;
  args: JsonObject;
  /** approval: the tool asks before each call; deferred: the host runs it; suspend: the run was asked to stop at every call. */
  reason: PendingReason;
}

/**
 * The host's answer to a pending call: its result (`value`), its failure
 * (`error`, a tool failure the program may catch), or a decision: `approved:
 * true` runs the tool now (with the tools passed to resume), `approved: false`
 * fails the call as denied (with `reason` in the message).
 */
export type CallResult =
  { value: JsonValue } | { error: string } | { approved: true } | { approved: false; reason?: string };

/** What a suspended run needs to go on: JSON, for JSON.stringify and any storage. */
export interface SuspendedState<K extends RunKind = RunKind> {
  format: "ptc-wasm/suspended-run@1";
  /** The package version that wrote it; another version refuses it (its evaluation may differ). */
  version: string;
  /** "program" (PTC-JSON: resume resolves as run()) or "workflow" (step functions: as runWorkflow()). */
  kind: K;
  /** The program's JSON text, or the step-function file. */
  source: string;
  /** A hash of `source`: a changed program is refused. */
  hash: string;
  /** The limits that shape the evaluation (maxHeapBytes, maxDepth, maxToolCalls). */
  limits: { maxHeapBytes?: number; maxDepth?: number; maxToolCalls?: number };
  /** Step functions: the entry function and its input. */
  entry?: string;
  input?: JsonObject;
  /** PTC-JSON: the memory the run started with. */
  memory?: JsonObject;
  /** The context keys the program loaded and a hash of their data (resident data too): resume() must get the same data. */
  context?: { keys: string[]; hash: string };
  /** Names the run in its calls' identities (the second argument of `execute`): the same on every resume. */
  runId: string;
  /** Every call answered so far. */
  journal: JournalEntry[];
  /** The calls the run stopped at. */
  pending: PendingCall[];
  /** With a `stateKey`: "hmac-sha256:<hex>" over the rest of the state; resume refuses a state that does not match. */
  mac?: string;
}

/** A run that stopped at calls held for the host (approvals, deferred tools, `suspend`). */
export interface RunSuspended<K extends RunKind = RunKind> {
  ok: false;
  status: "suspended";
  /** code "suspended": for code that only looks at `ok` and `error`. */
  error: PtcError;
  /** The held calls: decide each, then runtime.resume(state, { results: { [id]: ... } }). */
  pending: PendingCall[];
  state: SuspendedState<K>;
  /** PTC-JSON with `trace: true`: the calls so far; step functions: the steps so far. */
  trace?: ToolCallTrace[] | TraceEntry[];
  journal?: JournalEntry[];
  metrics: RunMetrics;
}

export interface ResumeOptions {
  /** The pending calls' results by id: { value }, { error }, { approved: true } or { approved: false, reason? }. */
  results?: Record<string, CallResult>;
  /** The tools again (functions do not serialise): approved calls and new calls run with them. */
  tools?: Record<string, Tool>;
  /** PTC-JSON: the same context data the run had (checked against the state's fingerprint). */
  context?: Record<string, unknown>;
  resident?: ResidentContext;
  timeoutMs?: number;
  toolTimeoutMs?: number;
  maxConcurrency?: number;
  trace?: boolean;
  journal?: boolean;
  suspend?: boolean;
  signal?: AbortSignal;
  /** The key the state was signed with (run's `stateKey`); the next state is signed with it too. */
  stateKey?: StateKey;
  /**
   * A resumed run keeps the `runId` its state holds. Given here, it must be that
   * one (a host may pass the same options to every try); another is refused
   * (`bad_resume`): a run's identity cannot change halfway.
   */
  runId?: string;
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
  /** suspended: a call held for the host when the run stopped there (RunSuspended). */
  outcome: "value" | "failure" | "compensated" | "timeout" | "abort" | "suspended";
  value?: JsonValue;
  error?: string;
}

export interface PromptOptions {
  /** The tools the program may call (functions or descriptors), or just their names. */
  tools?: Record<string, unknown> | string[];
  /** The context the host passes to runs: its keys are listed (with a type summary) for `load`. */
  context?: Record<string, unknown>;
  /** A short form for small context windows (about 1,200 o200k_base tokens without tools; the full one about 5,300). */
  compact?: boolean;
  /**
   * The name of a tool that answers for an op, a family or an error code
   * (MCP's describe_language): the prompt tells the model to ask it for details.
   */
  describeTool?: string;
}

/** What runtime.describeLanguage (MCP's describe_language) answers for. */
export interface DescribeLanguageOptions extends PromptOptions {
  /**
   * An operation ("date_diff"), a family ("dates"), an error code
   * ("tool_failed"), a step kind or function of step functions ("for",
   * "$date_diff"), or a dialect ("ptc-json", "step-functions"). Omitted: the
   * full reference of PTC-JSON.
   */
  topic?: string;
}

export type JsonSchema = JsonObject;

export interface SchemaOptions {
  /**
   * Tool names (or a tools object) the program may call: `call.tool` is then an
   * enum of them. Without it any non-empty tool name is accepted by the schema.
   */
  tools?: string[] | Record<string, unknown>;
}

export type WorkflowPromptOptions = Omit<PromptOptions, "context">;
