// Resident context (runtime.load): context data parsed into the engine once,
// then loaded by name by any number of runs without crossing the boundary
// again. Shared by both runtimes: the in-process one keeps the engine here, the
// worker runtime in its worker (worker-core.ts), each instance loading a
// resident context it has not seen yet from its JSON text (a fresh instance
// after a trap or a recycle gets it back unasked).
import { describeThrown } from "../util/describe.js";
import type { PtcError, RunOptions } from "../types/public.js";
import { ResidentContext, type ResidentSpec } from "../types/resident-context.js";

export { ResidentContext, type ResidentSpec };

export const DEFAULT_MAX_RESIDENT_BYTES = 64 * 1024 * 1024;

export interface LoadOptions {
  /** Bytes the loaded values may take in the engine (default 64 MiB); past it, load fails with memory_exceeded. */
  maxResidentBytes?: number;
  /** Time limit of loading (default 10000 ms). */
  timeoutMs?: number;
}

export type LoadResult = { ok: true; resident: ResidentContext } | { ok: false; error: PtcError };

/** The engine's answer to a load: {"state":"resident",...} or a done status with the error. */
export type ResidentStatus =
  { state: "resident"; id: number; bytes: number; keys: string[] } | { state: "done"; ok: false; error: PtcError };

let nextSpecId = 0;

// The keys of each resident context as a set, made when it is loaded: a run
// looks its loads up there rather than scanning a list of maybe a million keys.
const keySets = new WeakMap<ResidentContext, Set<string>>();

/** The spec of a context object, or the parse_error that it is not JSON data. */
export function residentSpec(
  context: unknown,
  options: LoadOptions,
): { spec: ResidentSpec } | { ok: false; error: PtcError } {
  if (context === null || typeof context !== "object" || Array.isArray(context))
    throw new TypeError("ptc-wasm: load(context) takes an object of context keys");
  let text: string;
  try {
    text = JSON.stringify(context);
  } catch (e) {
    return {
      ok: false,
      error: { type: "parse_error", code: "not_json", message: `The context is not JSON data: ${describeThrown(e)}` },
    };
  }
  return {
    spec: {
      id: ++nextSpecId,
      text,
      maxBytes: options.maxResidentBytes ?? DEFAULT_MAX_RESIDENT_BYTES,
      timeoutMs: options.timeoutMs ?? 10_000,
    },
  };
}

/** The result of a load from the engine's status text. */
export function loadResult(
  statusText: string,
  spec: ResidentSpec,
  owner: object,
  release: (spec: ResidentSpec) => void,
): LoadResult {
  const status = JSON.parse(statusText) as ResidentStatus;
  if (status.state !== "resident") return { ok: false, error: status.error };
  const resident = new ResidentContext(spec, status.keys, status.bytes, owner, release);
  keySets.set(resident, new Set(status.keys)); // now, not in the first run's time
  return { ok: true, resident };
}

/**
 * The run's resident context, checked: a TypeError for one of another runtime,
 * an execution_error message for a closed one.
 */
export function residentOf(options: RunOptions, owner: object): ResidentContext | string | undefined {
  const resident = options.resident;
  if (resident === undefined) return undefined;
  if (!(resident instanceof ResidentContext) || resident.owner !== owner)
    throw new TypeError("ptc-wasm: the resident option takes what this runtime's load() returned");
  if (resident.closed) return "The resident context of this run was closed: load the data again";
  return resident;
}

function keySet(resident: ResidentContext): Set<string> {
  let keys = keySets.get(resident);
  if (!keys) keySets.set(resident, (keys = new Set(resident.keys)));
  return keys;
}

/** The loads the run sends itself: those the resident context does not hold, or the run's own context overrides. */
export function sentLoads(loads: string[], resident: ResidentContext | undefined, options: RunOptions): string[] {
  if (!resident || loads.length === 0) return loads;
  const own = options.context ?? {};
  const held = keySet(resident);
  return loads.filter((key) => !held.has(key) || Object.prototype.hasOwnProperty.call(own, key));
}
