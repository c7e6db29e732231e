// Approvals across MCP calls, for a client that cannot ask its user
// (createMcpServer given a `stateKey`, and no in-process `approve`).
//
// With elicitation the server asks the client's user while the program runs
// (mcp.ts). A client without it used to get every held call denied. With a
// stateKey, run_program (and run_program_writes) instead stop the program at
// its calls held for approval and answer them (tool and every arg) with the
// run's state, signed with the key; resume_program {state, approved, reason?}
// resumes that state with the held calls decided: approved, they run and the
// program's answer comes back; denied, the program's `try` handles the denial.
// A resumed run that goes on to further held calls stops there again: the
// same answer, with a new signed state, resumed the same way. run_workflow (and
// run_workflow_writes) hold a step-function file's calls the same way, resumed
// by the same resume_program (the state says which dialect it is).
// A state changed since it was signed is refused (bad_state). resume_program
// is listed only with a stateKey, and marked destructive: it runs the calls
// that needed approval, so a host asks its user before it runs.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { runWorkflowFor, type ProgramSession, type SessionOutcome } from "./session.js";
import type { PtcError, RunSuspended, SuspendedState } from "../types/public.js";
import { programOf } from "./ai-sdk-approvals.js";

export const RESUME_PROGRAM = "resume_program";

const RESUME_DESCRIPTION =
  "Resumes a run of run_program or run_workflow that stopped at calls that need approval (it answered them " +
  "with its state): approved: true runs them and the run goes on; approved: false denies them, a failure its " +
  "try or on-error handles. Approve only calls the user approved.";

type Answer = {
  content: { type: "text"; text: string }[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The answer of a program held for approval: the held calls, then the JSON to resume it with. */
function heldAnswer(held: RunSuspended, context: Record<string, unknown> | undefined): Answer {
  const calls = held.pending.map(({ tool, args }) => ({ tool, args }));
  const shown = calls.map((c) => `'${c.tool}' with ${JSON.stringify(c.args)}`).join(", ");
  const what = held.state.kind === "workflow" ? "step-function file" : "program";
  const text =
    `The ${what} stopped at calls that need approval, which have not run: ${shown}. This MCP client cannot ask ` +
    `its user (no elicitation): ask the user, then call ${RESUME_PROGRAM} with the state below and ` +
    `approved: true or false (and a reason when denied); the ${what} then goes on from where it stopped.`;
  const resume = { held: calls, state: held.state, ...(context ? { context } : {}) };
  // Not an error: the program has not failed, it waits for a decision. _meta.code for a host that branches on it.
  return {
    content: [
      { type: "text", text },
      { type: "text", text: JSON.stringify(resume) },
    ],
    _meta: { code: "held_for_approval" },
  };
}

export class HeldPrograms {
  /** Whether a client without elicitation gets held runs to resume: a stateKey, and no in-process approve. */
  readonly enabled: boolean;

  constructor(
    private readonly server: McpServer,
    private readonly session: ProgramSession,
    approve: unknown,
  ) {
    this.enabled = session.options.stateKey !== undefined && approve === undefined;
  }

  /** Whether this call's program stops at its held calls: enabled, and the client cannot ask its user. */
  holds(): boolean {
    return this.enabled && !this.server.server.getClientCapabilities()?.elicitation;
  }

  /** Runs a program to its end or to its calls held for approval (answered with the signed state). */
  async run(
    program: unknown,
    context: Record<string, unknown> | undefined,
    answer: (outcome: SessionOutcome) => Answer,
    signal?: AbortSignal,
  ): Promise<Answer> {
    const r = await this.session.runHeld(programOf({ program, ...(context ? { context } : {}) }), undefined, signal);
    return "held" in r ? heldAnswer(r.held, context) : answer(r);
  }

  /** Runs a step-function file to its end or to its calls held for approval (answered with the signed state). */
  async runWorkflow(request: unknown, answer: (outcome: SessionOutcome) => Answer, signal?: AbortSignal) {
    const r = await runWorkflowFor(this.session, request, signal, true);
    return "held" in r ? heldAnswer(r.held, undefined) : answer(r);
  }

  /** Registers resume_program (only when enabled: tools/list does not grow otherwise). */
  register(z: typeof import("zod"), answer: (outcome: SessionOutcome) => Answer): void {
    if (!this.enabled) return;
    this.server.registerTool(
      RESUME_PROGRAM,
      {
        title: "Resume a program held for approval",
        description: RESUME_DESCRIPTION,
        inputSchema: {
          state: z.unknown().meta({ type: "object", description: "the state answered, unchanged" }),
          approved: z.boolean().meta({ description: "whether the user approved the held calls" }),
          reason: z.string().optional().meta({ description: "why not, when denied (the program reads it)" }),
          context: z
            .record(z.string(), z.unknown())
            .optional()
            .meta({ description: "run_program's context, if given" }),
        },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      },
      async ({ state, approved, reason, context }, extra) => {
        if (!isObject(state))
          return answer(badState("the state must be the object run_program or run_workflow answered"));
        const decision = approved ? { approved: true } : { approved: false, ...(reason ? { reason } : {}) };
        const given = context ? { program: {}, context } : undefined;
        const r = await this.session.resumeHeld(
          state as unknown as SuspendedState,
          decision,
          undefined,
          given,
          extra?.signal,
        );
        // Held again (the run went on to further calls that need approval): a new state, resumed the same way.
        return "held" in r ? heldAnswer(r.held, context) : answer(r);
      },
    );
  }
}

function badState(why: string): SessionOutcome {
  const error: PtcError = {
    type: "execution_error",
    code: "bad_state",
    message: `The state cannot be resumed: ${why}`,
  };
  return { ok: false, error, message: error.message };
}
