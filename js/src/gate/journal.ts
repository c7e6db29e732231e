// The journal of a run's tool calls, and what a run may do with one: record it,
// answer calls from a recording (replay), hold a call for the host (suspend,
// approvals, deferred tools) and keep write tools from overlapping (effects).
//
// Evaluation in both dialects is deterministic but for tool results. So a run
// given the answers its calls had takes the same path again: a suspended run
// resumes by running from the start with its journal (suspension.ts), every
// call it made before is answered from the journal instead of running again,
// and the first new call runs for real. The gate sits on the caller's side,
// where the tools are, in both modes; a run that uses none of this has no gate
// and pays nothing.
import { toolEnded, withinRun, type RunBounds } from "./tools.js";
import { declarations } from "../run/descriptors.js";
import { effectOf } from "./effects.js";
import { callTimeoutMessage, type ToolCall, type ToolOutcome } from "../run/driver.js";
import { DEFAULT_MAX_HEAP_BYTES } from "../run/options.js";
import { hash53, newRunId } from "./digest.js";
import { cutText } from "../util/shown-text.js";
import type {
  CallIdentity,
  CallResult,
  JournalEntry,
  JsonObject,
  JsonValue,
  PendingCall,
  PendingReason,
  Tool,
} from "../types/public.js";

/** A call's ids (CallIdentity without the signal, which awaitTool makes for each call). */
export type CallIds = Omit<CallIdentity, "signal">;

/** The gate options of run() and runWorkflow(). */
export interface GateOptions {
  tools?: Record<string, Tool>;
  /** Also bounds the JSON text of the args and results the gate keeps. */
  maxHeapBytes?: number;
  /** Hold every call that is not answered from the journal (the host runs the tools). */
  suspend?: boolean;
  /** Return the journal with the result. */
  journal?: boolean;
  /** A recording to answer calls from; a call not in it ends the run (replay_missing). */
  replay?: JournalEntry[];
  /** The host's id for the run (checked by runIdRefusal); default a new one. A resumed run keeps its state's. */
  runId?: string;
}

/** What a resumed run starts with (suspension.ts): the journal so far and the host's decisions. */
export interface ResumeSeed {
  journal: JournalEntry[];
  /** Decisions for the pending calls, by pending id. */
  decisions: Map<string, CallResult>;
  /** The run's id, from its state. */
  runId: string;
  /** Time spent reading the state: it counts toward timeoutMs. */
  spentMs: number;
}

function needsGate(tools: Record<string, Tool>): boolean {
  for (const tool of Object.values(tools)) {
    const d = declarations(tool);
    if (d && (d.effect === "write" || d.defer === true || (d.approval !== undefined && d.approval !== false)))
      return true;
  }
  return false;
}

/** JSON text with object keys sorted: two args objects that are the same data give the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`).join(",")}}`;
}

/** Calls are matched by tool and args: the same question gets the recorded answer. */
export const callKey = (tool: string, args: unknown) => `${tool}\u0000${canonicalJson(args)}`;

function argsText(args: JsonObject): string {
  const text = JSON.stringify(args);
  return cutText(text, 200);
}

// A value left undefined ({ value: undefined }, in a recording or a result
// given to resume) is null, as a tool returning undefined gives null.
const valueText = (value: unknown) => JSON.stringify(value) ?? "null";

const entryOutcome = (entry: JournalEntry): ToolOutcome =>
  "value" in entry
    ? { kind: "value", text: valueText(entry.value), from: "recording" }
    : { kind: "failure", message: entry.error, from: "recording" };

export class ToolGate {
  /** Every answered call of this run (replayed ones included), in the order the answers came. */
  readonly journal: JournalEntry[] = [];
  /** Calls held for the host. */
  readonly pending: PendingCall[] = [];
  /** Names the run in each call's identity (CallIdentity). */
  readonly runId: string;
  private readonly recorded = new Map<string, JournalEntry[]>();
  private readonly decisions: Map<string, CallResult>;
  private readonly replaying: boolean;
  // Calls so far by tool, path and args: identical calls are told apart by their order.
  private readonly seen = new Map<string, number>();
  // JSON text of the args and results kept (journal, pending), bounded by maxHeapBytes.
  private keptBytes = 0;
  private readonly maxKeptBytes: number;
  private writes: Promise<void> = Promise.resolve();
  /** The run's deadline and signal, which bound an approval check (set when the run starts). */
  bounds: RunBounds = { deadline: Infinity, timeoutMs: 0 };

