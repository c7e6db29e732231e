// What the AI SDK tools that run programs (ptcTool, ptcToolCaller) give the model.
import { formatWarnings } from "../runtimes/format.js";
import type { SessionOutcome } from "./session.js";
import type { ErrorCode, JsonObject, JsonValue, SuspendedState } from "../types/public.js";

/**
 * A program that went on after the calls the person decided and stopped at
 * further calls held for approval (a second round): not a failure. `input` is
 * the tool's input that asks for them, the held calls and the new signed state:
 * the model sends it back unchanged, the tool's needsApproval makes the SDK's
 * approval request for it, and the program goes on from where it stopped.
 */
export interface HeldAgainOutput {
  ok: false;
  code: "held_for_approval";
  error: string;
  input: {
    program?: JsonValue;
    context?: JsonObject;
    held: { tool: string; args: JsonObject }[];
    state: SuspendedState<"program">;
  };
}

/** What the model gets back from a program. */
export type PtcToolOutput =
  | {
      ok: true;
      result: JsonValue;
      stored?: string[];
      /** What the program read that is not there (or wrote almost right), one line each, naming the fix. */
      warnings?: string[];
    }
  | { ok: false; error: string; code: ErrorCode }
  | HeldAgainOutput;

/** A session's outcome as the model reads it: the result (with what was stored), or the formatted error. */
export function toolOutput(outcome: SessionOutcome | HeldAgainOutput): PtcToolOutput {
  if ("input" in outcome) return outcome;
  if (!outcome.ok) return { ok: false, error: outcome.message, code: outcome.error.code };
  const warnings = outcome.warnings ? { warnings: formatWarnings(outcome.warnings).split("\n") } : {};
  return outcome.stored.length
    ? { ok: true, result: outcome.result, stored: outcome.stored, ...warnings }
    : { ok: true, result: outcome.result, ...warnings };
}
