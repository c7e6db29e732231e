// One instance of the wasm engine, with typed access to its Embind functions.
// Large texts cross as UTF-8 bytes written straight into wasm memory.
import createPtcModule from "../../build/wasm/ptc.cjs";

interface EmbindModule {
  validate(program: string, options: string): string;
  start(program: string, options: string): string;
  startWorkflow(source: string, options: string): string;
  validateWorkflow(source: string, options: string): string;
  begin(run: number, contextPtr: number, contextLen: number, memory: string): string;
  startAndBegin(program: string, options: string, contextPtr: number, contextLen: number, memory: string): string;
  resume(run: number, resultPtr: number, resultLen: number): string;
  fail(run: number, message: string): string;
  cancel(run: number, reason: string, detail: string): string;
  formatError(error: string): string;
  operations(): string;
  liveRuns(): number;
  debugTrap(): void;
  _malloc(size: number): number;
  _free(ptr: number): void;
  HEAPU8: Uint8Array;
}

const encoder = new TextEncoder();

export class EngineInstance {
  /** Set when the instance trapped; it is never used again. */
  broken = false;

  private constructor(private readonly m: EmbindModule) {}

  // Instantiates synchronously from an already compiled module, so a trapped
  // instance can be replaced on the spot. With MODULARIZE the object passed to
  // the factory becomes the module, ready once instantiateWasm has answered.
  static create(module: WebAssembly.Module): EngineInstance {
    const m: Record<string, unknown> = {
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
        done(new WebAssembly.Instance(module, imports));
        return {};
      },
      print: () => {},
      printErr: () => {},
    };
    void createPtcModule(m).catch(() => {});
    if (typeof m.start !== "function") throw new Error("ptc-wasm: the engine module did not initialise");
    return new EngineInstance(m as unknown as EmbindModule);
  }

  validate(program: string, options: string): string {
    return this.guard(() => this.m.validate(program, options));
  }
  start(program: string, options: string): string {
    return this.guard(() => this.m.start(program, options));
  }
  startWorkflow(source: string, options: string): string {
    return this.guard(() => this.m.startWorkflow(source, options));
  }
  validateWorkflow(source: string, options: string): string {
    return this.guard(() => this.m.validateWorkflow(source, options));
  }
  begin(run: number, context: string, memory: string): string {
    return this.guard(() => this.withBytes(context, (ptr, len) => this.m.begin(run, ptr, len, memory)));
  }
  startAndBegin(program: string, options: string, context: string, memory: string): string {
    return this.guard(() =>
      this.withBytes(context, (ptr, len) => this.m.startAndBegin(program, options, ptr, len, memory)),
    );
  }
  resume(run: number, result: string): string {
    return this.guard(() => this.withBytes(result, (ptr, len) => this.m.resume(run, ptr, len)));
  }
  fail(run: number, message: string): string {
    return this.guard(() => this.m.fail(run, message));
  }
  cancel(run: number, reason: "timeout" | "abort", detail: string): string {
    return this.guard(() => this.m.cancel(run, reason, detail));
  }
  formatError(error: string): string {
    return this.guard(() => this.m.formatError(error));
  }
  operations(): string {
    return this.guard(() => this.m.operations());
  }
  liveRuns(): number {
    return this.guard(() => this.m.liveRuns());
  }
  /** Makes the instance trap, as a bug in the engine would (tests of recovery). */
  trapForTesting(): void {
    this.guard(() => this.m.debugTrap());
  }
  /** Bytes of wasm linear memory (grows, never shrinks). */
  memoryBytes(): number {
    return this.m.HEAPU8.length;
  }

  private withBytes<T>(text: string, use: (ptr: number, len: number) => T): T {
    const bytes = encoder.encode(text);
    const ptr = this.m._malloc(bytes.length || 1);
    if (!ptr) throw new RangeError("ptc-wasm: the engine could not allocate memory for the input");
    try {
      this.m.HEAPU8.set(bytes, ptr); // HEAPU8 read after malloc: growth replaces the view
      return use(ptr, bytes.length);
    } finally {
      this.m._free(ptr);
    }
  }

  // A trap (a WebAssembly.RuntimeError) leaves the instance in an unknown state:
  // mark it broken so the runtime replaces it.
  private guard<T>(call: () => T): T {
    if (this.broken) throw new EngineBrokenError();
    try {
      return call();
    } catch (e) {
      this.broken = true;
      throw new EngineBrokenError(e);
    }
  }
}

export class EngineBrokenError extends Error {
  constructor(cause?: unknown) {
    super(`the engine instance failed${cause instanceof Error ? `: ${cause.message}` : ""}`);
    this.name = "EngineBrokenError";
  }
}
