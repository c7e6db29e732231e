// Suspended runs: the `state` a run returns when it stops at held calls, and
// resuming it. The state is plain JSON (it may be stored, sent, resumed hours
// later in another process): the program or step-function file, the limits and
// memory (or input) that shape its evaluation, a fingerprint of the context it
// loaded, the journal of its answered calls and the pending ones. Tools and
// context are passed again to resume: functions do not serialise, and context
// may be large; a context that differs from the fingerprint is refused.
// Resuming runs the program again from the start with the journal
// (journal.ts): the same path up to the pending calls, then on.
//
// Without a key, a state is as trusted as the place it was kept: its hash only
// tells a changed program from an accident. With the host's `stateKey`, the
// whole state is signed (an HMAC in `mac`) and resume refuses any change.
import { doneStatus, isSuspended, now, type DoneStatus, type Timings } from "../run/driver.js";
import { isPlainObject, limitAccepts, limitRule, type LimitName } from "../run/checks.js";
import { describeThrown } from "../util/describe.js";
import { hash53, sameMac, stateMac } from "./digest.js";
import { canonicalJson, ToolGate, type ResumeSeed } from "./journal.js";
import { DEFAULT_MAX_TOOL_CALLS } from "../run/options.js";
import { toolResultText } from "./tools.js";
import { VERSION } from "../util/version.js";
import type {
  CallResult,
  JournalEntry,
  JsonObject,
  PtcError,
  ResumeOptions,
  RunKind,
  RunOptions,
  RunSuspended,
  StateKey,
  SuspendedState,
  TraceEntry,
} from "../types/public.js";
import type { ResidentContext, ResidentSpec } from "../types/resident-context.js";

/** The `format` of a state this version writes and reads. */
export const STATE_FORMAT: SuspendedState["format"] = "ptc-wasm/suspended-run@1";

/** What a run that may suspend keeps from its start, to write its state. */
export interface StateBase {
  kind: RunKind;
  source: string;
  limits: SuspendedState["limits"];
  entry?: string;
  input?: unknown;
  memory?: unknown;
  context?: Record<string, unknown>;
  resident?: ResidentContext;
  /** The context keys the engine asked for (set when the payload is made). */
  loads?: string[];
}

// Per key, a hash of the JSON text of its data, from the run's own context or
// else from its resident context: the same data gives the same fingerprint
// whichever way it came.
function contextHash(
  context: Record<string, unknown> | undefined,
  keys: string[],
  resident: ResidentContext | undefined,
): string {
  const own = context ?? {};
  const parts = keys.map((key) => {
    if (Object.prototype.propertyIsEnumerable.call(own, key)) return hash53(JSON.stringify(own[key]) ?? "");
    if (resident?.keys.includes(key)) return residentKeyHashes(resident.spec).get(key) ?? "";
    return "\u0000absent";
  });
  return hash53(parts.join("\u0001"));
}

// A resident context's data is parsed again only to fingerprint it, once per
// context; only the hashes are kept. A worker runtime that keeps no text of
// the data on the caller's thread has its worker compute them
// (seedResidentHashes): read from their JSON text when first needed.
const residentHashes = new WeakMap<ResidentSpec, Map<string, string>>();
const seededHashes = new WeakMap<ResidentSpec, string>();
function residentKeyHashes(spec: ResidentSpec): Map<string, string> {
  let hashes = residentHashes.get(spec);
  if (!hashes) {
    const seeded = seededHashes.get(spec);
    if (seeded !== undefined) hashes = new Map(JSON.parse(seeded) as [string, string][]);
    else {
      const data = JSON.parse(spec.text) as Record<string, unknown>;
      hashes = new Map(Object.entries(data).map(([key, value]) => [key, hash53(JSON.stringify(value))]));
    }
    residentHashes.set(spec, hashes);
  }
  return hashes;
}

/**
 * The fingerprints of a resident context's keys, computed where its text was
 * (runtimes/worker-packing.ts): the JSON text of [key, hash] pairs.
 */
export function seedResidentHashes(spec: ResidentSpec, hashesJson: string): void {
  seededHashes.set(spec, hashesJson);
}

const asJson = (value: unknown) =>
  value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as JsonObject);

/** The limits a state keeps from run options. */
export function stateLimits(options: { maxHeapBytes?: number; maxDepth?: number; maxToolCalls?: number }) {
  const limits: SuspendedState["limits"] = {};
  if (options.maxHeapBytes !== undefined) limits.maxHeapBytes = options.maxHeapBytes;
  if (options.maxDepth !== undefined) limits.maxDepth = options.maxDepth;
  if (options.maxToolCalls !== undefined) limits.maxToolCalls = options.maxToolCalls;
  return limits;
}

