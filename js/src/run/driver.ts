// The run protocol, written once: start → send the context keys it loads →
// answer each tool call → done. The in-process Runtime drives it directly; in
// worker mode the worker drives it and asks the caller's thread for the
// payload and for tool outcomes.
import { describeThrown } from "../util/describe.js";
import { EngineBrokenError, type EngineInstance, type Prepared } from "../engine/engine.js";
import type { ResidentSpec } from "../engine/resident.js";
import type { ErrorCode, JsonObject, JsonValue, PtcError, RunKind, Warning } from "../types/public.js";

export interface EngineMetrics {
  memoryBytes: number;
  toolCalls: number;
}

export type DoneStatus =
  | {
      state: "done";
      ok: true;
      result: JsonValue;
      memoryDelta?: JsonObject;
      memory?: JsonObject;
      trace?: JsonValue[];
      metrics: EngineMetrics;
      warnings?: Warning[];
    }
  | {
      state: "done";
      ok: false;
      error: PtcError;
      trace?: JsonValue[];
      metrics: EngineMetrics;
      warnings?: Warning[];
    };

/** Who answered a call that no tool ran. */
export type AnswerSource = "recording" | "host";

/** What became of one tool call. */
export type ToolOutcome =
  // `from`: the answer came from a recording or the journal (replay, resume),
  // or from the host's result for a held call; a live answer has none.
  | { kind: "value"; text: string; from?: AnswerSource }
  | { kind: "failure"; message: string; from?: AnswerSource }
  // The tool answered with something that is not JSON data: a fault of the
  // host that ends the run, which no on-error or compensate may catch.
  | { kind: "fault"; message: string }
  | { kind: "timeout"; timeoutMs: number }
  // This call alone overstayed toolTimeoutMs: a failure of the call, which
  // try / on-error may catch; the run goes on.
  | { kind: "callTimeout"; toolTimeoutMs: number }
  | { kind: "abort"; reason: string }
  // The host holds the call (an approval, a deferred tool, a run asked to
  // suspend): it is not answered, and once every call still out is held the
  // run stops there, suspended (journal.ts, suspension.ts).
  | { kind: "hold" }
  // The run ends now with this execution_error, which nothing catches (a
  // replayed run asks what its recording does not hold).
  | { kind: "end"; code: ErrorCode; message: string; path: string };

/**
 * One tool call the engine issued. Several may be outstanding at once (a map
 * over items that call a tool fans out); `id` names it for its answer, `path`
 * is the JSON Pointer of the calling node (or step).
 */
export interface ToolCall {
  id: number;
  tool: string;
  path: string;
  args: JsonObject;
}

/** The JSON texts a run needs once the engine has said which context keys it loads. */
export type Payload = { context: string; memory: string; rows?: Uint8Array; readAt?: number } | { error: string };
// (`rows` may be a view of a buffer the next payload reuses: it is used at once.
// `readAt`: now() once it was read, which then doubles as the moment the engine
// is handed the run; only a payload given synchronously is taken at its word,
// as one posted from another thread has another clock.)

/** Context keys whose items the program reads only through these fields (engine/ptc_json/projection.h). */
export type Projections = Record<string, string[]>;

/** What to run: a program or a step-function file, with the engine's options for it. */
export interface RunEntry {
  kind: RunKind;
  text: string;
  engineOptions: string;
}

export interface RunIo {
  payload(loads: string[], fields?: Projections): Payload | Promise<Payload>;
  /**
   * Told each call status as the engine wrote it, before its calls go to
   * `tool`: in worker mode, the text the caller's thread reads the calls'
   * args from (they cross as the engine wrote them, parsed there once).
   */
  calls?(status: string): void;
  tool(call: ToolCall): Promise<ToolOutcome>;
  /**
   * Told after each engine step that leaves the run waiting on tools, once the
   * calls it issued (maybe none) were handed to `tool`: in worker mode, the
   * one answer to the caller's message.
   */
  waiting?(): void;
  /** A resident context (resident.ts) the run loads keys from, besides what payload sends. */
  resident?: ResidentSpec;
}

