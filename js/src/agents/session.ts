// One agent session over a runtime, shared by the MCP server and the AI SDK tool:
// takes a program as a model sends it, runs it with the session's tools and
// context, keeps the memory between programs (the memory contract) and turns a
// failure into the formatted message a model can act on.
import { checkedOptions } from "../run/checks.js";
import { describeThrown } from "../util/describe.js";
import type { ResidentContext } from "../engine/resident.js";
import type { PtcRuntime } from "../runtimes/runtime.js";
import { formatWarnings } from "../runtimes/format.js";
import type {
  CallIdentity,
  CallResult,
  JsonObject,
  JsonValue,
  PendingCall,
  ProgramInput,
  PtcError,
  ResumeOptions,
  RunResult,
  RunSuspended,
  StateKey,
  SuspendedState,
  Tool,
  Warning,
} from "../types/public.js";
import type { WorkflowResult } from "../types/step-functions.js";
import { abortedResult, DEFAULT_TIMEOUT_MS } from "../run/options.js";
import { callInput, withCallWarnings } from "./session-memory.js";
import { now } from "../run/driver.js";
import { requestPath, workflowFrom } from "./workflow-request.js";

/**
 * What decides a call held for approval (a tool with `approval`, or a
 * deferred one) in a session: true runs it, false denies it, or any result
 * resume() takes ({ value }, { error }, { approved, reason }). It gets the
 * call's `{ runId, callId, signal }` as a tool does: the signal is aborted when
 * the model call is cancelled (the AI SDK's abortSignal, an MCP client's
 * cancellation), so that the host stops waiting for its person; the call then
 * ends at once as aborted, whatever the function answers later.
 */
export type ApproveCall = (
  call: PendingCall,
  identity: CallIdentity,
) => boolean | CallResult | Promise<boolean | CallResult>;

export interface SessionOptions {
  /** Tools programs may call: functions or descriptors {description, parameters, execute}. */
  tools?: Record<string, Tool>;
  /** Context data every program may load (a program's own context is merged over it). */
  context?: Record<string, unknown>;
  /** Memory to start from; it then carries over from one program to the next. */
  memory?: Record<string, unknown>;
  /**
   * Keep the keys of a program's object result in memory for the next
   * programs (the memory contract; default true). false: nothing is stored,
   * and memory stays what the host sets (session.memory / the tool's memory).
   */
  remember?: boolean;
  /**
   * Time limit of one program, tool awaits included (default 30000 in a
   * session, against run()'s 1000): a session's tools are real ones (HTTP,
   * MCP servers) whose calls take hundreds of milliseconds each.
   */
  timeoutMs?: number;
  maxHeapBytes?: number;
  maxDepth?: number;
  /** Bytes the session's context may take in the engine, where it is loaded once (default 64 MiB). */
  maxResidentBytes?: number;
  maxToolCalls?: number;
  maxConcurrency?: number;
  toolTimeoutMs?: number;
  /**
   * Decides the calls that need approval (tools with `approval`, deferred
   * tools) while a program runs; the run waits for it, then goes on. Without
   * it such calls are denied, a failure the program can handle. The MCP
   * server asks its client's user (elicitation) when the client can.
   */
  approve?: ApproveCall;
  /**
   * The host's key for suspended states. With it (and no `approve`), a call
   * held for approval is not decided in the process: the AI SDK tools ask
   * through the SDK's own approval flow, and the run's state, signed with this
   * key, travels in the messages to the next request (ai-sdk-approvals.ts).
   */
  stateKey?: StateKey;
  /**
   * Called each time a program stored keys in memory, with the memory then (a
   * copy) and the keys it stored: where a host persists the session's memory
   * (the CLI's `mcp --memory-out` writes it to a file).
   */
  onMemory?: (memory: JsonObject, stored: string[]) => void;
}

export type SessionOutcome =
  | { ok: true; result: JsonValue; stored: string[]; warnings?: Warning[] }
  | { ok: false; error: PtcError; message: string; warnings?: Warning[] };

/** A failure's message for the model: the formatted error, then the run's warnings (often what led to it). */
function failureMessage(runtime: PtcRuntime, error: PtcError, warnings: Warning[] | undefined, input?: ProgramInput) {
  const shown = formatWarnings(warnings);
  return runtime.formatError(error, input) + (shown ? "\n" + shown : "");
}

