// Approvals through the AI SDK's own flow, across requests (ptcTool and
// ptcToolCaller given a `stateKey`, and no in-process `approve`).
//
// The SDK asks a person before it runs a tool call, never during one, and
// asks through the tool's `needsApproval`. So run_program's needsApproval runs
// the program first: calls that need no approval run; at the calls held for
// approval the run suspends, the held calls (tool and every arg) and the run's
// state (signed with the stateKey) are added to the call's input, and the SDK
// makes its tool-approval-request for that input (signed too with
// experimental_toolApprovalSecret). The input travels in the messages: on the
// next request, maybe in another process, the SDK runs the approved call, and
// run_program resumes the state with the held calls approved (its reads are
// answered from the state's journal, so the approved calls are exactly those
// shown). A program that holds nothing has run already: execute gives its
// outcome. The SDK answers a denied call itself, without running it:
// `denials(messages)` resumes the state with the denial first, so that the
// program's `try` handles it.
import type { ModelMessage } from "ai";
import { canonicalJson } from "../gate/journal.js";
import type { ProgramSession, SessionOutcome } from "./session.js";
import type { JsonObject, PtcError, RunSuspended, SuspendedState, Tool } from "../types/public.js";
import { toolOutput, type HeldAgainOutput } from "./ai-sdk-output.js";

/** A call the program holds for approval, as the person is shown it. */
export interface HeldCall {
  tool: string;
  args: JsonObject;
}

/** What run_program's input carries once its program stopped at calls held for approval. */
export interface HeldInput {
  /** The calls that run when the person approves (the SDK shows them with the call's input). */
  held: HeldCall[];
  /** The suspended run, signed with the stateKey: resumed on the next request. */
  state: SuspendedState<"program">;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Whether a tool input carries a held run (its `held` and `state`). */
export const isHeldInput = (input: unknown): input is HeldInput =>
  isObject(input) && Array.isArray(input.held) && isObject(input.state);

const refusal = (message: string): SessionOutcome => {
  const error: PtcError = { type: "execution_error", code: "bad_state", message };
  return { ok: false, error, message };
};

// The calls shown must be the state's pending calls: the state is signed, the
// list beside it only by the SDK's secret (when the host gives one).
function shownProblem(input: HeldInput): string | undefined {
  const pending = Array.isArray(input.state.pending) ? input.state.pending : [];
  const fromState = canonicalJson(pending.map((p) => ({ tool: p?.tool, args: p?.args })));
  const shown = canonicalJson(input.held.map((h) => ({ tool: h?.tool, args: h?.args })));
  return fromState === shown
    ? undefined
    : "The state cannot be resumed: the held calls in run_program's input are not the calls its state holds (the input was changed)";
}

/**
 * A resumed program held again: the input that asks for its new held calls,
 * the one it was resumed from with the new held calls and state (its program
 * and context kept, as the first hold's input had them).
 */
function heldAgain(input: HeldInput, held: RunSuspended): HeldAgainOutput {
  const calls = held.pending.map(({ tool, args }) => ({ tool, args }));
  const shown = calls.map((c) => `'${c.tool}' with ${JSON.stringify(c.args)}`).join(", ");
  return {
    ok: false,
    code: "held_for_approval",
    error:
      `The program went on and stopped at further calls that need approval, which have not run: ${shown}. ` +
      `To have the user asked, call this tool again with \`input\` below as its whole input, unchanged; the ` +
      `program then goes on from where it stopped`,
    input: { ...input, held: calls, state: held.state as SuspendedState<"program"> },
  };
}

// Outcomes of programs the approval check ran to their end, until execute takes them (by tool call id).
const KEPT_OUTCOMES = 256;

export class SdkApprovals {
  /** Whether held calls go through the SDK's approval flow: a stateKey, and no in-process approve. */
  readonly enabled: boolean;
  private readonly finished = new Map<string, SessionOutcome>();

  constructor(private readonly session: ProgramSession) {
    this.enabled = session.options.stateKey !== undefined && session.options.approve === undefined;
  }

  /**
   * run_program's needsApproval: true when its program stops at calls held
   * for approval (then the input carries them and the signed state), or when
   * the input already does (the SDK checks an approved call again before it
   * runs it). A program that ends is kept for execute.
   */
  async check(input: unknown, toolCallId: string | undefined, tools: Record<string, Tool>): Promise<boolean> {
    if (!this.enabled || !isObject(input)) return false;
    if (isHeldInput(input)) return true;
    if (!("program" in input) || input.program === undefined) return false;
    const r = await this.session.runHeld(programOf(input), tools);
    if ("held" in r) {
      input.held = r.held.pending.map(({ tool, args }) => ({ tool, args }));
      input.state = r.held.state as SuspendedState<"program">;
      return true;
    }
    if (toolCallId !== undefined) {
      if (this.finished.size >= KEPT_OUTCOMES) this.finished.delete(this.finished.keys().next().value as string);
      this.finished.set(toolCallId, r);
    }
    return false;
  }

