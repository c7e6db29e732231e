// The run protocol, written once: start → send the context keys it loads →
// answer each tool call → done. The in-process Runtime drives it directly; in
// worker mode the worker drives it and asks the caller's thread for the
// payload and for tool outcomes.
import type { EngineInstance } from "./engine.js";
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
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "abort"; reason: string };

/** The JSON texts a run needs once the engine has said which context keys it loads. */
export type Payload = { context: string; memory: string } | { error: string };

export interface RunIo {
  payload(loads: string[]): Payload | Promise<Payload>;
  tool(name: string, args: JsonObject): Promise<ToolOutcome>;
}

export interface Driven {
  status: DoneStatus;
  toolMs: number;
}

const now = () => performance.now();

// Which context keys each recently seen program loads: with it known, a run
// starts and begins in one crossing of the boundary instead of two.
const loadsOf = new Map<string, string[]>();
const LOADS_CACHE_SIZE = 256;

function remember(program: string, loads: string[]): void {
  if (loadsOf.size >= LOADS_CACHE_SIZE) loadsOf.clear();
  loadsOf.set(program, loads);
}

async function firstStatus(engine: EngineInstance, program: string, engineOptions: string, io: RunIo, dialect: Dialect): Promise<{ run: number; status: Status } | Driven> {
  const known = dialect === "program" ? loadsOf.get(program) : undefined;
  if (known) {
    const payload = await io.payload(known);
    if (!("error" in payload)) {
      const status = JSON.parse(engine.startAndBegin(program, engineOptions, payload.context, payload.memory)) as Status & { run?: number };
      return status.state === "done" && status.run === undefined ? { status, toolMs: 0 } : { run: status.run as number, status };
    }
  }
  const first = dialect === "workflow" ? engine.startWorkflow(program, engineOptions) : engine.start(program, engineOptions);
  const ready = JSON.parse(first) as Status;
  if (ready.state !== "ready") return { status: ready as DoneStatus, toolMs: 0 };
  if (dialect === "program") remember(program, ready.loads);
  const payload = await io.payload(ready.loads);
  if ("error" in payload) {
    engine.cancel(ready.run, "abort", "");
    return { status: { state: "done", ok: false, error: { type: "execution_error", message: payload.error }, metrics: { memoryBytes: 0, toolCalls: 0 } }, toolMs: 0 };
  }
  return { run: ready.run, status: JSON.parse(engine.begin(ready.run, payload.context, payload.memory)) as Status };
}

export async function driveRun(
  engine: EngineInstance,
  program: string,
  engineOptions: string,
  io: RunIo,
  dialect: Dialect = "program",
): Promise<Driven> {
  const first = await firstStatus(engine, program, engineOptions, io, dialect);
  if (!("run" in first)) return first;
  const run = first.run;
  let status = first.status;
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
    case "timeout":
      return engine.cancel(run, "timeout", `tool '${tool}' had not answered after ${outcome.timeoutMs} ms`);
    case "abort":
      return engine.cancel(run, "abort", outcome.reason);
  }
}
