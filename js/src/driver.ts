// The run protocol, written once: start → send the context keys it loads →
// answer each tool call → done. The in-process Runtime drives it directly; in
// worker mode the worker drives it and asks the caller's thread for the
// payload and for tool outcomes.
import type { EngineInstance, PreparedProgram } from "./engine.js";
import type { JsonObject, JsonValue, PtcError } from "./types.js";

export interface EngineMetrics {
  memoryBytes: number;
  toolCalls: number;
}

export type DoneStatus =
  | { state: "done"; ok: true; result: JsonValue; memoryDelta?: JsonObject; memory?: JsonObject; trace?: JsonValue[]; metrics: EngineMetrics }
  | { state: "done"; ok: false; error: PtcError; trace?: JsonValue[]; metrics: EngineMetrics };

/** Which dialect a run speaks: PTC-JSON programs or step-function files. */
export type Dialect = "program" | "workflow";

type Status =
  | { state: "ready"; run: number; loads: string[] }
  | { state: "call"; tool: string; path: string; args: JsonObject }
  | DoneStatus;

/** What became of one tool call. */
export type ToolOutcome =
  | { kind: "value"; text: string }
  | { kind: "failure"; message: string }
  // The tool answered with something that is not JSON data: a fault of the
  // host that ends the run, which no on-error or compensate may catch.
  | { kind: "fault"; message: string }
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "abort"; reason: string };

/** The JSON texts a run needs once the engine has said which context keys it loads. */
export type Payload = { context: string; memory: string; rows?: Uint8Array } | { error: string };
// (`rows` may be a view of a buffer the next payload reuses: it is used at once.)

/** Context keys whose items the program reads only through these fields (engine/ptc/projection.h). */
export type Projections = Record<string, string[]>;

export interface RunIo {
  payload(loads: string[], fields?: Projections): Payload | Promise<Payload>;
  tool(name: string, args: JsonObject): Promise<ToolOutcome>;
}

export interface Driven {
  status: DoneStatus;
  toolMs: number;
}

/** The clock of every duration the package reports (metrics, tool and payload time). */
export const now = () => performance.now();

/** Where a run's time went on the caller's side, besides the engine. */
export interface Timings {
  toolMs: number;
  payloadMs: number;
}

type First = { run: number; status: Status } | Driven;

const finished = (status: Status): Driven => ({ status: status as DoneStatus, toolMs: 0 });

function payloadFailed(message: string): Driven {
  return finished({ state: "done", ok: false, error: { type: "execution_error", message }, metrics: { memoryBytes: 0, toolCalls: 0 } });
}

// A program is prepared once per engine instance (compiled, its loads known),
// then each run is one crossing of the boundary: data in, status out. With a
// synchronous payload (in-process) nothing here waits on a promise.
function firstProgramStatus(engine: EngineInstance, program: string, engineOptions: string, io: RunIo): First | Promise<First> {
  const prepared = engine.prepare(program, engineOptions);
  if (typeof prepared === "string") return finished(JSON.parse(prepared) as Status);
  const started = now(); // turning the data into JSON counts toward the time limit
  const payload = io.payload(prepared.loads, prepared.fields);
  if (payload instanceof Promise) {
    // While the payload was on its way, other runs may have made the instance
    // forget the program: prepare again, which is a lookup when not.
    return payload.then((p) => runPrepared(engine, engine.prepare(program, engineOptions), p, started));
  }
  return runPrepared(engine, prepared, payload, started);
}

function runPrepared(engine: EngineInstance, prepared: PreparedProgram | string, payload: Payload, started: number): First {
  if ("error" in payload) return payloadFailed(payload.error);
  if (typeof prepared === "string") return finished(JSON.parse(prepared) as Status);
  const status = JSON.parse(engine.runPrepared(prepared, now() - started, payload.context, payload.memory, payload.rows)) as Status & { run?: number };
  return status.state === "call" ? { run: status.run as number, status } : finished(status);
}

async function firstWorkflowStatus(engine: EngineInstance, source: string, engineOptions: string, io: RunIo): Promise<First> {
  const ready = JSON.parse(engine.startWorkflow(source, engineOptions)) as Status;
  if (ready.state !== "ready") return finished(ready);
  const payload = await io.payload(ready.loads);
  if ("error" in payload) {
    engine.cancel(ready.run, "abort", "");
    return payloadFailed(payload.error);
  }
  return { run: ready.run, status: JSON.parse(engine.begin(ready.run, payload.context, payload.memory)) as Status };
}

/** Drives a run to its end; synchronous when no tool is called and the payload is. */
export function driveRun(
  engine: EngineInstance,
  program: string,
  engineOptions: string,
  io: RunIo,
  dialect: Dialect = "program",
): Driven | Promise<Driven> {
  const first = dialect === "program" ? firstProgramStatus(engine, program, engineOptions, io) : firstWorkflowStatus(engine, program, engineOptions, io);
  if (first instanceof Promise) return first.then((f) => ("run" in f ? answerCalls(engine, f.run, f.status, io) : f));
  return "run" in first ? answerCalls(engine, first.run, first.status, io) : first;
}

async function answerCalls(engine: EngineInstance, run: number, status: Status, io: RunIo): Promise<Driven> {
  let toolMs = 0;
  while (status.state === "call") {
    const waitStarted = now();
    const outcome = await io.tool(status.tool, status.args);
    toolMs += now() - waitStarted;
    status = JSON.parse(answer(engine, run, status.tool, outcome)) as Status;
  }
  return { status: status as DoneStatus, toolMs };
}

function answer(engine: EngineInstance, run: number, tool: string, outcome: ToolOutcome): string {
  switch (outcome.kind) {
    case "value":
      return engine.resume(run, outcome.text);
    case "failure":
      return engine.fail(run, outcome.message);
    case "fault":
      return engine.cancel(run, "fault", outcome.message);
    case "timeout":
      return engine.cancel(run, "timeout", `tool '${tool}' had not answered after ${outcome.timeoutMs} ms`);
    case "abort":
      return engine.cancel(run, "abort", outcome.reason);
  }
}