/** The result of a run that stopped at held calls. */
export function suspendedResult(
  base: StateBase,
  gate: ToolGate,
  status: { metrics: DoneStatus["metrics"]; trace?: unknown[] },
  started: number,
  timings: Timings,
  withJournal: boolean,
): RunSuspended {
  const state: SuspendedState = {
    format: STATE_FORMAT,
    version: VERSION,
    kind: base.kind,
    source: base.source,
    hash: hash53(base.source),
    limits: base.limits,
    ...(base.entry !== undefined ? { entry: base.entry } : {}),
    ...(base.kind === "workflow" ? { input: asJson(base.input ?? {}) } : { memory: asJson(base.memory ?? {}) }),
    ...(base.loads?.length
      ? { context: { keys: base.loads, hash: contextHash(base.context, base.loads, base.resident) } }
      : {}),
    runId: gate.runId,
    journal: [...gate.journal],
    pending: [...gate.pending],
  };
  const calls = gate.pending.map((p) => `'${p.tool}' at ${p.path} (${p.reason})`).join(", ");
  return {
    ok: false,
    status: "suspended",
    error: {
      type: "execution_error",
      code: "suspended",
      message:
        `The run is suspended at ${gate.pending.length} tool call${gate.pending.length === 1 ? "" : "s"}: ${calls}. ` +
        `Decide them and call runtime.resume(state, { results, tools })`,
    },
    pending: state.pending,
    state,
    ...(withJournal ? { journal: [...gate.journal] } : {}),
    ...(status.trace ? { trace: suspendedTrace(status.trace) } : {}),
    metrics: {
      durationMs: now() - started,
      memoryBytes: status.metrics.memoryBytes,
      toolCalls: status.metrics.toolCalls,
      ...timings,
    },
  };
}

// A step-function trace so far: the steps the run stopped at (ended by the
// engine as aborted) were held, not aborted.
function suspendedTrace(trace: unknown[]): TraceEntry[] {
  return (trace as TraceEntry[]).map((e) => (e.outcome === "abort" ? { ...e, outcome: "suspended" } : e));
}

type Refusal = { ok: false; error: PtcError };
const refuse = (code: "bad_state" | "bad_resume", message: string): Refusal => ({
  ok: false,
  error: { type: "execution_error", code, message },
});

/** What resume() runs: the source, the options for run()/runWorkflow(), and the seed of the gate. */
export interface Resumption {
  kind: RunKind;
  source: string;
  options: RunOptions & { entry?: string; input?: Record<string, unknown> };
  seed: ResumeSeed;
}

const isString = (v: unknown): v is string => typeof v === "string";
const STATE_LIMITS: readonly LimitName[] = ["maxHeapBytes", "maxDepth", "maxToolCalls"];
const REASONS: readonly unknown[] = ["approval", "deferred", "suspend"];

// Cheap checks first: a state far too big for its run is refused before its
// journal is read (what a run may make, it may hold: maxToolCalls calls).
function sizeProblem(state: Record<string, unknown>): string | undefined {
  if (state.format !== STATE_FORMAT)
    return `its format is ${JSON.stringify(state.format)}, not "${STATE_FORMAT}" (pass the \`state\` of a suspended result)`;
  if (state.version !== VERSION)
    return `it was written by ptc-wasm ${String(state.version)} and this is ${VERSION}: resume it with that version, or run the program again`;
  if (!Array.isArray(state.journal) || !Array.isArray(state.pending)) return "its journal or pending list is missing";
  const limits = state.limits as Record<string, unknown> | undefined;
  const most = isPlainObject(limits) && typeof limits?.maxToolCalls === "number" ? limits.maxToolCalls : undefined;
  const max = most ?? DEFAULT_MAX_TOOL_CALLS;
  const calls = (state.journal as unknown[]).length + (state.pending as unknown[]).length;
  if (calls > max)
    return `its journal and pending list hold ${calls} calls, more than its run may make (maxToolCalls ${max})`;
  return undefined;
}

function entryProblem(entry: unknown, pending: boolean): string | undefined {
  const e = entry as Record<string, unknown>;
  if (!isPlainObject(e) || !isString(e.tool) || !isString(e.path) || !isPlainObject(e.args))
    return "an entry of its journal or pending list is not {tool, path, args, ...}";
  if (pending) return isString(e.id) && REASONS.includes(e.reason) ? undefined : "a pending call has no id or reason";
  const answered = "value" in e ? !("error" in e) : isString(e.error);
  return answered ? undefined : "an entry of its journal has neither a value nor an error text (or both)";
}