const withWarnings = (warnings: Warning[] | undefined) => (warnings?.length ? { warnings } : {});
const warningsOf = (r: { warnings?: Warning[] } | { status: "suspended" }) =>
  "warnings" in r ? r.warnings : undefined;

/**
 * A tool input that holds no program (neither "program" nor "op"): named, with
 * the keys it has, instead of run as an object whose keys read no input.
 */
export function missingProgram(input: unknown): SessionOutcome | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  if ("program" in input || "op" in input) return undefined;
  const keys = Object.keys(input);
  const error: PtcError = {
    type: "parse_error",
    code: "missing_program",
    message:
      'The input must be {"program": {"op": ...}}: it has no key "program"' +
      (keys.length ? ` (found: ${keys.join(", ")}). Put the program's root operation under "program"` : ""),
  };
  return { ok: false, error, message: error.message };
}

/**
 * A program as a model may send it: the root expression (`{"op": ...}`), the
 * envelope (`{"program": ...}`), or either as JSON text.
 */
export function programFrom(input: unknown): ProgramInput {
  let value = input;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return value as string; // the engine reports where the text stops being JSON
    }
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value) && "program" in value)
    return value as ProgramInput;
  return { program: value };
}

const SESSION_OPTIONS = [
  "tools",
  "context",
  "memory",
  "remember",
  "timeoutMs",
  "maxHeapBytes",
  "maxDepth",
  "maxResidentBytes",
  "maxToolCalls",
  "maxConcurrency",
  "toolTimeoutMs",
  "approve",
  "stateKey",
  "onMemory",
] as const;

const NO_APPROVER = "this session has no one to approve it (its host gave no approve function)";

// What the session's approve function says of a held call, as resume() takes it.
// The function gets a copy: one that edits the call it is shown (redacting a
// card number) changes neither what the tool gets nor which call it decides.
async function decide(
  approve: ApproveCall | undefined,
  call: PendingCall,
  identity: CallIdentity,
): Promise<CallResult> {
  if (!approve) return { approved: false, reason: NO_APPROVER };
  try {
    const said = await approve(JSON.parse(JSON.stringify(call)) as PendingCall, identity);
    if (said === true) return { approved: true };
    if (said === false) return { approved: false };
    return said;
  } catch (e) {
    return { approved: false, reason: `asking for approval failed (${describeThrown(e)})` };
  }
}

/** A session's default time limit of one program, tool awaits included (see SessionOptions.timeoutMs). */
export const SESSION_TIMEOUT_MS = 30_000;

/** The memory of a session, for a host that keeps it across requests (serverless) or resets it. */
export interface SessionMemory {
  /** The memory now (a copy). */
  get(): JsonObject;
  /** Replaces it: the next program reads these keys. */
  set(memory: Record<string, unknown>): void;
  /** Empties it. */
  clear(): void;
}

/**
 * The clock of one model call: its program may run many times (once, then once
 * more after each round of approvals), and all of those runs share one
 * timeoutMs. The clock stops while the approve function decides: a person may
 * take longer than a program may run.
 */
class CallClock {
  private deadline: number;
  rounds = 0;
  constructor(readonly timeoutMs: number) {
    this.deadline = now() + timeoutMs;
  }
  left(): number {
    return this.deadline - now();
  }
  async decide(approve: ApproveCall | undefined, call: PendingCall, identity: CallIdentity): Promise<CallResult> {
    const asked = now();
    try {
      return await decide(approve, call, identity);
    } finally {
      this.deadline += now() - asked;
    }
  }
  /** A leg's timeout, worded for the whole call (the leg itself had only what was left). */
  timeout(error?: PtcError): PtcError {
    return {
      type: "timeout",
      code: "timeout",
      message:
        `Execution exceeded the time limit of ${this.timeoutMs} ms (timeoutMs) of this call, which counts ` +
        `every run of the program: it ran again after each of ${this.rounds} round(s) of approvals`,
      ...(error?.path !== undefined ? { path: error.path } : {}),
    };
  }
}

/**
 * What `ask` gives, or undefined when `signal` aborts first. `ask` gets a
 * signal of its own, aborted (with the same reason) when `signal` is, or when
 * ask settles no longer matters.
 */
