// Checking the options of every entry point the same way: run(), runWorkflow(),
// validate(), the sessions of the MCP server and the AI SDK tool, and the CLI's
// flags. A wrong option is the caller's bug: a TypeError (a usage error in the
// CLI), never a result.
import { describeThrown } from "../util/describe.js";
import { descriptorProblem } from "./descriptors.js";
import { ENGINE_LIMITS } from "../types/engine-tables.js";
import type { LoadOptions } from "../engine/resident.js";
import type { PtcError, ResumeOptions, RunOptions, ValidateOptions } from "../types/public.js";

/** The longest timer JavaScript can set (longer ones fire at once). */
export const MAX_TIMEOUT_MS = ENGINE_LIMITS.timeoutMs.max;

/**
 * The numeric limits and their largest values: the engine's from its limits
 * table (engine/core/limits.h), so the package refuses what the engine would
 * not honour; the rest are the package's own.
 */
export const LIMIT_MAX = {
  timeoutMs: ENGINE_LIMITS.timeoutMs.max,
  maxHeapBytes: ENGINE_LIMITS.maxHeapBytes.max,
  maxResidentBytes: Number.MAX_SAFE_INTEGER,
  maxDepth: ENGINE_LIMITS.maxDepth.max,
  /** Tool calls per run. */
  maxToolCalls: ENGINE_LIMITS.maxToolCalls.max,
  /** Tool calls outstanding at once in one run. */
  maxConcurrency: ENGINE_LIMITS.maxConcurrency.max,
  /** Of one tool call. */
  toolTimeoutMs: MAX_TIMEOUT_MS,
  /** Of one MCP message over stdio (mcp-stdio.ts): 1 GiB, past what Node can turn into one string. */
  maxMessageBytes: 2 ** 30,
};
export type LimitName = keyof typeof LIMIT_MAX;

/** Limits that count things: whole numbers. */
const COUNTS: ReadonlySet<string> = new Set(
  Object.entries(ENGINE_LIMITS)
    .filter(([, limit]) => limit.whole)
    .map(([name]) => name),
);

/** What a limit's value must be: "a positive number of at most ...". */
export const limitRule = (name: LimitName) =>
  `a positive ${COUNTS.has(name) ? "integer" : "number"} of at most ${LIMIT_MAX[name]}`;

export function limitAccepts(name: LimitName, value: unknown): boolean {
  return (
    typeof value === "number" && value > 0 && value <= LIMIT_MAX[name] && (!COUNTS.has(name) || Number.isInteger(value))
  );
}

function limitProblem(name: LimitName, value: unknown): string | undefined {
  if (limitAccepts(name, value)) return undefined;
  const got = typeof value === "number" ? String(value) : value === null ? "null" : `a ${typeof value}`;
  return `must be ${limitRule(name)}, got ${got}`;
}

export const isPlainObject = (value: unknown) => value !== null && typeof value === "object" && !Array.isArray(value);

type OptionCheck = (value: unknown) => string | undefined;

const booleanOption: OptionCheck = (value) => (typeof value === "boolean" ? undefined : "must be true or false");

const JOURNAL_SHAPE =
  "must be a journal: a list of { tool, path, args, value } or { tool, path, args, error } (a result's `journal`)";

function isJournalEntry(entry: unknown): boolean {
  if (!isPlainObject(entry)) return false;
  const e = entry as Record<string, unknown>;
  return (
    typeof e.tool === "string" &&
    typeof e.path === "string" &&
    isPlainObject(e.args) &&
    ("value" in e ? !("error" in e) : typeof e.error === "string")
  );
}

const objectOption: OptionCheck = (value) => (isPlainObject(value) ? undefined : "must be an object");
const limitOption =
  (name: LimitName): OptionCheck =>
  (value) =>
    limitProblem(name, value);