export interface Driven {
  /**
   * The done status as the engine wrote it (JSON text, see doneStatus): a big
   * result crosses to where it is used as text (a worker posts text, which any
   * nesting survives) and is parsed once, there. Empty when `status` is set.
   */
  text: string;
  /** The done status of a scalar result, read from the engine without its text (EngineInstance's ScalarDone). */
  status?: DoneStatus;
  toolMs: number;
}

/** The done status of a Driven as text (what a worker posts). */
export const drivenText = (driven: Driven): string => (driven.status ? JSON.stringify(driven.status) : driven.text);

/** Where a run's time went on the caller's side, besides the engine. */
export interface Timings {
  toolMs: number;
  payloadMs: number;
}

/** Gives the engine instance to run on: the current one, or a fresh one when it failed. */
export type EngineSource = () => EngineInstance;

export const BROKEN_ENGINE_MESSAGE =
  "The engine failed while running this program; it has been replaced, so the runtime is usable again";

// A run suspended in an instance that failed under another run: its state went
// with the instance, and the tools it called have run, so it is not redone.
function lostMessage(toolCalls: number): string {
  return (
    `The engine instance running this program failed (another run made it trap) while this run waited on a tool; ` +
    `its progress is lost and cannot resume (its ${toolCalls} tool call${toolCalls === 1 ? " has" : "s have"} already run). ` +
    `The runtime is usable again: run the program again`
  );
}

/** The one clock of js/src. */
export const now = () => performance.now();

// The engine writes every status with its state first (a run's handle travels
// beside its first status, never in the text).
const DONE = '{"state":"done"';
const isDone = (text: string) => text.startsWith(DONE);

/**
 * What a run that stopped at held calls resolves to instead of a done status,
 * {"state":"suspended","metrics":{...}}: the gate has the rest.
 */
const SUSPENDED = '{"state":"suspended"';
export const isSuspended = (text: string) => text.startsWith(SUSPENDED);

// A run that returned a value and keeps no memory, as the engine writes its
// status (engine/core/protocol.cpp): only the result between these needs
// parsing. Most runs are of this shape, and for a small result, parsing the
// whole status took longer than the rest of the JS side of the status.
const OK_HEAD = '{"state":"done","ok":true,"result":';
const OK_TAIL = ',"memoryDelta":{},"memory":{},"metrics":{"memoryBytes":';
const TOOL_CALLS = ',"toolCalls":';

// The whole number of decimal digits in text from `at` to the first other
// character, and where that is: [value, end]; end === at when there is none.
function digitsAt(text: string, at: number): [number, number] {
  let value = 0;
  let end = at;
  for (let c = text.charCodeAt(end); c >= 48 && c <= 57; c = text.charCodeAt(++end)) value = value * 10 + c - 48;
  return [value, end];
}

/** The done status in a Driven's text. */
export function doneStatus(text: string): DoneStatus {
  if (text.startsWith(OK_HEAD)) {
    // The last occurrence is the status's own: the result comes before it.
    const tail = text.lastIndexOf(OK_TAIL);
    if (tail > OK_HEAD.length) {
      // ...{"memoryBytes":N,"toolCalls":N}} to the end, read without a regular expression.
      const at = tail + OK_TAIL.length;
      const [memoryBytes, bytesEnd] = digitsAt(text, at);
      const callsAt = bytesEnd + TOOL_CALLS.length;
      const [toolCalls, callsEnd] = digitsAt(text, callsAt);
      if (
        bytesEnd > at &&
        text.startsWith(TOOL_CALLS, bytesEnd) &&
        callsEnd > callsAt &&
        callsEnd === text.length - 2 &&
        text.endsWith("}}")
      )
        return {
          state: "done",
          ok: true,
          result: JSON.parse(text.slice(OK_HEAD.length, tail)) as JsonValue,
          memoryDelta: {},
          memory: {},
          metrics: { memoryBytes, toolCalls },
        };
    }
  }
  return JSON.parse(text) as DoneStatus;
}

type CallStatus = { state: "call"; calls: ToolCall[] };

// A run waiting on tools: its handle and the call status that says which.
type First = { run: number; status: string } | Driven;

const finished = (text: string): Driven => ({ text, toolMs: 0 });

/** A run that ended with an execution_error before the engine could say more. */
export function failedRun(code: PtcError["code"], message: string): Driven {
  const error: PtcError = { type: "execution_error", code, message };
  return finished(JSON.stringify({ state: "done", ok: false, error, metrics: { memoryBytes: 0, toolCalls: 0 } }));
}

