// Suspended runs: the `state` a run returns when it stops at held calls, and
// resuming it. The state is plain JSON (it may be stored, sent, resumed hours
// later in another process): the program or step-function file, the limits and
// memory (or input) that shape its evaluation, a fingerprint of the context it
// loaded, the journal of its answered calls and the pending ones. Tools and
// context are passed again to resume: functions do not serialise, and context
// may be large; a context that differs from the fingerprint is refused.
// Resuming runs the program again from the start with the journal
// (journal.ts): the same path up to the pending calls, then on.
import { doneStatus, isSuspended, type DoneStatus, type Timings } from "../run/driver.js";
import { isPlainObject } from "../run/checks.js";
import { describeThrown } from "../util/describe.js";
import { callKey, ToolGate, type ResumeSeed } from "./journal.js";
import { now } from "../run/options.js";
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
  SuspendedState,
  TraceEntry,
} from "../types/public.js";

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
  /** The context keys the engine asked for (set when the payload is made). */
  loads?: string[];
}

// cyrb53: a fast 53-bit string hash. It detects a changed program or context,
// not a forged one: a state is as trusted as the program it carries.
function hash53(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
}

// The data of the loaded keys, as the program saw it (JSON, key by key).
function contextHash(context: Record<string, unknown> | undefined, keys: string[]): string {
  const own = context ?? {};
  const parts = keys.map((key) =>
    Object.prototype.propertyIsEnumerable.call(own, key) ? (JSON.stringify(own[key]) ?? "") : "\u0000absent",
  );
  return hash53(parts.join("\u0001"));
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
    ...(base.loads?.length ? { context: { keys: base.loads, hash: contextHash(base.context, base.loads) } } : {}),
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

function stateProblem(state: Record<string, unknown>): string | undefined {
  if (state.format !== STATE_FORMAT)
    return `its format is ${JSON.stringify(state.format)}, not "${STATE_FORMAT}" (pass the \`state\` of a suspended result)`;
  if (state.version !== VERSION)
    return `it was written by ptc-wasm ${String(state.version)} and this is ${VERSION}: resume it with that version, or run the program again`;
  if (state.kind !== "program" && state.kind !== "workflow") return "its kind is neither program nor workflow";
  if (!isString(state.source) || state.hash !== hash53(state.source))
    return "its source does not match its hash: the program was changed after the run suspended";
  if (!Array.isArray(state.journal) || !Array.isArray(state.pending)) return "its journal or pending list is missing";
  for (const entry of [...(state.journal as unknown[]), ...(state.pending as unknown[])]) {
    const e = entry as Record<string, unknown>;
    if (!isPlainObject(e) || !isString(e.tool) || !isString(e.path) || !isPlainObject(e.args))
      return "an entry of its journal or pending list is not {tool, path, args, ...}";
  }
  if (!isPlainObject(state.limits)) return "its limits are missing";
  return undefined;
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
 * (bad_state: the state is not one this version wrote, or was changed;
 * bad_resume: the results or the context do not match it).
 */
export function resumption(state: unknown, options: ResumeOptions): Resumption | Refusal {
  if (!isPlainObject(state))
    return refuse("bad_state", "The state is not an object: pass the `state` of a suspended result");
  const s = state as Record<string, unknown>;
  const problem = stateProblem(s);
  if (problem) return refuse("bad_state", `The state cannot be resumed: ${problem}`);
  const st = state as unknown as SuspendedState;
  const results = options.results ?? {};
  if (!isPlainObject(results)) throw new TypeError("ptc-wasm: options.results must be an object of results by call id");
  const byId = new Map(st.pending.map((p) => [p.id, p]));
  const decisions = new Map<string, CallResult[]>();
  for (const [id, result] of Object.entries(results)) {
    const call = byId.get(id);
    if (!call) {
      const ids = [...byId.keys()].join(", ") || "none";
      return refuse("bad_resume", `results["${id}"] names no pending call of this state (its pending calls: ${ids})`);
    }
    const wrong = resultProblem(id, result);
    if (wrong) return refuse("bad_resume", wrong);
    const key = callKey(call.tool, call.args);
    decisions.set(key, [...(decisions.get(key) ?? []), result]);
  }
  if (st.context && st.kind === "program") {
    const now = contextHash(options.context, st.context.keys);
    if (now !== st.context.hash)
      return refuse(
        "bad_resume",
        `The context differs from the one the run suspended with (keys ${st.context.keys.join(", ")}): ` +
          `pass the same context data to resume`,
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
    seed: { journal: st.journal, decisions },
  };
}

/** A run's result from the driver's final text: done, or suspended at held calls. */
export function finishedRun<R extends object>(
  text: string,
  convert: (status: DoneStatus, started: number, timings: Timings) => R,
  started: number,
  timings: Timings,
  gated?: Gated,
  withJournal = false,
): R | RunSuspended {
  if (gated && isSuspended(text))
    return suspendedResult(gated.base, gated.gate, JSON.parse(text) as DoneStatus, started, timings, withJournal);
  const result = convert(doneStatus(text), started, timings);
  if (gated && withJournal) (result as { journal?: JournalEntry[] }).journal = [...gated.gate.journal];
  return result;
}

/** A run's gate (journal.ts) and what it keeps to write its state, when the run needs one. */
export interface Gated {
  gate: ToolGate;
  base: StateBase;
}

/** The gate of a run about to start (both modes), or undefined when it needs none. */
export function gatedRun(
  kind: RunKind,
  source: string,
  options: RunOptions & { entry?: string; input?: unknown },
  seed?: ResumeSeed,
): Gated | undefined {
  const gate = ToolGate.create(options, seed);
  if (!gate) return undefined;
  return { gate, base: kind === "program" ? programBase(source, options) : workflowBase(source, options) };
}

/** What a PTC-JSON run that may suspend keeps for its state. */
const programBase = (source: string, options: RunOptions): StateBase => ({
  kind: "program",
  source,
  limits: stateLimits(options),
  memory: options.memory,
  context: options.context,
});

/** What a step-function run that may suspend keeps for its state. */
const workflowBase = (
  source: string,
  options: { entry?: string; input?: unknown; maxHeapBytes?: number; maxToolCalls?: number },
): StateBase => ({
  kind: "workflow",
  source,
  limits: stateLimits(options),
  entry: options.entry,
  input: options.input,
});
