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
import { withinRun, type RunBounds } from "./tools.js";
import { declarations } from "../run/descriptors.js";
import { effectOf } from "./effects.js";
import { callTimeoutMessage, type ToolCall, type ToolOutcome } from "../run/driver.js";
import type {
  CallResult,
  JournalEntry,
  JsonObject,
  JsonValue,
  PendingCall,
  PendingReason,
  Tool,
} from "../types/public.js";

/** The gate options of run() and runWorkflow(). */
export interface GateOptions {
  tools?: Record<string, Tool>;
  /** Hold every call that is not answered from the journal (the host runs the tools). */
  suspend?: boolean;
  /** Return the journal with the result. */
  journal?: boolean;
  /** A recording to answer calls from; a call not in it ends the run (replay_missing). */
  replay?: JournalEntry[];
}

/** What a resumed run starts with (suspension.ts): the journal so far and the host's decisions. */
export interface ResumeSeed {
  journal: JournalEntry[];
  /** Decisions for the pending calls, by call key, in the order the calls were held. */
  decisions: Map<string, CallResult[]>;
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
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

const entryOutcome = (entry: JournalEntry): ToolOutcome =>
  "value" in entry
    ? { kind: "value", text: JSON.stringify(entry.value), from: "recording" }
    : { kind: "failure", message: entry.error, from: "recording" };

export class ToolGate {
  /** Every answered call of this run (replayed ones included), in the order the answers came. */
  readonly journal: JournalEntry[] = [];
  /** Calls held for the host. */
  readonly pending: PendingCall[] = [];
  private readonly recorded = new Map<string, JournalEntry[]>();
  private readonly decisions: Map<string, CallResult[]>;
  private readonly replaying: boolean;
  private writes: Promise<unknown> = Promise.resolve();
  /** The run's deadline and signal, which bound an approval check (set when the run starts). */
  bounds: RunBounds = { deadline: Infinity, timeoutMs: 0 };

  private constructor(
    private readonly tools: Record<string, Tool>,
    private readonly suspendAll: boolean,
    answers: JournalEntry[],
    replaying: boolean,
    decisions?: Map<string, CallResult[]>,
  ) {
    this.replaying = replaying;
    this.decisions = decisions ?? new Map();
    for (const entry of answers) {
      const key = callKey(entry.tool, entry.args);
      const list = this.recorded.get(key);
      if (list) list.push(entry);
      else this.recorded.set(key, [entry]);
    }
  }

  /** A gate for a run, or undefined when the run needs none (then it pays nothing). */
  static create(options: GateOptions, seed?: ResumeSeed): ToolGate | undefined {
    const tools = options.tools ?? {};
    const replay = options.replay !== undefined;
    if (!seed && !replay && !options.suspend && !options.journal && !needsGate(tools)) return undefined;
    const answers = seed?.journal ?? options.replay ?? [];
    return new ToolGate(tools, options.suspend === true, answers, replay, seed?.decisions);
  }

  /** The outcome of one call: from the journal, the host's decision, held, or run (`live`). */
  async call(call: ToolCall, live: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const key = callKey(call.tool, call.args);
    const recorded = this.recorded.get(key)?.shift();
    if (recorded) return this.record(call, entryOutcome(recorded));
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
    const decision = this.decisions.get(key)?.shift();
    if (decision && !("approved" in decision && decision.approved)) return this.record(call, decisionOutcome(decision));
    if (!decision) {
      const held = await this.holdReason(call);
      if ("outcome" in held) return held.outcome;
      const reason = held.value;
      if (reason) {
        this.pending.push({ id: `call-${call.id}`, tool: call.tool, path: call.path, args: call.args, reason });
        return { kind: "hold" };
      }
    }
    const tool = this.tools[call.tool];
    const outcome = effectOf(tool) === "write" ? this.oneWriteAtATime(live) : live();
    return this.record(call, await outcome);
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
  private holdReason(call: ToolCall): Promise<{ value: PendingReason | undefined } | { outcome: ToolOutcome }> {
    const d = declarations(this.tools[call.tool]);
    const approval = d?.approval;
    const otherwise = this.suspendAll ? "suspend" : undefined;
    if (d?.defer === true) return Promise.resolve({ value: "deferred" });
    if (approval === true) return Promise.resolve({ value: "approval" });
    if (typeof approval !== "function") return Promise.resolve({ value: otherwise });
    const asked = new Promise<unknown>((resolve) => resolve(approval(call.args)));
    return withinRun(asked, this.bounds).then((r) =>
      "outcome" in r ? r : { value: r.value === true ? "approval" : otherwise },
    );
  }

  // Write tools run one at a time, in the order their calls came; reads overlap freely.
  private oneWriteAtATime(live: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const turn = this.writes.then(live);
    this.writes = turn;
    return turn;
  }

  private record(call: ToolCall, outcome: ToolOutcome): ToolOutcome {
    const asked = { tool: call.tool, path: call.path, args: call.args };
    if (outcome.kind === "value") this.journal.push({ ...asked, value: JSON.parse(outcome.text) as JsonValue });
    else if (outcome.kind === "failure") this.journal.push({ ...asked, error: outcome.message });
    else if (outcome.kind === "callTimeout")
      this.journal.push({ ...asked, error: callTimeoutMessage(call, outcome.toolTimeoutMs) });
    return outcome;
  }
}

function decisionOutcome(decision: CallResult): ToolOutcome {
  if ("value" in decision) return { kind: "value", text: JSON.stringify(decision.value), from: "host" };
  if ("error" in decision) return { kind: "failure", message: decision.error, from: "host" };
  const reason = "reason" in decision && decision.reason ? `: ${decision.reason}` : "";
  return { kind: "failure", message: `the call was denied${reason}`, from: "host" };
}
