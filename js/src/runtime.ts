// The Runtime: turns options into engine calls, runs tool callbacks, enforces
// the deadline across tool awaits, and converts results. Language semantics
// live in the engine; nothing here interprets a program.
import { EngineBrokenError, EngineInstance } from "./engine.js";
import { failureMessage, toolResultText } from "./tools.js";
import type {
  JsonObject,
  JsonValue,
  Operation,
  ProgramInput,
  PtcError,
  RunOptions,
  RunResult,
  ToolFunction,
  ValidateOptions,
  ValidateResult,
} from "./types.js";

const DEFAULT_TIMEOUT_MS = 1000;
const DEFAULT_MAX_HEAP_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_DEPTH = 50;

interface EngineMetrics {
  memoryBytes: number;
  toolCalls: number;
}
type Status =
  | { state: "ready"; run: number; loads: string[] }
  | { state: "call"; tool: string; path: string; args: JsonObject }
  | { state: "done"; ok: true; result: JsonValue; memoryDelta: JsonObject; memory: JsonObject; metrics: EngineMetrics }
  | { state: "done"; ok: false; error: PtcError; metrics: EngineMetrics };

type ToolOutcome =
  | { kind: "value"; text: string }
  | { kind: "failure"; message: string }
  | { kind: "timeout" }
  | { kind: "abort"; reason: string };

const now = () => performance.now();

function failure(type: PtcError["type"], message: string): RunResult {
  return { ok: false, error: { type, message } };
}

function programText(program: ProgramInput): string | RunResult {
  if (typeof program === "string") return program;
  try {
    const text = JSON.stringify(program);
    if (text === undefined) return failure("parse_error", 'No program given: expected {"program": {"op": ...}}');
    return text;
  } catch (e) {
    return failure("parse_error", `The program object is not JSON data: ${(e as Error).message}`);
  }
}

function checkObjectOption(name: string, value: unknown): void {
  if (value !== undefined && (value === null || typeof value !== "object" || Array.isArray(value)))
    throw new TypeError(`ptc-wasm: options.${name} must be an object`);
}

function checkLimit(name: string, value: unknown): void {
  if (value !== undefined && !(typeof value === "number" && value > 0 && Number.isFinite(value)))
    throw new TypeError(`ptc-wasm: options.${name} must be a positive number`);
}

/** JSON of only the context keys the program loads: the rest never crosses. */
function contextText(context: Record<string, unknown> | undefined, loads: string[]): string {
  if (!context || loads.length === 0) return "{}";
  const picked: Record<string, unknown> = {};
  for (const key of loads) if (Object.prototype.hasOwnProperty.call(context, key)) picked[key] = context[key];
  return JSON.stringify(picked);
}

export class Runtime {
  private engine: EngineInstance;
  private operationList?: Operation[];

  /** @internal use createRuntime() */
  constructor(private readonly wasmModule: WebAssembly.Module) {
    this.engine = EngineInstance.create(wasmModule);
  }

  /** Runs a program. Never throws for a bad program: failures come back as { ok: false, error }. */
  async run(program: ProgramInput, options: RunOptions = {}): Promise<RunResult> {
    const started = now();
    const text = programText(program);
    if (typeof text !== "string") return text;
    checkObjectOption("context", options.context);
    checkObjectOption("memory", options.memory);
    checkObjectOption("tools", options.tools);
    for (const limit of ["timeoutMs", "maxHeapBytes", "maxDepth"] as const) checkLimit(limit, options[limit]);
    if (options.signal?.aborted)
      return failure("execution_error", `The run was aborted by the caller: ${failureMessage(options.signal.reason)}`);
    try {
      return await this.drive(this.healthyEngine(), text, options, started);
    } catch (e) {
      if (!(e instanceof EngineBrokenError)) throw e;
      return failure(
        "execution_error",
        `The engine failed while running this program (${e.message}); it has been replaced, so the runtime is ` +
          `usable again`,
      );
    }
  }

  /** Checks a program without running it. With `tools`, unknown tool names are errors too. */
  validate(program: ProgramInput, options: ValidateOptions = {}): ValidateResult {
    const text = programText(program);
    if (typeof text !== "string") return text as ValidateResult;
    const engineOptions: Record<string, unknown> = { maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH };
    if (options.tools) engineOptions.tools = Array.isArray(options.tools) ? options.tools : Object.keys(options.tools);
    return JSON.parse(this.healthyEngine().validate(text, JSON.stringify(engineOptions))) as ValidateResult;
  }