const OPTION_CHECKS: Record<string, OptionCheck> = {
  context: objectOption,
  memory: objectOption,
  tools: (value) => {
    if (!isPlainObject(value)) return "must be an object";
    for (const [name, tool] of Object.entries(value as object)) {
      const problem = descriptorProblem(tool);
      if (problem) return `entry '${name}' ${problem}`;
    }
    return undefined;
  },
  input: objectOption,
  entry: (value) => (typeof value === "string" ? undefined : "must be a function name"),
  timeoutMs: limitOption("timeoutMs"),
  maxHeapBytes: limitOption("maxHeapBytes"),
  maxResidentBytes: limitOption("maxResidentBytes"),
  // Which runtime's load() made it is checked where the run starts (resident.ts).
  resident: (value) => (value !== null && typeof value === "object" ? undefined : "must be what load() returned"),
  maxDepth: limitOption("maxDepth"),
  maxMessageBytes: limitOption("maxMessageBytes"),
  maxToolCalls: limitOption("maxToolCalls"),
  maxConcurrency: limitOption("maxConcurrency"),
  toolTimeoutMs: limitOption("toolTimeoutMs"),
  trace: booleanOption,
  remember: booleanOption,
  suspend: booleanOption,
  journal: booleanOption,
  replay: (value) => (Array.isArray(value) && value.every(isJournalEntry) ? undefined : JOURNAL_SHAPE),
  stateKey: (value) =>
    (typeof value === "string" && value.length > 0) ||
    ((value instanceof Uint8Array || value instanceof ArrayBuffer) && value.byteLength > 0)
      ? undefined
      : "must be a non-empty text or bytes (Uint8Array, ArrayBuffer)",
  approve: (value) => (typeof value === "function" ? undefined : "must be a function deciding a held call"),
  results: (value) => (isPlainObject(value) ? undefined : "must be an object of results by pending call id"),
  signal: (value) => {
    const s = value as AbortSignal;
    return s && typeof s.aborted === "boolean" && typeof s.addEventListener === "function"
      ? undefined
      : "must be an AbortSignal";
  },
};

const unreadable = (name: string, e: unknown) =>
  new TypeError(`ptc-wasm: options.${name} could not be read (${describeThrown(e)})`);

function copyTools(tools: object): object {
  try {
    return { ...tools };
  } catch (e) {
    throw unreadable("tools", e);
  }
}

/**
 * The named options, checked the same way for every entry point (run,
 * runWorkflow, sessions, the CLI) and read once: the copy returned is what the
 * run uses, so a getter runs once, and one that throws is a TypeError naming
 * the option. Throws TypeError for anything of the wrong type (a caller's bug,
 * not a bad program).
 */
export function checkedOptions<T extends object>(options: T, names: readonly (keyof T & string)[]): T {
  if (!isPlainObject(options)) throw new TypeError("ptc-wasm: options must be an object");
  const checked: Record<string, unknown> = {};
  for (const name of names) {
    let value: unknown;
    try {
      value = (options as Record<string, unknown>)[name];
    } catch (e) {
      throw unreadable(name, e);
    }
    if (value === undefined) continue;
    let problem: string | undefined;
    try {
      problem = OPTION_CHECKS[name]?.(value);
    } catch (e) {
      throw unreadable(name, e); // an object posing as an AbortSignal, whose getters throw
    }
    if (problem) throw new TypeError(`ptc-wasm: options.${name} ${problem}`);
    // The tools are copied: their names (sent to the engine) and the functions
    // called are then the same, whatever the object's getters do.
    checked[name] = name === "tools" ? copyTools(value as object) : value;
  }
  return checked as T;
}

// An option read into `checked`: the problem with its value, else undefined.
function take(checked: Record<string, unknown>, name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const problem = OPTION_CHECKS[name]?.(value);
  if (problem) return problem;
  checked[name] = name === "tools" ? { ...(value as object) } : value;
  return undefined;
}

/**
 * The options of run(), checked as checkedOptions checks them, in the same
 * order. Each is read by its name at a place of its own: a loop over the
 * names read them by a computed key, which in a loop over 18 names is a
 * lookup in V8's megamorphic cache per name (a third of a microsecond of
 * every run, most of it for options not given).
 */