  private constructor(
    private readonly tools: Record<string, Tool>,
    private readonly suspendAll: boolean,
    answers: JournalEntry[],
    replaying: boolean,
    maxKeptBytes: number,
    runId: string,
    seed?: ResumeSeed,
  ) {
    this.replaying = replaying;
    this.maxKeptBytes = maxKeptBytes;
    this.decisions = seed?.decisions ?? new Map();
    this.runId = runId;
    for (const entry of answers) {
      const key = callKey(entry.tool, entry.args);
      const list = this.recorded.get(key);
      if (list) list.push(entry);
      else this.recorded.set(key, [entry]);
    }
  }

  /** A gate for a run, or undefined when the run needs none (then it pays nothing). */
  static create(options: GateOptions, seed?: ResumeSeed): ToolGate | undefined {
    const replay = options.replay !== undefined;
    if (!seed && !replay && !options.suspend && !options.journal && !(options.tools && needsGate(options.tools)))
      return undefined;
    const tools = options.tools ?? {};
    const answers = seed?.journal ?? options.replay ?? [];
    const maxKept = options.maxHeapBytes ?? DEFAULT_MAX_HEAP_BYTES;
    const runId = seed?.runId ?? options.runId ?? newRunId();
    return new ToolGate(tools, options.suspend === true, answers, replay, maxKept, runId, seed);
  }

  /**
   * The outcome of one call: from the journal, the host's decision, held, or
   * run (`live`, given the call's identity). What is kept of it is what the
   * program sent: a copy taken before anything runs, so a tool that changes its
   * args in place cannot make the journal miss the call on resume.
   */
  async call(call: ToolCall, live: (identity: CallIds) => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const sentText = JSON.stringify(call.args);
    const sent = JSON.parse(sentText) as JsonObject;
    const canonical = canonicalJson(sent);
    const key = `${call.tool}\u0000${canonical}`;
    const callId = this.callId(call, canonical);
    const over = this.keep(call, sentText.length);
    if (over) return over;
    const asked = { tool: call.tool, path: call.path, args: sent };
    const recorded = this.recorded.get(key)?.shift();
    if (recorded) return this.record(asked, entryOutcome(recorded));
    if (this.replaying)
      return {
        kind: "end",
        code: "replay_missing",
        path: call.path,
        message:
          `Tool '${call.tool}' was called at ${call.path} with args ${argsText(call.args)}, ` +
          `which the recording being replayed does not hold (${this.recordedCount(call.tool)}): ` +
          `the program asks something the recorded run did not`,
      };
    const decision = this.decisions.get(callId);
    this.decisions.delete(callId);
    if (decision && !("approved" in decision && decision.approved))
      return this.record(asked, decisionOutcome(decision));
    if (!decision) {
      const held = await this.holdReason(call.tool, sentText, callId);
      if ("outcome" in held) return held.outcome;
      const reason = held.value;
      if (reason) {
        this.pending.push({ id: callId, ...asked, reason });
        return { kind: "hold" };
      }
    }
    const identity: CallIds = { runId: this.runId, callId };
    const run = () => live(identity);
    const outcome = effectOf(this.tools[call.tool]) === "write" ? this.oneWriteAtATime(run) : run();
    return this.record(asked, await outcome);
  }

  // The same on every run of the same program with the same answers: the
  // call's tool, path, args, and how many identical calls came before it.
  private callId(call: ToolCall, canonical: string): string {
    const what = `${call.tool}\u0000${call.path}\u0000${canonical}`;
    const before = this.seen.get(what) ?? 0;
    this.seen.set(what, before + 1);
    return `call-${hash53(`${what}\u0000${before}`)}`;
  }

  // Counts JSON text the gate keeps; past maxHeapBytes the run ends (memory_exceeded).
  private keep(call: { tool: string; path: string }, bytes: number): ToolOutcome | undefined {
    this.keptBytes += bytes;
    if (this.keptBytes <= this.maxKeptBytes) return undefined;
    return {
      kind: "end",
      code: "memory_exceeded",
      path: call.path,
      message:
        `The args and results of this run's tool calls, kept to resume or replay it, passed maxHeapBytes ` +
        `(${this.maxKeptBytes} bytes of JSON text) at the call of '${call.tool}': ` +
        `pass smaller args, return smaller results, or raise maxHeapBytes`,
    };
  }

