// Calling host tools: waiting for one within the run's deadline and abort
// signal, and turning its result into JSON text for the engine.
import type { ToolOutcome } from "./driver.js";
import { prepareCall } from "./descriptors.js";
import type { JsonObject, Tool } from "./types.js";

/** A tool result that cannot cross into the sandbox. */
export class ToolValueError extends Error {}

function rejectNonJson(_key: string, value: unknown): unknown {
  switch (typeof value) {
    case "function":
      throw new ToolValueError("returned a function, which is not JSON data");
    case "bigint":
      throw new ToolValueError("returned a BigInt, which is not JSON data (convert it to a number or string)");
    case "symbol":
      throw new ToolValueError("returned a symbol, which is not JSON data");
    case "number":
      if (!Number.isFinite(value)) throw new ToolValueError(`returned ${value}, which is not a JSON number`);
      return value;
    case "object":
      // JSON.stringify would silently turn these into {}: refuse instead of losing data.
      if (value instanceof Map || value instanceof Set)
        throw new ToolValueError(`returned a ${value.constructor.name}, which is not JSON data (convert it to an object or array)`);
      return value;
    default:
      return value;
  }
}

/** JSON text of a tool's result; undefined becomes null. Throws ToolValueError. */
export function toolResultText(value: unknown): string {
  if (value === undefined) return "null";
  try {
    return JSON.stringify(value, rejectNonJson) ?? "null";
  } catch (e) {
    if (e instanceof ToolValueError) throw e;
    // JSON.stringify throws TypeError on cycles.
    throw new ToolValueError(`returned a value that is not JSON data (${(e as Error).message})`);
  }
}

/** The message of whatever a tool threw or rejected with. */
export function failureMessage(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name;
  if (typeof reason === "string") return reason;
  try {
    return JSON.stringify(reason) ?? String(reason);
  } catch {
    return String(reason);
  }
}

/**
 * Calls one tool (a function, or a descriptor whose args are checked against
 * its parameters first) and waits for it, but never past the deadline or an
 * abort: a tool still pending then is abandoned (its later result is ignored).
 */
export function awaitTool(
  name: string,
  tool: Tool | undefined,
  args: JsonObject,
  deadline: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<ToolOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => settle({ kind: "abort", reason: failureMessage(signal?.reason) });
    const settle = (outcome: ToolOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    if (signal?.aborted) return onAbort();
    const call = prepareCall(name, tool, args);
    if ("problem" in call) return settle({ kind: "failure", message: call.problem });
    timer = setTimeout(() => settle({ kind: "timeout", timeoutMs }), Math.max(0, deadline - performance.now()));
    signal?.addEventListener("abort", onAbort, { once: true });
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(call.execute(args));
    } catch (e) {
      return settle({ kind: "failure", message: failureMessage(e) });
    }
    pending.then(
      (value) => {
        try {
          settle({ kind: "value", text: toolResultText(value) });
        } catch (e) {
          settle({ kind: "failure", message: failureMessage(e) });
        }
      },
      (reason) => settle({ kind: "failure", message: failureMessage(reason) }),
    );
  });
}