async function untilAborted<T>(
  signal: AbortSignal | undefined,
  ask: (signal: AbortSignal) => Promise<T>,
): Promise<T | undefined> {
  const own = new AbortController();
  let onAbort = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => {
      resolve(undefined);
      try {
        own.abort(signal?.reason);
      } catch {
        // (Node reports an exception thrown by an abort listener itself)
      }
    };
  });
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([ask(own.signal), aborted]);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

// A macrotask between legs: a run with many approvals, each decided at once,
// must let the host's timers and I/O run (promise callbacks alone would not).
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs a program (or step-function file) to its end: each time it stops at
 * held calls, the session's approve function decides them and it resumes, with
 * what is left of the call's one timeoutMs.
 */
async function settled<R extends RunResult | WorkflowResult>(
  runtime: PtcRuntime,
  first: R,
  approve: ApproveCall | undefined,
  options: ResumeOptions,
  clock: CallClock,
): Promise<R> {
  let r: RunResult | WorkflowResult = first;
  while (r.status === "suspended") {
    const results: Record<string, CallResult> = {};
    const { runId } = r.state;
    for (const call of r.pending) {
      // Decided while the model call may be cancelled: an abort ends the call at once, the approver told.
      const decided = await untilAborted(options.signal, (signal) =>
        clock.decide(approve, call, { runId, callId: call.id, signal }),
      );
      if (decided === undefined) return abortedResult(options.signal as AbortSignal) as R;
      results[call.id] = decided;
    }
    await nextTask();
    clock.rounds++;
    const timeoutMs = clock.left();
    if (timeoutMs <= 0) return { ok: false, error: clock.timeout() } as R;
    r = await runtime.resume(r.state, { ...options, results, timeoutMs });
    if (!r.ok && r.error.type === "timeout") return { ...r, error: clock.timeout(r.error) } as R;
  }
  return r as R;
}

export class ProgramSession {
  memory: JsonObject;
  readonly options: SessionOptions;

  /** Throws TypeError for options of the wrong type, as run() would on the first program. */
  constructor(
    readonly runtime: PtcRuntime,
    options: SessionOptions = {},
  ) {
    this.options = checkedOptions(options, SESSION_OPTIONS);
    this.memory = { ...(this.options.memory ?? {}) } as JsonObject;
    if (this.options.onMemory !== undefined && typeof this.options.onMemory !== "function")
      throw new TypeError("ptc-wasm: options.onMemory must be a function");
  }

  /** The session's memory, to read, set or clear between programs. */
  readonly memoryAccess: SessionMemory = {
    get: () => structuredClone(this.memory),
    set: (memory) => {
      if (memory === null || typeof memory !== "object" || Array.isArray(memory))
        throw new TypeError("ptc-wasm: memory must be an object");
      this.memory = structuredClone(memory) as JsonObject;
    },
    clear: () => {
      this.memory = {};
    },
  };

  // The session's context, loaded into the engine at the first program and
  // then read there by every program (runtime.load): it crosses once. Where it
  // cannot be loaded (past maxResidentBytes), it is sent with each run instead.
  private resident?: Promise<ResidentContext | undefined>;

  private residentContext(): Promise<ResidentContext | undefined> {
    const context = this.options.context;
    if (!context || Object.keys(context).length === 0) return Promise.resolve(undefined);
    this.resident ??= this.runtime
      .load(context, { maxResidentBytes: this.options.maxResidentBytes })
      .then((r) => (r.ok ? r.resident : undefined));
    return this.resident;
  }

  /** Releases the session's context from the engine. */
  close(): void {
    void this.resident?.then((r) => r?.close());
    this.resident = Promise.resolve(undefined);
  }

  /** The limits every run of the session gets. */
  get limits() {
    const { maxHeapBytes, maxDepth, maxToolCalls, maxConcurrency, toolTimeoutMs } = this.options;
    const timeoutMs = this.options.timeoutMs ?? SESSION_TIMEOUT_MS;
    return { timeoutMs, maxHeapBytes, maxDepth, maxToolCalls, maxConcurrency, toolTimeoutMs };
  }

