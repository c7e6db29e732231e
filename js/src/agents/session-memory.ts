// What one call of a session reads: its program, the context given with it,
// and the memory this run sees. A name can be both a memory key (an earlier
// program's answer) and a key of the context the model passes now; the model
// means the context it passes now, so that context wins: the key is left out
// of the memory this run reads (it stays in the session's memory for later
// programs) and a warning names it (docs/semantics.md, "Memory contract").
import type { JsonObject, ProgramInput, Warning } from "../types/public.js";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The most shadowed keys one warning names. */
const MAX_NAMED = 10;

export interface CallInput {
  /** The program, its envelope's context taken out (the session passes the call's context itself). */
  input: ProgramInput;
  /** The context given with this call: the envelope's over the tool's `context` argument; undefined when none. */
  context?: Record<string, unknown>;
  /** The memory this run reads: the session's, without the keys the call's context has. */
  memory: JsonObject;
  /** shadowed_memory, when the call's context hid memory keys. */
  warnings: Warning[];
}

/**
 * The run of one call: `input` is the program as programFrom gave it (an
 * envelope may carry a `context`, which the engine would not read), `given`
 * the context argument of the tool call.
 */
export function callInput(input: ProgramInput, given: Record<string, unknown> | undefined, memory: JsonObject) {
  let program = input;
  let context = given;
  if (isObject(input) && isObject(input.context)) {
    const { context: own, ...rest } = input;
    program = rest as ProgramInput;
    context = { ...(given ?? {}), ...(own as Record<string, unknown>) };
  }
  const shadowed = context ? Object.keys(context).filter((key) => Object.hasOwn(memory, key)) : [];
  if (!shadowed.length) return { input: program, context, memory, warnings: [] } satisfies CallInput;
  const seen: JsonObject = { ...memory };
  for (const key of shadowed) delete seen[key];
  return { input: program, context, memory: seen, warnings: [shadowWarning(shadowed)] } satisfies CallInput;
}

function shadowWarning(keys: string[]): Warning {
  const named = keys
    .slice(0, MAX_NAMED)
    .map((k) => JSON.stringify(k))
    .join(", ");
  const more = keys.length > MAX_NAMED ? ` and ${keys.length - MAX_NAMED} more` : "";
  const one = keys.length === 1;
  return {
    code: "shadowed_memory",
    path: "",
    message:
      `The context given with this call has ${one ? "the key" : "the keys"} ${named}${more}, which memory also ` +
      `holds (stored by an earlier program): this program read the context's ${one ? "value" : "values"}, not ` +
      `memory's. Memory keeps ${one ? "its value" : "them"} for later programs that are given no such context key`,
  };
}

/** Warnings of a run with the call's own (shadowed_memory) first. */
export function withCallWarnings<R extends object>(r: R, warnings: Warning[]): R {
  if (!warnings.length || ("status" in r && r.status === "suspended")) return r;
  const own = "warnings" in r ? (r.warnings as Warning[] | undefined) : undefined;
  return { ...r, warnings: [...warnings, ...(own ?? [])] };
}