function limitsProblem(limits: unknown): string | undefined {
  if (!isPlainObject(limits)) return "its limits are missing";
  for (const [name, value] of Object.entries(limits as object)) {
    const limit = name as LimitName;
    if (!STATE_LIMITS.includes(limit)) return `its limits hold an unknown key '${name}'`;
    if (!limitAccepts(limit, value)) return `its limits.${name} is not ${limitRule(limit)}`;
  }
  return undefined;
}

function shapeProblem(state: Record<string, unknown>): string | undefined {
  if (state.kind !== "program" && state.kind !== "workflow") return "its kind is neither program nor workflow";
  if (!isString(state.source) || state.hash !== hash53(state.source))
    return "its source does not match its hash: the program was changed after the run suspended";
  if (!isString(state.runId)) return "its runId is missing";
  for (const entry of state.journal as unknown[]) {
    const problem = entryProblem(entry, false);
    if (problem) return problem;
  }
  for (const entry of state.pending as unknown[]) {
    const problem = entryProblem(entry, true);
    if (problem) return problem;
  }
  const data = state.kind === "program" ? "memory" : "input";
  if (state[data] !== undefined && !isPlainObject(state[data])) return `its ${data} is not an object`;
  if (state.entry !== undefined && !isString(state.entry)) return "its entry is not a function name";
  const context = state.context as Record<string, unknown> | undefined;
  if (context !== undefined && !(isPlainObject(context) && isString(context.hash) && Array.isArray(context.keys)))
    return "its context fingerprint is not {keys, hash}";
  if (context && !(context.keys as unknown[]).every(isString)) return "its context keys are not texts";
  return limitsProblem(state.limits);
}

/** The mac of a state (its `mac` left out), under the host's key. */
const macOf = async (key: StateKey, state: object) => {
  const { mac: _mac, ...rest } = state as SuspendedState;
  return `hmac-sha256:${await stateMac(key, canonicalJson(rest))}`;
};

function macProblem(state: Record<string, unknown>, key: StateKey | undefined): Promise<string | undefined> | string {
  if (key === undefined)
    return state.mac === undefined ? "" : "it is signed (mac): pass the stateKey it was written with";
  if (!isString(state.mac)) return "it is not signed, and a stateKey was given: it was not written with that key";
  return macOf(key, state).then((mac) =>
    sameMac(mac, state.mac as string)
      ? undefined
      : "its mac does not match: it was changed, or signed with another key",
  );
}

/** The state of a suspended result signed with the host's key (a `mac`), when one is given. */
export async function sealed<R extends object>(result: R, key: StateKey | undefined): Promise<R> {
  const r = result as Partial<RunSuspended>;
  if (key === undefined || r.status !== "suspended" || !r.state) return result;
  r.state.mac = await macOf(key, JSON.parse(JSON.stringify(r.state)) as object);
  return result;
}

function resultProblem(id: string, result: unknown): string | undefined {
  const r = result as Record<string, unknown>;
  const shape = "{ value }, { error: text }, { approved: true } or { approved: false, reason? }";
  if (!isPlainObject(r)) return `results["${id}"] must be ${shape}`;
  const keys = Object.keys(r).sort().join(",");
  if (keys === "value") {
    try {
      toolResultText(r.value);
    } catch (e) {
      return `results["${id}"].value is not JSON data: ${describeThrown(e)}`;
    }
    return undefined;
  }
  if (keys === "error") return isString(r.error) ? undefined : `results["${id}"].error must be a text`;
  if (keys === "approved" && r.approved === true) return undefined;
  if ((keys === "approved" || keys === "approved,reason") && r.approved === false)
    return r.reason === undefined || isString(r.reason) ? undefined : `results["${id}"].reason must be a text`;
  return `results["${id}"] must be ${shape}, got keys {${keys}}`;
}

/**
 * The run a state and resume options make, or why they cannot be resumed
 * (bad_state: the state is not one this version wrote, is malformed, or was
 * changed; bad_resume: the results or the context do not match it). Reads
 * the state once, as JSON: a getter that throws is a bad_state too.
 */