  /**
   * Runs a program; `tools`, when given, are this run's tools instead of the
   * session's (a tool caller's, per call); `signal` ends it (the MCP client's
   * or the AI SDK's cancellation of this call).
   */
  async run(
    program: unknown,
    context?: Record<string, unknown>,
    tools = this.options.tools ?? {},
    signal?: AbortSignal,
  ): Promise<SessionOutcome> {
    const call = callInput(programFrom(program), context, this.memory);
    const input = call.input;
    const { runContext, resident } = await this.contextOf(call.context);
    const clock = new CallClock(this.limits.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const first = await this.runtime.run(input, {
      context: runContext,
      resident,
      memory: call.memory,
      tools,
      ...this.limits,
      ...(signal ? { signal } : {}),
    });
    const { maxConcurrency, toolTimeoutMs } = this.limits;
    const resumeOptions = { tools, context: runContext, resident, maxConcurrency, toolTimeoutMs, signal };
    const r = await settled(this.runtime, first, this.options.approve, resumeOptions, clock);
    return this.outcome(withCallWarnings(r, call.warnings), input);
  }

  /**
   * Runs a program that stops at its calls held for approval instead of having
   * them decided: `{ held }` is the suspended run (its state signed with the
   * session's stateKey), for a host that asks a person between two requests.
   * `signal` ends the run and aborts its tools' signals.
   */
  async runHeld(
    program: unknown,
    tools = this.options.tools ?? {},
    signal?: AbortSignal,
  ): Promise<SessionOutcome | { held: RunSuspended }> {
    const call = callInput(programFrom(program), undefined, this.memory);
    const input = call.input;
    const { runContext, resident } = await this.contextOf(call.context);
    const r = await this.runtime.run(input, {
      context: runContext,
      resident,
      memory: call.memory,
      tools,
      stateKey: this.options.stateKey,
      ...this.limits,
      ...(signal ? { signal } : {}),
    });
    return r.status === "suspended" ? { held: r } : this.outcome(withCallWarnings(r, call.warnings), input);
  }

  /**
   * Resumes a state runHeld (or runWorkflowHeld) gave, maybe in another
   * process, every pending call decided by `decision`. A state changed since
   * it was signed is refused (bad_state). A run that goes on to further calls
   * held for approval stops there again: `{ held }`, a new state signed with
   * the stateKey, resumed the same way. `program`: the held call's program,
   * whose envelope's context the run was given. `signal` ends the resumed run
   * and aborts its tools' signals.
   */
  async resumeHeld(
    state: SuspendedState,
    decision: CallResult,
    tools = this.options.tools ?? {},
    program?: unknown,
    signal?: AbortSignal,
  ): Promise<SessionOutcome | { held: RunSuspended }> {
    // A step-function file has no context or memory; a program resumes with the context it ran with.
    const workflow = state?.kind === "workflow";
    // The context given with the held call (its envelope's), as runHeld ran it: a resume must have the same.
    const given =
      program === undefined || workflow ? undefined : callInput(programFrom(program), undefined, {}).context;
    const { runContext, resident } = workflow ? {} : await this.contextOf(given);
    const pending = Array.isArray(state?.pending) ? state.pending : [];
    const results = Object.fromEntries(pending.map((p) => [p.id, decision]));
    const { timeoutMs, maxConcurrency, toolTimeoutMs } = this.limits;
    const r = await this.runtime.resume(state, {
      results,
      tools,
      ...(workflow ? {} : { context: runContext, resident }),
      stateKey: this.options.stateKey,
      timeoutMs,
      maxConcurrency,
      toolTimeoutMs,
      ...(signal ? { signal } : {}),
    });
    if (r.status === "suspended") return { held: r };
    return workflow ? workflowOutcome(this.runtime, r as WorkflowResult) : this.outcome(r as RunResult);
  }

  private async contextOf(context?: Record<string, unknown>) {
    const resident = await this.residentContext();
    const runContext = resident ? (context ?? {}) : { ...(this.options.context ?? {}), ...(context ?? {}) };
    return { runContext, resident };
  }

  /** Tells the host's onMemory of keys a program stored; a host's function that throws fails no program. */
  private memoryStored(stored: string[]): void {
    if (!stored.length || !this.options.onMemory) return;
    try {
      this.options.onMemory(structuredClone(this.memory), stored);
    } catch {
      // the host's persistence is its own: its failure is not the model's
    }
  }

  /** A finished run as the model reads it; what it stored is kept in the session's memory. */
  private outcome(
    r: RunResult | { ok: false; error: PtcError; warnings?: Warning[] },
    input?: ProgramInput,
  ): SessionOutcome {
    if (!r.ok)
      return {
        ok: false,
        error: r.error,
        message: failureMessage(this.runtime, r.error, warningsOf(r), input),
        ...withWarnings(warningsOf(r)),
      };
    if (this.options.remember === false) return { ok: true, result: r.result, stored: [], ...withWarnings(r.warnings) };
    // Programs of one session may be in flight at once, each started from the
    // memory of its time: merge what each stored, so none loses another's keys.
    this.memory = { ...this.memory, ...r.memoryDelta };
    const stored = Object.keys(r.memoryDelta);
    this.memoryStored(stored);
    return { ok: true, result: r.result, stored, ...withWarnings(r.warnings) };
  }
}

/** A step-function file's end as the model reads it (no memory: workflows keep none). */
function workflowOutcome(runtime: PtcRuntime, r: WorkflowResult, stepsAt?: number): SessionOutcome {
  if (!r.ok) {
    // The pointer in the request's terms when its entry was sent as "steps".
    const path = requestPath(r.error.path, stepsAt);
    const error = path === r.error.path ? r.error : { ...r.error, path };
    return {
      ok: false,
      error,
      message: failureMessage(runtime, error, warningsOf(r)),
      ...withWarnings(warningsOf(r)),
    };
  }
  return { ok: true, result: r.result, stored: [], ...withWarnings(r.warnings) };
}

/**
 * Runs a step-function file as a model sends it, with a session's tools and
 * limits (no memory: workflows keep none); `signal` ends it (the MCP client's
 * or the AI SDK's cancellation of this call) and aborts its tools' signals.
 * `hold`: calls held for approval are not decided in the process: the run
 * stops there, `{ held }` with its state signed with the session's stateKey
 * (resumed by session.resumeHeld), as runHeld does for a program.
 */
export async function runWorkflowFor(
  session: ProgramSession,
  given: unknown,
  signal?: AbortSignal,
): Promise<SessionOutcome>;
export async function runWorkflowFor(
  session: ProgramSession,
  given: unknown,
  signal: AbortSignal | undefined,
  hold: true,
): Promise<SessionOutcome | { held: RunSuspended }>;
export async function runWorkflowFor(
  session: ProgramSession,
  given: unknown,
  signal?: AbortSignal,
  hold = false,
): Promise<SessionOutcome | { held: RunSuspended }> {
  const { timeoutMs, maxHeapBytes, maxToolCalls, maxConcurrency, toolTimeoutMs } = session.limits;
  const tools = session.options.tools ?? {};
  const { source, input, entry, stepsAt, error: requestError } = workflowFrom(given);
  if (requestError) return { ok: false, error: requestError, message: session.runtime.formatError(requestError) };
  if (typeof input !== "object" || Array.isArray(input)) {
    const error: PtcError = {
      type: "validation_error",
      code: "bad_input",
      message: 'The input must be an object holding the entry function\'s parameters, e.g. {"ids": ["a"]}',
    };
    return { ok: false, error, message: session.runtime.formatError(error) };
  }
  const limits = { timeoutMs, maxHeapBytes, maxToolCalls, maxConcurrency, toolTimeoutMs };
  const clock = new CallClock(timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const first = await session.runtime.runWorkflow(source, {
    input,
    entry,
    tools,
    ...limits,
    ...(hold ? { stateKey: session.options.stateKey } : {}),
    ...(signal ? { signal } : {}),
  });
  if (hold && first.status === "suspended") return { held: first };
  const resumeOptions = { tools, maxConcurrency, toolTimeoutMs, signal };
  return workflowOutcome(
    session.runtime,
    await settled(session.runtime, first, session.options.approve, resumeOptions, clock),
    stepsAt,
  );
}

/** The note a model gets when its program stored keys in memory. */
export function storedNote(stored: string[]): string {
  return `Stored in memory for your next programs (read with {"op": "var", "name": ...}): ${stored.join(", ")}`;
}