  private recordedCount(tool: string): string {
    let calls = 0;
    for (const list of this.recorded.values()) for (const entry of list) if (entry.tool === tool) calls++;
    return calls === 0
      ? `no call of '${tool}' is left in it`
      : `it holds ${calls} other unanswered call${calls === 1 ? "" : "s"} of '${tool}'`;
  }

  // Why the call is held, if it is. An approval function is the host's code:
  // it may throw, or never answer (the run's deadline and signal still hold).
  // Only `false` means no approval is needed: any other answer (1, "yes", a
  // reason, undefined) asks, so a check that answers oddly fails closed. The
  // check gets its own copy of the args, and the call's identity as a tool
  // does: its signal is aborted when the run stops waiting (an abort, the
  // deadline), so a check that asks a person can stop asking.
  private holdReason(
    tool: string,
    argsText: string,
    callId: string,
  ): Promise<{ value: PendingReason | undefined } | { outcome: ToolOutcome }> {
    const d = declarations(this.tools[tool]);
    const approval = d?.approval;
    const otherwise = this.suspendAll ? "suspend" : undefined;
    if (d?.defer === true) return Promise.resolve({ value: "deferred" });
    if (approval === true) return Promise.resolve({ value: "approval" });
    if (typeof approval !== "function") return Promise.resolve({ value: otherwise });
    const controller = new AbortController();
    const identity = { runId: this.runId, callId, signal: controller.signal };
    const asked = new Promise<unknown>((resolve) => resolve(approval(JSON.parse(argsText) as JsonObject, identity)));
    return withinRun(asked, this.bounds).then((r) => {
      if (!("outcome" in r)) return { value: r.value === false ? otherwise : "approval" };
      if (r.outcome.kind === "abort" || r.outcome.kind === "timeout") abandonCheck(controller, r.outcome, this.bounds);
      return r;
    });
  }

  // Write tools run one at a time, in the order their calls came; reads overlap
  // freely. A turn ends when the tool really ends: a write abandoned at
  // toolTimeoutMs (its call failed, the run went on) keeps the next one waiting,
  // within the run's deadline and signal.
  private oneWriteAtATime(live: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const previous = this.writes;
    let done!: () => void;
    this.writes = new Promise<void>((resolve) => (done = resolve));
    return withinRun(previous, this.bounds).then((waited) => {
      if ("outcome" in waited) return (done(), waited.outcome);
      const outcome = live();
      void toolEnded(outcome).then(done);
      return outcome;
    });
  }

  private record(asked: { tool: string; path: string; args: JsonObject }, outcome: ToolOutcome): ToolOutcome {
    if (outcome.kind === "value") {
      const over = this.keep(asked, outcome.text.length);
      if (over) return over;
      this.journal.push({ ...asked, value: JSON.parse(outcome.text) as JsonValue });
    } else if (outcome.kind === "failure") this.journal.push({ ...asked, error: outcome.message });
    else if (outcome.kind === "callTimeout")
      this.journal.push({ ...asked, error: callTimeoutMessage(asked, outcome.toolTimeoutMs) });
    return outcome;
  }
}

// The check's signal, aborted when the run stopped waiting for it: with the
// run's own reason for an abort, a TimeoutError for the deadline. A listener
// of the host's that throws changes nothing.
function abandonCheck(controller: AbortController, outcome: ToolOutcome, bounds: RunBounds): void {
  let reason: unknown;
  try {
    reason = outcome.kind === "abort" ? bounds.signal?.reason : undefined;
  } catch {
    reason = undefined; // an object posing as an AbortSignal
  }
  if (reason === undefined) {
    const message = `ptc-wasm: the run stopped waiting for the approval check (${outcome.kind})`;
    const name = outcome.kind === "abort" ? "AbortError" : "TimeoutError";
    reason =
      typeof DOMException === "function"
        ? new DOMException(message, name)
        : Object.assign(new Error(message), { name });
  }
  try {
    controller.abort(reason);
  } catch {
    // (Node reports an exception thrown by an abort listener itself)
  }
}

function decisionOutcome(decision: CallResult): ToolOutcome {
  if ("value" in decision) return { kind: "value", text: valueText(decision.value), from: "host" };
  if ("error" in decision) return { kind: "failure", message: decision.error, from: "host" };
  const reason = "reason" in decision && decision.reason ? `: ${decision.reason}` : "";
  return { kind: "failure", message: `the call was denied${reason}`, from: "host" };
}
