// Calling host tools: waiting for one within the run's deadline and abort
// signal, and turning its result into JSON text for the engine.
import type { ToolOutcome } from "./driver.js";
import { prepareCall } from "./descriptors.js";
import { describeThrown } from "./describe.js";
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
    // JSON.stringify throws TypeError on cycles; a toJSON or a getter may throw anything.
    throw new ToolValueError(`returned a value that is not JSON data (${describeThrown(e)})`);
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
    const onAbort = () => settle({ kind: "abort", reason: describeThrown(signal?.reason) });
    const settle = (outcome: ToolOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      try {
        signal?.removeEventListener("abort", onAbort);
      } catch {
        // an object posing as an AbortSignal; the call is settled all the same
      }
    };
    const fail = (e: unknown) => settle({ kind: "failure", message: describeThrown(e) });
    // The tool is the caller's code: whatever it throws, when or however,
    // becomes this call's failure, and the promise always resolves.
    try {
      if (signal?.aborted) return onAbort();
      let call: ReturnType<typeof prepareCall>;
      try {
        call = prepareCall(name, tool, args);
      } catch (e) {
        return settle({ kind: "failure", message: `its descriptor could not be read (${describeThrown(e)})` });
      }
      if ("problem" in call) return settle({ kind: "failure", message: call.problem });
      timer = setTimeout(() => settle({ kind: "timeout", timeoutMs }), Math.max(0, deadline - performance.now()));
      signal?.addEventListener("abort", onAbort, { once: true });
      void Promise.resolve(call.execute(args)).then((value) => {
        try {
          settle({ kind: "value", text: toolResultText(value) });
        } catch (e) {
          fail(e);
        }
      }, fail);
    } catch (e) {
      fail(e);
    }
  });
}