// A program or step-function file is prepared once per engine instance
// (compiled, its loads known), then each run is one crossing of the
// boundary: data in, status out. With a synchronous payload (in-process)
// nothing here waits on a promise.
function firstStatus(engine: EngineInstance, entry: RunEntry, io: RunIo, started: number): First | Promise<First> {
  const prepared = engine.prepare(entry.kind, entry.text, entry.engineOptions);
  if (typeof prepared === "string") return finished(prepared);
  // Everything since the run started (turning the data into JSON) counts toward the time limit.
  const payload = io.payload(prepared.loads, prepared.fields);
  if (payload instanceof Promise) {
    // While the payload was on its way, other runs may have made the instance
    // forget the entry: prepare again, which is a lookup when not.
    return payload.then((p) =>
      runPrepared(engine, engine.prepare(entry.kind, entry.text, entry.engineOptions), p, started, io.resident),
    );
  }
  return runPrepared(engine, prepared, payload, started, io.resident, "readAt" in payload ? payload.readAt : undefined);
}

function runPrepared(
  engine: EngineInstance,
  prepared: Prepared | string,
  payload: Payload,
  started: number,
  resident?: ResidentSpec,
  readAt = now(),
): First {
  if ("error" in payload) return failedRun("not_json", payload.error);
  if (typeof prepared === "string") return finished(prepared);
  const residentId = resident ? engine.residentId(resident) : 0;
  if (typeof residentId === "string") return finished(residentId);
  const status = engine.runPrepared(
    prepared,
    payload.context,
    payload.memory,
    readAt - started,
    payload.rows,
    residentId,
  );
  if ("scalar" in status) {
    const { result, memoryBytes, toolCalls } = status.scalar;
    const metrics = { memoryBytes, toolCalls };
    return { text: "", status: { state: "done", ok: true, result, memoryDelta: {}, memory: {}, metrics }, toolMs: 0 };
  }
  // The handle comes beside the status (0: the run is done), not in its text.
  return status.run === 0 ? finished(status.text) : { run: status.run, status: status.text };
}

/**
 * Drives a run to its end on the instance `engine` gives; synchronous when no
 * tool is called and the payload is. Never throws for a failed instance:
 * - the run's own call made it trap: an execution_error for this run;
 * - it had failed under another run before this run reached it (no tool called
 *   yet, so nothing happened that running again would repeat): the run starts
 *   over, once, on a fresh instance;
 * - it failed while this run waited on a tool: an execution_error saying the
 *   run's progress is lost.
 * started: when the run started (now()): the time spent on it since counts toward its limit.
 */
export function driveRun(
  engine: EngineSource,
  entry: RunEntry,
  io: RunIo,
  started: number,
  retried = false,
): Driven | Promise<Driven> {
  let toolCalls = 0;
  // The caller's io, counting the tool calls it makes: made for a run that
  // calls tools (starting a run reads only its payload and resident context).
  const counted = (): RunIo => ({
    payload: io.payload,
    calls: io.calls,
    tool(call) {
      toolCalls++;
      return io.tool(call);
    },
    waiting: io.waiting,
    resident: io.resident,
  });
  try {
    const instance = engine();
    const first = firstStatus(instance, entry, io, started);
    const driven =
      first instanceof Promise
        ? first.then((f) => ("run" in f ? answerCalls(instance, f.run, f.status, counted()) : f))
        : "run" in first
          ? answerCalls(instance, first.run, first.status, counted())
          : first;
    if (!(driven instanceof Promise)) return driven;
    return driven.catch((e: unknown) => broken(e, toolCalls, retried) ?? driveRun(engine, entry, io, started, true));
  } catch (e) {
    return broken(e, toolCalls, retried) ?? driveRun(engine, entry, io, started, true);
  }
}

// What a run gets when its instance failed (see driveRun); undefined: start it over.
function broken(e: unknown, toolCalls: number, retried: boolean): Driven | undefined {
  if (!(e instanceof EngineBrokenError)) throw e;
  if (!e.earlier) return failedRun("engine_crashed", `${BROKEN_ENGINE_MESSAGE} (${e.message})`);
  if (toolCalls === 0 && !retried) return undefined;
  return failedRun("engine_crashed", lostMessage(toolCalls));
}