  /**
   * run_program's execute when held calls go through the SDK: an approved
   * held run resumes; a program the check ran gives its outcome. Undefined:
   * run the program as always. `signal` (the SDK's abortSignal) ends the run.
   */
  async run(
    input: unknown,
    toolCallId: string | undefined,
    tools: Record<string, Tool>,
    signal?: AbortSignal,
  ): Promise<SessionOutcome | HeldAgainOutput | undefined> {
    if (!this.enabled) return undefined;
    if (isHeldInput(input)) return this.resume(input, { approved: true }, tools, signal);
    const done = toolCallId === undefined ? undefined : this.finished.get(toolCallId);
    if (done) {
      this.finished.delete(toolCallId as string);
      return done;
    }
    const r = await this.session.runHeld(programOf(input), tools, signal);
    if (!("held" in r)) return r;
    const calls = r.held.pending.map((p) => `'${p.tool}' with ${JSON.stringify(p.args)}`).join(", ");
    const error: PtcError = {
      type: "execution_error",
      code: "suspended",
      message:
        `The program stopped at calls that need approval, which were not run: ${calls}. No one was asked: ` +
        `the host's toolApproval did not ask run_program's needsApproval`,
    };
    return { ok: false, error, message: error.message };
  }

  // A held run resumed with the person's decision: its end, or its next held calls (a new round).
  private async resume(
    input: HeldInput,
    decision: { approved: boolean; reason?: string },
    tools: Record<string, Tool>,
    signal?: AbortSignal,
  ): Promise<SessionOutcome | HeldAgainOutput> {
    const problem = shownProblem(input);
    if (problem) return refusal(problem);
    const r = await this.session.resumeHeld(input.state, decision, tools, programOf(input), signal);
    return "held" in r ? heldAgain(input, r.held) : r;
  }

  /**
   * The messages with an answer for each held run the person denied in the
   * last tool message: the run resumed with the denial (its `try` handles it),
   * its outcome as run_program's tool result, which the SDK then keeps instead
   * of its own "execution-denied".
   */
  async denials(messages: ModelMessage[], toolName: string, tools: Record<string, Tool>): Promise<ModelMessage[]> {
    const last = messages.at(-1);
    if (!this.enabled || last?.role !== "tool" || !Array.isArray(last.content)) return messages;
    const calls = new Map<string, unknown>();
    const requests = new Map<string, string>();
    for (const m of messages) {
      if (m.role !== "assistant" || typeof m.content === "string") continue;
      for (const part of m.content) {
        if (part.type === "tool-call" && part.toolName === toolName) calls.set(part.toolCallId, part.input);
        if (part.type === "tool-approval-request") requests.set(part.approvalId, part.toolCallId);
      }
    }
    const answered = new Set(last.content.flatMap((p) => (p.type === "tool-result" ? [p.toolCallId] : [])));
    const added: typeof last.content = [];
    for (const part of last.content) {
      if (part.type !== "tool-approval-response" || part.approved) continue;
      const toolCallId = requests.get(part.approvalId);
      const input = toolCallId === undefined ? undefined : calls.get(toolCallId);
      if (toolCallId === undefined || answered.has(toolCallId) || !isHeldInput(input)) continue;
      answered.add(toolCallId);
      const denial = part.reason === undefined ? { approved: false } : { approved: false, reason: part.reason };
      const outcome = await this.resume(input, denial, tools);
      added.push({
        type: "tool-result",
        toolCallId,
        toolName,
        output: { type: "json", value: toolOutput(outcome) as JsonObject },
      });
    }
    if (!added.length) return messages;
    return [...messages.slice(0, -1), { ...last, content: [...last.content, ...added] }];
  }
}

function parsedIfText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/**
 * The program of a tool input as the session runs it, read as MCP run_program
 * reads its arguments {program, context?}: the program may come as JSON text
 * (some models send it so), and may itself be run_program's input, an
 * envelope {program, context?} (a doubled envelope): its program is run, with
 * its context over the input's.
 */
export function programOf(input: unknown): unknown {
  if (!isObject(input) || !("program" in input)) return input;
  const inner = parsedIfText(input.program);
  if (inner === undefined) return input.program; // text that is no JSON: the engine says where it stops being JSON
  const outer = isObject(input.context) ? input.context : undefined;
  if (isObject(inner) && "program" in inner) {
    const own = isObject(inner.context) ? inner.context : undefined;
    return outer || own ? { ...inner, context: { ...outer, ...own } } : inner;
  }
  return outer ? { program: inner, context: outer } : { program: inner };
}