export function checkRunOptions(options: RunOptions): RunOptions {
  if (!isPlainObject(options)) throw new TypeError("ptc-wasm: options must be an object");
  const checked: Record<string, unknown> = {};
  let name = "";
  let problem: string | undefined;
  try {
    problem =
      take(checked, (name = "context"), options.context) ??
      take(checked, (name = "resident"), options.resident) ??
      take(checked, (name = "memory"), options.memory) ??
      take(checked, (name = "tools"), options.tools) ??
      take(checked, (name = "timeoutMs"), options.timeoutMs) ??
      take(checked, (name = "maxHeapBytes"), options.maxHeapBytes) ??
      take(checked, (name = "maxDepth"), options.maxDepth) ??
      take(checked, (name = "maxToolCalls"), options.maxToolCalls) ??
      take(checked, (name = "maxConcurrency"), options.maxConcurrency) ??
      take(checked, (name = "toolTimeoutMs"), options.toolTimeoutMs) ??
      take(checked, (name = "trace"), options.trace) ??
      take(checked, (name = "signal"), options.signal) ??
      take(checked, (name = "suspend"), options.suspend) ??
      take(checked, (name = "journal"), options.journal) ??
      take(checked, (name = "replay"), options.replay) ??
      take(checked, (name = "stateKey"), options.stateKey) ??
      take(checked, (name = "singleTurn"), options.singleTurn) ??
      take(checked, (name = "runId"), options.runId);
  } catch (e) {
    throw unreadable(name, e); // a getter that throws, or an object posing as an AbortSignal
  }
  if (problem) throw new TypeError(`ptc-wasm: options.${name} ${problem}`);
  return checked as RunOptions;
}

/** The options of resume(); see checkedOptions. */
export function checkResumeOptions(options: ResumeOptions): ResumeOptions {
  return checkedOptions(options, [
    "results",
    "tools",
    "context",
    "resident",
    "timeoutMs",
    "toolTimeoutMs",
    "maxConcurrency",
    "trace",
    "journal",
    "suspend",
    "signal",
    "stateKey",
    "runId",
  ]);
}

/** The longest `runId` a host may choose. */
export const MAX_RUN_ID_LENGTH = 128;
const RUN_ID = /^[!-~]+$/;

/**
 * A host's `runId` (run(), runWorkflow()) that cannot name a run: why, else
 * undefined. Not a TypeError as the other options: a run id often comes from
 * data (a job's id), so a bad one is a result, a validation_error naming the
 * option, and nothing runs.
 */
export function runIdRefusal(runId: unknown): { ok: false; error: PtcError } | undefined {
  if (runId === undefined) return undefined;
  let problem: string | undefined;
  if (typeof runId !== "string") problem = `is a ${runId === null ? "null" : typeof runId}`;
  else if (runId.length === 0) problem = "is empty";
  else if (runId.length > MAX_RUN_ID_LENGTH) problem = `is ${runId.length} characters long`;
  else if (!RUN_ID.test(runId)) {
    const at = [...runId].findIndex((ch) => !RUN_ID.test(ch));
    problem = `holds ${JSON.stringify(runId[at])} at index ${at}`;
  }
  if (problem === undefined) return undefined;
  const message =
    `The run option runId ${problem}: it must be 1 to ${MAX_RUN_ID_LENGTH} characters of printable ASCII ` +
    `without spaces ('!' to '~'), such as a job id ("job-42"); nothing ran`;
  return { ok: false, error: { type: "validation_error", code: "bad_run_id", message } };
}

/** The options of load(); see checkedOptions. */
export function checkLoadOptions(options: LoadOptions): LoadOptions {
  return checkedOptions(options, ["maxResidentBytes", "timeoutMs"]);
}

export function checkValidateOptions(options: ValidateOptions): void {
  const problem = options.maxDepth === undefined ? undefined : limitProblem("maxDepth", options.maxDepth);
  if (problem) throw new TypeError(`ptc-wasm: options.maxDepth ${problem}`);
  if (options.tools !== undefined && (options.tools === null || typeof options.tools !== "object"))
    throw new TypeError("ptc-wasm: options.tools must be a list of names or an object of tools");
  if (options.context !== undefined && (options.context === null || typeof options.context !== "object"))
    throw new TypeError("ptc-wasm: options.context must be an object");
  if (options.contextKeys !== undefined && !Array.isArray(options.contextKeys))
    throw new TypeError("ptc-wasm: options.contextKeys must be a list of names");
}