/**
 * Answers the run's tool calls until it is done. Every call the engine issues
 * starts at once (the engine holds back those over maxConcurrency), and each
 * answer goes to the engine as it comes, in whatever order: the engine keeps
 * the program's order. Once the run is done, calls still out are ignored. A
 * held call is not answered: once all calls out are held, the run stops
 * (SUSPENDED) and the engine forgets it.
 */
function answerCalls(engine: EngineInstance, run: number, first: string, io: RunIo): Promise<Driven> {
  return new Promise<Driven>((resolve, reject) => {
    let toolMs = 0; // time during which at least one tool was out
    let out = 0; // calls not answered yet, held ones included
    let held = 0;
    let busySince = 0;
    let ended = false;
    const end = (text: string) => {
      ended = true;
      resolve({ text, toolMs });
    };
    const step = (text: string) => {
      if (isDone(text)) return end(text);
      io.calls?.(text);
      start((JSON.parse(text) as CallStatus).calls);
    };
    // True when the run stopped: every call still out is held.
    const stoppedAllHeld = () => {
      if (ended || held === 0 || held !== out) return false;
      // A step-function run's trace so far goes with it: its steps held open show as "abort".
      const { metrics, trace } = JSON.parse(engine.cancel(run, "abort", "suspended")) as DoneStatus;
      end(JSON.stringify({ state: "suspended", metrics, ...(trace ? { trace } : {}) }));
      return true;
    };
    // After each engine step (or held call) the run waits on its calls, or stops.
    const waitOrStop = () => {
      if (!stoppedAllHeld()) io.waiting?.();
    };
    const start = (calls: ToolCall[]) => {
      for (const call of calls) {
        if (out++ - held === 0) busySince = now();
        // io.tool resolves whatever the tool does (tools.ts); were it to reject,
        // the engine's run must still end, not stay open in the instance.
        void io
          .tool(call)
          .catch((e: unknown): ToolOutcome => ({ kind: "failure", message: describeThrown(e) }))
          .then((outcome) => {
            if (outcome.kind === "hold") held++;
            else --out;
            if (out - held === 0) toolMs += now() - busySince;
            if (ended) return;
            try {
              if (outcome.kind === "end") end(endedRun(engine, run, outcome));
              else if (outcome.kind === "hold") waitOrStop();
              else step(answer(engine, run, call, outcome));
            } catch (e) {
              ended = true;
              reject(e); // the instance failed (EngineBrokenError): driveRun decides
            }
          });
      }
      waitOrStop();
    };
    step(first);
  });
}

// The engine ends the run (as aborted, which frees it and gives its metrics);
// the error is the host's.
function endedRun(
  engine: EngineInstance,
  run: number,
  end: { code: ErrorCode; message: string; path: string },
): string {
  const done = JSON.parse(engine.cancel(run, "abort", end.message)) as DoneStatus & { ok: false };
  done.error = { type: "execution_error", code: end.code, message: end.message, path: end.path };
  return JSON.stringify(done);
}

function answer(engine: EngineInstance, run: number, call: ToolCall, outcome: ToolOutcome): string {
  switch (outcome.kind) {
    case "value":
      return engine.resume(run, outcome.text, call.id);
    case "failure":
      return engine.fail(run, outcome.message, call.id);
    case "callTimeout":
      return engine.fail(run, callTimeoutMessage(call, outcome.toolTimeoutMs), call.id);
    case "fault":
      return engine.cancel(run, "fault", outcome.message, call.id);
    case "timeout":
      return engine.cancel(run, "timeout", `tool '${call.tool}' had not answered after ${outcome.timeoutMs} ms`);
    case "abort":
      return engine.cancel(run, "abort", outcome.reason);
    case "hold":
    case "end":
      throw new Error(`ptc-wasm: a ${outcome.kind} outcome is not an answer`); // answerCalls handles both
  }
}

/** What a call that overstayed toolTimeoutMs fails with (after "Tool 'x' failed: "). */
export function callTimeoutMessage(call: { path: string }, toolTimeoutMs: number): string {
  return `no answer within ${toolTimeoutMs} ms (toolTimeoutMs), so the call at ${call.path} was abandoned`;
}
