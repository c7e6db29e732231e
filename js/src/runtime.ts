// The in-process Runtime: checks options, drives runs on the engine instance,
// runs tool callbacks with the deadline and abort signal. Language semantics
// live in the engine; nothing here interprets a program.
import { driveRun } from "./driver.js";
import { EngineBrokenError, EngineInstance } from "./engine.js";
import {
  abortedResult,
  checkRunOptions,
  checkValidateOptions,
  DEFAULT_TIMEOUT_MS,
  engineOptionsJson,
  failure,
  now,
  payloadFor,
  programText,
  toRunResult,
  validateOptionsJson,
} from "./options.js";
import { awaitTool } from "./tools.js";
import type { Operation, ProgramInput, PtcError, RunOptions, RunResult, ValidateOptions, ValidateResult } from "./types.js";

/** What both runtimes (in-process and worker) offer. */
export interface PtcRuntime {
  run(program: ProgramInput, options?: RunOptions): Promise<RunResult>;
  validate(program: ProgramInput, options?: ValidateOptions): ValidateResult;
  formatError(error: PtcError): string;
  operations(): Operation[];
  /** Runs in flight (started and not finished). */
  readonly activeRuns: number;
  /** Releases the runtime's resources (the worker, in worker mode). */
  close(): void;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * WebAssembly memory only grows. An idle instance that grew past this (a huge
 * input once) is replaced, so the host gets the memory back.
 */
const RECYCLE_ENGINE_BYTES = 256 * 1024 * 1024;

export const BROKEN_ENGINE_MESSAGE =
  "The engine failed while running this program; it has been replaced, so the runtime is usable again";

/** Methods that need no run: served by a local engine instance in both modes. */
export class EngineHost {
  private operationList?: Operation[];
  constructor(protected readonly wasmModule: WebAssembly.Module, protected engine = EngineInstance.create(wasmModule)) {}

  validate(program: ProgramInput, options: ValidateOptions = {}): ValidateResult {
    checkValidateOptions(options);
    const text = programText(program);
    if (typeof text !== "string") return text;
    return JSON.parse(this.healthyEngine().validate(text, validateOptionsJson(options))) as ValidateResult;
  }

  /** One line a model can act on: "ValidationError at /program/steps/1: Unknown operation 'filer'. ..." */
  formatError(error: PtcError): string {
    return this.healthyEngine().formatError(JSON.stringify(error));
  }

  /** The engine's operation table: every op with its fields, description and example. */
  operations(): Operation[] {
    this.operationList ??= deepFreeze(JSON.parse(this.healthyEngine().operations()) as Operation[]);
    return this.operationList;
  }

  /** Bytes of the engine's linear memory. */
  get engineMemoryBytes(): number {
    return this.healthyEngine().memoryBytes();
  }

  // A trapped instance is dropped; a fresh one is made from the compiled module.
  protected healthyEngine(): EngineInstance {
    if (this.engine.broken) this.recycleEngine();
    return this.engine;
  }

  protected recycleEngine(): void {
    this.engine = EngineInstance.create(this.wasmModule);
  }
}

export class Runtime extends EngineHost implements PtcRuntime {
  private inFlight = 0;

  /** Runs a program. Never throws for a bad program: failures come back as { ok: false, error }. */
  async run(program: ProgramInput, options: RunOptions = {}): Promise<RunResult> {
    const started = now();
    checkRunOptions(options);
    const text = programText(program);
    if (typeof text !== "string") return text;
    if (options.signal?.aborted) return abortedResult(options.signal);
    const tools = options.tools ?? {};
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = started + timeoutMs;
    this.inFlight++;
    try {
      const { status, toolMs } = await driveRun(this.healthyEngine(), text, engineOptionsJson(options), {
        payload: (loads) => payloadFor(options, loads),
        tool: (name, args) => awaitTool(name, tools[name], args, deadline, timeoutMs, options.signal),
      });
      return toRunResult(status, started, toolMs);
    } catch (e) {
      if (!(e instanceof EngineBrokenError)) throw e;
      return failure("execution_error", `${BROKEN_ENGINE_MESSAGE} (${e.message})`);
    } finally {
      this.inFlight--;
      if (this.inFlight === 0 && this.engine.memoryBytes() > RECYCLE_ENGINE_BYTES) this.recycleEngine();
    }
  }

  /** @internal for tests of trap recovery: makes the engine trap. */
  trapForTesting(): void {
    this.healthyEngine().trapForTesting();
  }

  get activeRuns(): number {
    return this.inFlight;
  }

  close(): void {}
}
