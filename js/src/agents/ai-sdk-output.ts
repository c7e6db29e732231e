// What the AI SDK tools that run programs (ptcTool, ptcToolCaller) give the model.
import { formatWarnings } from "../runtimes/format.js";
import type { SessionOutcome } from "./session.js";
import type { ErrorCode, JsonValue } from "../types/public.js";

/** What the model gets back from a program. */
export type PtcToolOutput =
  | {
      ok: true;
      result: JsonValue;
      stored?: string[];
      /** What the program read that is not there (or wrote almost right), one line each, naming the fix. */
      warnings?: string[];
    }
  | { ok: false; error: string; code: ErrorCode };

/** A session's outcome as the model reads it: the result (with what was stored), or the formatted error. */
export function toolOutput(outcome: SessionOutcome): PtcToolOutput {
  if (!outcome.ok) return { ok: false, error: outcome.message, code: outcome.error.code };
  const warnings = outcome.warnings ? { warnings: formatWarnings(outcome.warnings).split("\n") } : {};
  return outcome.stored.length
    ? { ok: true, result: outcome.result, stored: outcome.stored, ...warnings }
    : { ok: true, result: outcome.result, ...warnings };
}
