// Calling host tools and turning their results into JSON text for the engine.
import type { JsonObject, ToolFunction } from "./types.js";

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

/** Calls a tool with a fresh args object; a synchronous throw becomes a rejection. */
export async function invokeTool(tool: ToolFunction, args: JsonObject): Promise<unknown> {
  return tool(args);
}
