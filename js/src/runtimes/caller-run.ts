// One run as the caller's side owns it, in either mode: its deadline, its
// observer (trace, spans), its gate (journal, replay, holds), its end (calls
// still out are abandoned) and the time its payload took. The in-process
// Runtime hands it to the driver directly; the WorkerRuntime answers the
// worker's payload and call messages with it. Either way a run starts, calls
// tools and ends the same.
import {
  now,
  type DoneStatus,
  type Payload,
  type Projections,
  type RunEntry,
  type Timings,
  type ToolCall,
  type ToolOutcome,
} from "../run/driver.js";
import type { Dialect } from "../run/dialects.js";
import { DEFAULT_MAX_HEAP_BYTES, DEFAULT_TIMEOUT_MS } from "../run/options.js";
import { RunObserver } from "../run/telemetry.js";
import type { ResidentContext, ResidentSpec } from "../engine/resident.js";
import type { CallIds, ResumeSeed } from "../gate/journal.js";
import { newRunId } from "../gate/digest.js";
import { effectOf } from "../gate/effects.js";
import { finishedRun, gatedRun, type Gated } from "../gate/suspension.js";
import { awaitTool, mapOutcome, RunEnd } from "../gate/tools.js";
import type { PtcError, RunOptions, UnconfirmedWrite } from "../types/public.js";

/** A run that failed on the caller's side (before it started, aborted, its worker lost): a result of either dialect. */
export type Failed = { ok: false; error: PtcError };

/** What a run of either dialect is started with, once checked. */
export type CallerOptions = Pick<
  RunOptions,
  "tools" | "timeoutMs" | "toolTimeoutMs" | "signal" | "trace" | "journal" | "maxHeapBytes" | "runId"
>;

export class CallerRun<O extends CallerOptions = CallerOptions, R extends object = object> {
  readonly entry: RunEntry;
  /** When the run started (now() time): reading a state or a recording counts toward the limit. */
  readonly started: number;
  readonly timeoutMs: number;
  /** When the run must be done: its time limit, or the moment it was aborted (worker mode). */
  deadline: number;
  /** Told when the run ended: calls still out are abandoned, a write waiting its turn does not start. */
  readonly ended = new RunEnd();
  private readonly gated?: Gated;
  private readonly observer?: RunObserver;
  private payloadMs = 0;
  /** Names the calls of an ungated run: the host's runId, else a new one (a gated run's ids come from its gate). */
  private runId?: string;
  /** Writes abandoned while their tool still ran: what they did may have landed. */
  private readonly unconfirmed: UnconfirmedWrite[] = [];

  constructor(
    private readonly dialect: Dialect<O, R>,
    text: string,
    private readonly options: O,
    seed?: ResumeSeed,
    private readonly residentContext?: ResidentContext,
  ) {
    this.entry = { kind: dialect.kind, text, engineOptions: dialect.engineOptions(options) };
    const at = now();
    this.gated = gatedRun(dialect.kind, text, options as RunOptions, seed, at);
    this.started = this.gated ? now() - this.gated.spentMs : at;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.deadline = this.started + this.timeoutMs;
    const maxKept = options.maxHeapBytes ?? DEFAULT_MAX_HEAP_BYTES;
    this.observer = RunObserver.start(dialect.kind, options.trace === true, maxKept);
    if (this.gated)
      this.gated.gate.bounds = { deadline: this.deadline, timeoutMs: this.timeoutMs, signal: options.signal };
  }

  /** The resident context the run loads keys from, besides its payload. */
  get resident(): ResidentSpec | undefined {
    return this.residentContext?.spec;
  }

  get signal(): AbortSignal | undefined {
    return this.options.signal;
  }

  /**
   * The run's data once the engine said which context keys it loads.
   * detached: row blocks copied out of the buffer the next payload reuses
   * (worker mode posts them; a posted view would carry the whole buffer).
   */
  payload(loads: string[], fields?: Projections, detached = false): Payload {
    if (this.gated) this.gated.base.loads = loads;
    const t = now();
    let payload: Payload;
    try {
      payload = this.dialect.payload(this.options, loads, fields, this.residentContext);
      if (detached && "rows" in payload && payload.rows) payload.rows = payload.rows.slice();
    } catch (e) {
      this.payloadMs += now() - t;
      throw e;
    }
    // One reading for both: the payload's time, and the time spent before the engine starts the run.
    const readAt = now();
    this.payloadMs += readAt - t;
    if (!detached && "context" in payload) payload.readAt = readAt;
    return payload;
  }