  /** One line a model can act on: "ValidationError at /program/steps/1: Unknown operation 'filer'. ..." */
  formatError(error: PtcError): string {
    return this.healthyEngine().formatError(JSON.stringify(error));
  }

  /** The engine's operation table: every op with its fields, description and example. */
  operations(): Operation[] {
    this.operationList ??= JSON.parse(this.healthyEngine().operations()) as Operation[];
    return this.operationList;
  }

  /** Runs that are suspended on a tool right now. */
  get activeRuns(): number {
    return this.healthyEngine().liveRuns();
  }

  /** Bytes of the engine's linear memory. */
  get engineMemoryBytes(): number {
    return this.healthyEngine().memoryBytes();
  }

  // A trapped instance is dropped; a fresh one is made from the compiled module.
  private healthyEngine(): EngineInstance {
    if (this.engine.broken) this.engine = EngineInstance.create(this.wasmModule);
    return this.engine;
  }

  private async drive(engine: EngineInstance, text: string, options: RunOptions, started: number): Promise<RunResult> {
    const tools = options.tools ?? {};
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const engineOptions = JSON.stringify({
      timeoutMs,
      maxHeapBytes: options.maxHeapBytes ?? DEFAULT_MAX_HEAP_BYTES,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      tools: Object.keys(tools),
    });
    let status = JSON.parse(engine.start(text, engineOptions)) as Status;
    if (status.state !== "ready") return this.result(status, started, 0);
    const run = status.run;
    let context: string, memory: string;
    try {
      context = contextText(options.context, status.loads);
      memory = JSON.stringify(options.memory ?? {});
    } catch (e) {
      engine.cancel(run, "abort", "");
      return failure("execution_error", `The context or memory is not JSON data: ${(e as Error).message}`);
    }
    status = JSON.parse(engine.begin(run, context, memory)) as Status;
    const deadline = started + timeoutMs;
    let toolMs = 0;
    while (status.state === "call") {
      const waitStarted = now();
      const outcome = await this.awaitTool(status.tool, tools[status.tool], status.args, deadline, options.signal);
      toolMs += now() - waitStarted;
      status = JSON.parse(this.answer(engine, run, status.tool, timeoutMs, outcome)) as Status;
    }
    return this.result(status, started, toolMs);
  }

  private answer(engine: EngineInstance, run: number, tool: string, timeoutMs: number, outcome: ToolOutcome): string {
    switch (outcome.kind) {
      case "value":
        return engine.resume(run, outcome.text);
      case "failure":
        return engine.fail(run, outcome.message);
      case "timeout":
        return engine.cancel(run, "timeout", `tool '${tool}' had not answered after ${timeoutMs} ms`);
      case "abort":
        return engine.cancel(run, "abort", outcome.reason);
    }
  }

  // Waits for one tool, but never past the deadline or an abort; a tool still
  // pending then is abandoned (its later result is ignored).
  private awaitTool(
    name: string,
    tool: ToolFunction | undefined,
    args: JsonObject,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<ToolOutcome> {
    return new Promise((resolve) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => settle({ kind: "abort", reason: failureMessage(signal?.reason) });
      const settle = (outcome: ToolOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      if (typeof tool !== "function") return settle({ kind: "failure", message: `'${name}' is not a function` });
      if (signal?.aborted) return onAbort();
      timer = setTimeout(() => settle({ kind: "timeout" }), Math.max(0, deadline - now()));
      signal?.addEventListener("abort", onAbort, { once: true });
      let pending: Promise<unknown>;
      try {
        pending = Promise.resolve(tool(args));
      } catch (e) {
        return settle({ kind: "failure", message: failureMessage(e) });
      }
      pending.then(
        (value) => {
          try {
            settle({ kind: "value", text: toolResultText(value) });
          } catch (e) {
            settle({ kind: "failure", message: failureMessage(e) });
          }
        },
        (reason) => settle({ kind: "failure", message: failureMessage(reason) }),
      );
    });
  }

  private result(status: Status, started: number, toolMs: number): RunResult {
    if (status.state !== "done") throw new Error(`ptc-wasm: unexpected engine state ${status.state}`);
    const metrics = {
      durationMs: now() - started,
      memoryBytes: status.metrics.memoryBytes,
      toolCalls: status.metrics.toolCalls,
      toolMs,
    };
    if (!status.ok) return { ok: false, error: status.error, metrics };
    return { ok: true, result: status.result, memoryDelta: status.memoryDelta, memory: status.memory, metrics };
  }
}