export async function resumption(state: unknown, options: ResumeOptions): Promise<Resumption | Refusal> {
  const started = now();
  if (!isPlainObject(state))
    return refuse("bad_state", "The state is not an object: pass the `state` of a suspended result");
  let st: SuspendedState;
  try {
    const problem = sizeProblem(state as Record<string, unknown>);
    if (problem) return refuse("bad_state", `The state cannot be resumed: ${problem}`);
    st = JSON.parse(JSON.stringify(state)) as SuspendedState;
  } catch (e) {
    return refuse("bad_state", `The state cannot be resumed: it is not JSON data (${describeThrown(e)})`);
  }
  const s = st as unknown as Record<string, unknown>;
  const problem = sizeProblem(s) ?? shapeProblem(s) ?? (await macProblem(s, options.stateKey));
  if (problem) return refuse("bad_state", `The state cannot be resumed: ${problem}`);
  if (options.runId !== undefined && options.runId !== st.runId)
    return refuse(
      "bad_resume",
      `The runId option (${JSON.stringify(options.runId)}) is not the state's (${JSON.stringify(st.runId)}): ` +
        `a resumed run keeps the runId it started with; leave runId out of resume's options or pass the state's`,
    );
  const results = options.results ?? {};
  if (!isPlainObject(results)) throw new TypeError("ptc-wasm: options.results must be an object of results by call id");
  let decisions: Map<string, CallResult> | Refusal;
  try {
    decisions = decided(st, results);
  } catch (e) {
    return refuse("bad_resume", `The results could not be read (${describeThrown(e)})`);
  }
  if (!(decisions instanceof Map)) return decisions;
  if (st.context && st.kind === "program") {
    const now = contextHash(options.context, st.context.keys, options.resident);
    if (now !== st.context.hash)
      return refuse(
        "bad_resume",
        `The context differs from the one the run suspended with (keys ${st.context.keys.join(", ")}): ` +
          `pass the same context data (and resident context) to resume`,
      );
  }
  const { results: _results, ...runOptions } = options;
  const limits = st.limits;
  return {
    kind: st.kind,
    source: st.source,
    options:
      st.kind === "program"
        ? { ...runOptions, ...limits, memory: st.memory ?? {} }
        : { ...runOptions, ...limits, input: st.input ?? {}, ...(st.entry ? { entry: st.entry } : {}) },
    seed: { journal: st.journal, decisions, runId: st.runId, spentMs: now() - started },
  };
}

// The host's results by pending id: each goes to the call with that id, whatever the order of `results`.
function decided(st: SuspendedState, results: Record<string, CallResult>): Map<string, CallResult> | Refusal {
  const ids = new Set(st.pending.map((p) => p.id));
  const decisions = new Map<string, CallResult>();
  for (const [id, result] of Object.entries(results)) {
    if (!ids.has(id)) {
      const known = [...ids].join(", ") || "none";
      return refuse("bad_resume", `results["${id}"] names no pending call of this state (its pending calls: ${known})`);
    }
    const wrong = resultProblem(id, result);
    if (wrong) return refuse("bad_resume", wrong);
    decisions.set(id, result);
  }
  return decisions;
}

/**
 * A run's result from the driver's final status: its text (done, or suspended
 * at held calls), or a done status already read (a scalar result).
 */
export function finishedRun<R extends object>(
  text: string | DoneStatus,
  convert: (status: DoneStatus, started: number, timings: Timings) => R,
  started: number,
  timings: Timings,
  gated?: Gated,
  withJournal = false,
): R | RunSuspended {
  if (typeof text !== "string") return withJournalOf(convert(text, started, timings), gated, withJournal);
  if (gated && isSuspended(text))
    return suspendedResult(gated.base, gated.gate, JSON.parse(text) as DoneStatus, started, timings, withJournal);
  return withJournalOf(convert(doneStatus(text), started, timings), gated, withJournal);
}

// A finished run's result, with the journal of its gate when asked for.
function withJournalOf<R extends object>(result: R, gated: Gated | undefined, withJournal: boolean): R {
  if (gated && withJournal) (result as { journal?: JournalEntry[] }).journal = [...gated.gate.journal];
  return result;
}

/** A run's gate (journal.ts) and what it keeps to write its state, when the run needs one. */
export interface Gated {
  gate: ToolGate;
  base: StateBase;
  /** Time spent reading the state and indexing the journal (or recording): it counts toward timeoutMs. */
  spentMs: number;
}

/** The gate of a run about to start (both modes), or undefined when it needs none. */
export function gatedRun(
  kind: RunKind,
  source: string,
  options: RunOptions & { entry?: string; input?: unknown },
  seed?: ResumeSeed,
  started = now(),
): Gated | undefined {
  const gate = ToolGate.create(options, seed);
  if (!gate) return undefined;
  const spentMs = (seed?.spentMs ?? 0) + now() - started;
  return { gate, base: kind === "program" ? programBase(source, options) : stepFunctionBase(source, options), spentMs };
}

/** What a PTC-JSON run that may suspend keeps for its state. */
const programBase = (source: string, options: RunOptions): StateBase => ({
  kind: "program",
  source,
  limits: stateLimits(options),
  memory: options.memory,
  context: options.context,
  resident: options.resident,
});

/** What a step-function run that may suspend keeps for its state. */
const stepFunctionBase = (
  source: string,
  options: { entry?: string; input?: unknown; maxHeapBytes?: number; maxToolCalls?: number },
): StateBase => ({
  kind: "workflow",
  source,
  limits: stateLimits(options),
  entry: options.entry,
  input: options.input,
});