  /** Runs one tool call (through the gate, when the run has one) until its outcome. */
  tool(call: ToolCall): Promise<ToolOutcome> {
    const { tools = {}, toolTimeoutMs, signal } = this.options;
    const write = effectOf(tools[call.tool]) === "write";
    // A gated call gets its gate's identity; an ungated one, ids within this run.
    const live = (ids?: CallIds) => {
      const identity = ids ?? { runId: (this.runId ??= this.options.runId ?? newRunId()), callId: `call-${call.id}` };
      let abandoned = false;
      const onAbandoned = write
        ? () => {
            abandoned = true;
            this.unconfirmed.push({ tool: call.tool, path: call.path, ...identity });
          }
        : undefined;
      const bounds = { toolTimeoutMs, runEnded: this.ended, identity, onAbandoned };
      const outcome = awaitTool(call.tool, tools[call.tool], call.args, this.deadline, this.timeoutMs, signal, bounds);
      // A write past its toolTimeoutMs is not a failure the program may catch and retry: it may have landed.
      return write
        ? mapOutcome(outcome, (o) =>
            abandoned && o.kind === "callTimeout" ? unconfirmedEnd(call, identity, o.toolTimeoutMs) : o,
          )
        : outcome;
    };
    const outcome = this.gated ? this.gated.gate.call(call, live) : live();
    return this.observer ? this.observer.call(call, outcome) : outcome;
  }

  /**
   * The result of the engine's final status (done, or suspended at held calls;
   * text, or a done status already read), to settle the run with.
   */
  resultOf(status: string | DoneStatus, toolMs: number): R {
    const timings = { toolMs, payloadMs: this.payloadMs };
    const convert = (status: DoneStatus, started: number, timings: Timings) =>
      this.dialect.toResult(status, started, timings);
    // R (RunResult, WorkflowResult) has the suspended result of its kind.
    return finishedRun(status, convert, this.started, timings, this.gated, this.options.journal) as R;
  }

  /**
   * Ends the run with its result (resultOf, or the caller's side's: aborted,
   * worker lost): once, as it ends the run's span.
   */
  settle(result: R): R {
    this.ended.end();
    const error = (result as { error?: PtcError }).error;
    if (error && this.unconfirmed.length) withUnconfirmed(error, this.unconfirmed);
    return this.observer ? (this.observer.finish(result as R & { ok: boolean }) as R) : result;
  }
}

/** The run's end when a write overstayed toolTimeoutMs: nothing may catch it as a failure and try again. */
function unconfirmedEnd(call: ToolCall, ids: CallIds, toolTimeoutMs: number): ToolOutcome {
  return {
    kind: "end",
    code: "write_unconfirmed",
    message:
      `The write '${call.tool}' at ${call.path} gave no answer within ${toolTimeoutMs} ms (toolTimeoutMs) and was ` +
      `abandoned: it may have completed. Check whether it did (runId ${ids.runId}, callId ${ids.callId}) ` +
      `before making it again`,
    path: call.path,
  };
}

/** Names, in a failed run's error, the writes abandoned while they ran (`unconfirmed`). */
function withUnconfirmed(error: PtcError, writes: UnconfirmedWrite[]): void {
  error.unconfirmed = writes.map((w) => ({ ...w }));
  if (error.code === "write_unconfirmed" && writes.length === 1) return; // its message says it
  const named = writes.map((w) => `'${w.tool}' at ${w.path} (runId ${w.runId}, callId ${w.callId})`).join(", ");
  error.message +=
    ` The write${writes.length === 1 ? "" : "s"} ${named} ${writes.length === 1 ? "was" : "were"} still running ` +
    `when the call was abandoned: ${writes.length === 1 ? "it" : "they"} may have completed; check before making ` +
    `${writes.length === 1 ? "it" : "them"} again.`;
}
