// The in-process Runtime: checks options, drives runs on the engine instance,
// runs tool callbacks with the deadline and abort signal. Language semantics
// live in the engine; nothing here interprets a program.
import { driveRun, type Driven, type RunIo } from "../run/driver.js";
import { EngineInstance } from "../engine/engine.js";
import { checkLoadOptions, checkResumeOptions, checkValidateOptions, runIdRefusal } from "../run/checks.js";
import type { ResumeSeed } from "../gate/journal.js";
import { compensationWarnings, effectOf, withEffects } from "../gate/effects.js";
import { resumption, sealed } from "../gate/suspension.js";
import { abortedResult, DEFAULT_MAX_TOOL_CALLS, failure, programText, validateOptionsJson } from "../run/options.js";
import { checkedError, repairHint } from "./format.js";
import { extras, extrasAtHand, loadExtras } from "../run/extras-loader.js";
import { minimalProgramInput, schemaForm } from "../run/tool-input.js";
import { declaresParameters } from "../run/descriptors.js";
import { describeThrown } from "../util/describe.js";
import { PROGRAM, STEP_FUNCTIONS, type Dialect } from "../run/dialects.js";
import { CallerRun, type CallerOptions, type Failed } from "./caller-run.js";
import {
  loadResult,
  residentOf,
  residentSpec,
  type LoadOptions,
  type LoadResult,
  type ResidentSpec,
} from "../engine/resident.js";
import { validateStepFunctionOptions } from "../run/step-function-options.js";
import type { StepsLoader } from "./steps-loader.js";
import type { ValidateWorkflowOptions, WorkflowOptions, WorkflowResult } from "../types/step-functions.js";
import type {
  AnalyzeResult,
  DescribeLanguageOptions,
  FormattableError,
  FunctionTool,
  FunctionToolOptions,
  JsonSchema,
  Operation,
  ProgramAnalysis,
  ProgramInput,
  PromptOptions,
  PtcError,
  ResumeOptions,
  RunOptions,
  RunResult,
  SchemaOptions,
  SuspendedState,
  ValidateOptions,
  ValidateResult,
  WasmModule,
  WorkflowAnalysis,
  WorkflowLanguage,
  WorkflowPromptOptions,
} from "../types/public.js";

/** What runtime.preload() loads: both parts unless one is false. */
export interface PreloadParts {
  /** The step-function dialect's engine (createRuntime's stepFunctions "lazy", a page's default). */
  stepFunctions?: boolean;
  /** The prompts, schemas and tool-args checks (a page fetches them on first use). */
  extras?: boolean;
}

/** What both runtimes (in-process and worker) offer. */
export interface PtcRuntime {
  run(program: ProgramInput, options?: RunOptions): Promise<RunResult>;
  /**
   * Loads context data into the engine once, for any number of runs (the
   * `resident` option of run()); its memory is bounded by maxResidentBytes and
   * released by close().
   */
  load(context: Record<string, unknown>, options?: LoadOptions): Promise<LoadResult>;
  runWorkflow(source: string, options?: WorkflowOptions): Promise<WorkflowResult>;
  /**
   * Continues a suspended run on this runtime (any runtime, any process): the
   * `state` of a { status: "suspended" } result, maybe through JSON, and the
   * pending calls' results by id. Resolves as run() (or runWorkflow()) does.
   */
  resume(state: SuspendedState<"program">, options?: ResumeOptions): Promise<RunResult>;
  resume(state: SuspendedState<"workflow">, options?: ResumeOptions): Promise<WorkflowResult>;
  resume(state: SuspendedState, options?: ResumeOptions): Promise<RunResult | WorkflowResult>;
  validate(program: ProgramInput, options?: ValidateOptions): ValidateResult;
  validateWorkflow(source: string, options?: ValidateWorkflowOptions): ValidateResult;
  /** What a program may do (tools, context, memory), without running it; errors as validate. */
  analyze(program: ProgramInput, options?: ValidateOptions): AnalyzeResult<ProgramAnalysis>;
  analyzeWorkflow(source: string, options?: ValidateWorkflowOptions): AnalyzeResult<WorkflowAnalysis>;
  formatError(error: FormattableError, program?: ProgramInput): string;
  operations(): Operation[];
  schema(options?: SchemaOptions): JsonSchema;
  prompt(options?: PromptOptions): string;
  workflowLanguage(): WorkflowLanguage;
  workflowSchema(options?: SchemaOptions): JsonSchema;
  workflowPrompt(options?: WorkflowPromptOptions): string;
  asFunctionTool(options?: FunctionToolOptions): FunctionTool;
  describeLanguage(options?: DescribeLanguageOptions): string;
  /**
   * Loads now what this runtime otherwise loads on first use (on a page: the
   * step-function dialect's engine, and the prompts and schemas), so that the
   * synchronous methods that need them (validateWorkflow, workflowLanguage,
   * prompt, schema, describeLanguage...) answer; Node loads them when first
   * used, synchronously: there preload() only chooses when they are read. */
  preload(parts?: PreloadParts): Promise<void>;
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
 * A recording holds at most what the run may call (maxToolCalls): a longer one
 * is refused before any of it is read, so its size cannot outrun timeoutMs.
 */
function replayTooLong(options: {
  replay?: unknown[];
  maxToolCalls?: number;
}): { ok: false; error: PtcError } | undefined {
  const max = options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS;
  if (!options.replay || options.replay.length <= max) return undefined;
  return failure(
    "execution_error",
    "tool_call_limit",
    `The recording to replay holds ${options.replay.length} calls, more than the run may make ` +
      `(maxToolCalls ${max}): replay the journal of a run with these limits, or raise maxToolCalls`,
  ) as { ok: false; error: PtcError };
}

/**
 * WebAssembly memory only grows. An idle instance that grew past what its
 * resident contexts take by more than this (a huge input once) is replaced, so
 * the host gets the memory back (CreateRuntimeOptions.recycleEngineBytes).
 */
export const RECYCLE_ENGINE_BYTES = 256 * 1024 * 1024;
const RECYCLE_IDLE_MS = 2000;

/**
 * What both modes share: the entry points of runs, checked here once and run
 * by each mode's runProgram / runSteps, and the methods that need no run,
 * served by a local engine instance.
 */
export abstract class EngineHost {
  private operationList?: Operation[];
  private stepTable?: WorkflowLanguage;
  // The local instance (validate, analyze, operations...; an in-process
  // runtime's runs): made on first use, so a worker runtime, whose runs never
  // use it, does not instantiate the engine on the page before its first run.
  private local?: EngineInstance;
  protected get engine(): EngineInstance {
    return (this.local ??= EngineInstance.create(this.wasmModule));
  }
  protected set engine(instance: EngineInstance) {
    this.local = instance;
  }
  // stepFunctions "lazy": wasmModule is PTC-JSON only, and step-function files
  // run on an instance of the module with both dialects, loaded on first use.
  protected stepsModule?: WasmModule;
  private stepsLoading?: Promise<void>;
  private stepsInstance?: EngineInstance;
  constructor(
    protected readonly wasmModule: WasmModule,
    protected readonly recycleEngineBytes = RECYCLE_ENGINE_BYTES,
    private readonly loadStepsModule?: StepsLoader,
  ) {}

  async preload(parts: PreloadParts = {}): Promise<void> {
    await Promise.all([
      parts.stepFunctions !== false && this.loadStepFunctions(),
      parts.extras !== false && loadExtras(),
    ]);
  }

  /** Loads the step-function dialect's module when this runtime loads it on first use. */
  private loadStepFunctions(): Promise<unknown> | undefined {
    if (!this.loadStepsModule || this.stepsModule) return undefined;
    const failed = this.loadStepsNow();
    if (this.loadStepsModule.now) return failed === undefined ? undefined : Promise.reject(new Error(failed));
    this.stepsLoading ??= this.loadStepsModule().then(
      (module) => this.tookStepsModule(module),
      (e: unknown) => {
        this.stepsLoading = undefined; // a later run tries again
        throw e;
      },
    );
    return this.stepsLoading;
  }

  private tookStepsModule(module: WasmModule): void {
    this.stepFunctionsLoaded((this.stepsModule = module));
  }

  /** Loads the step-function module at once where the platform can (StepsLoader.now); why not, if that failed. */
  private loadStepsNow(): string | undefined {
    try {
      if (!this.stepsModule && this.loadStepsModule?.now) this.tookStepsModule(this.loadStepsModule.now());
    } catch (e) {
      return describeThrown(e);
    }
  }

  /** Told once the step-function module is loaded (worker mode hands it to its worker). */
  protected stepFunctionsLoaded(_module: WasmModule): void {}

  /**
   * The instance that runs step functions: this runtime's own, or (stepFunctions
   * "lazy") one of the module with both dialects once loaded; undefined before.
   */
  protected stepsEngine(): EngineInstance | undefined {
    if (!this.loadStepsModule) return this.healthyEngine();
    if (!this.stepsModule) return undefined;
    if (!this.stepsInstance || this.stepsInstance.broken) this.stepsInstance = EngineInstance.create(this.stepsModule);
    return this.stepsInstance;
  }

  /** stepsEngine() for a synchronous method, or why it cannot answer yet. */
  private stepsEngineFor(what: string): EngineInstance | string {
    const failed = this.loadStepsNow();
    if (failed) return `The step-function dialect's engine (ptc.wasm) did not load (${failed}); call ${what} again`;
    return (
      this.stepsEngine() ??
      `This runtime loads the step-function dialect on first use (createRuntime's stepFunctions "lazy", ` +
        `the default on a page; the module with both dialects, ptc.wasm): runWorkflow loads it; ` +
        `await runtime.preload() before calling ${what}`
    );
  }

  /** Runs a program. Never throws for a bad program: failures come back as { ok: false, error }. */
  async run(program: ProgramInput, options: RunOptions = {}): Promise<RunResult> {
    options = PROGRAM.check(options);
    const badId = runIdRefusal(options.runId);
    if (badId) return badId;
    const text = programText(program);
    if (typeof text !== "string") return text;
    const tooLong = replayTooLong(options);
    if (tooLong) return tooLong;
    const started = this.start(PROGRAM, text, options);
    // A run that needed no tool ended synchronously: no promise but this one.
    const result = started instanceof Promise ? await started : started;
    return options.stateKey === undefined ? result : sealed(result, options.stateKey);
  }

  /**
   * Runs a step-function file (docs/step-functions.md): verified before anything
   * runs, then executed step by step. Never throws for a bad file.
   */
  async runWorkflow(source: string, options: WorkflowOptions = {}): Promise<WorkflowResult> {
    options = STEP_FUNCTIONS.check(options);
    if (typeof source !== "string") throw new TypeError("ptc-wasm: a step-function file is text");
    const badId = runIdRefusal(options.runId);
    if (badId) return badId;
    const tooLong = replayTooLong(options);
    if (tooLong) return tooLong as WorkflowResult;
    const started = this.start(STEP_FUNCTIONS, source, options);
    const result = started instanceof Promise ? await started : started;
    return options.stateKey === undefined ? result : sealed(result, options.stateKey);
  }

  /** Continues a suspended run (`state` of a { status: "suspended" } result) with its pending calls' results. */
  resume(state: SuspendedState<"program">, options?: ResumeOptions): Promise<RunResult>;
  resume(state: SuspendedState<"workflow">, options?: ResumeOptions): Promise<WorkflowResult>;
  resume(state: SuspendedState, options?: ResumeOptions): Promise<RunResult | WorkflowResult>;
  async resume(state: SuspendedState, options: ResumeOptions = {}): Promise<RunResult | WorkflowResult> {
    options = checkResumeOptions(options);
    const r = await resumption(state, options);
    if (!("seed" in r)) return r;
    const result =
      r.kind === "program"
        ? await this.start(PROGRAM, r.source, PROGRAM.check(r.options), r.seed)
        : await this.start(STEP_FUNCTIONS, r.source, STEP_FUNCTIONS.check(r.options), r.seed);
    return sealed(result, options.stateKey);
  }

  // A run of either dialect, from checked options, up to where the modes
  // differ: the engine it runs on. seed: the journal of a resumed run.
  // Synchronous (no promise made) when the run needs no tool and the mode can
  // run it at once: a tiny run's awaits were a tenth of its time.
  private start<O extends CallerOptions, R extends object>(
    dialect: Dialect<O, R>,
    text: string,
    options: O,
    seed?: ResumeSeed,
  ): R | Failed | Promise<R | Failed> {
    if (options.signal?.aborted) return abortedResult(options.signal) as Failed;
    const steps = (dialect as unknown) === STEP_FUNCTIONS;
    const loading = this.loadsFor(steps, options.tools);
    if (loading)
      return loading.then(
        () => this.startLoaded(dialect, text, options, seed),
        (e: unknown) => {
          const what = steps
            ? "the step-function dialect's engine (ptc.wasm)"
            : "the tool-args checks (dist/extras.browser.mjs)";
          const why = `This run needs ${what}, which could not be loaded (${describeThrown(e)}); run it again`;
          return failure("execution_error", "engine_crashed", why) as Failed;
        },
      );
    return this.startLoaded(dialect, text, options, seed);
  }

  // The run once what it needs is loaded.
  private startLoaded<O extends CallerOptions, R extends object>(
    dialect: Dialect<O, R>,
    text: string,
    options: O,
    seed?: ResumeSeed,
  ): R | Failed | Promise<R | Failed> {
    // Only a run that must wait yields here: resident data the caller closes
    // right after starting the run is still the run's.
    const waiting = this.beforeRun();
    if (waiting) return waiting.then(() => this.startNow(dialect, text, options, seed));
    return this.startNow(dialect, text, options, seed);
  }

  private startNow<O extends CallerOptions, R extends object>(
    dialect: Dialect<O, R>,
    text: string,
    options: O,
    seed?: ResumeSeed,
  ): R | Failed | Promise<R | Failed> {
    const resident = residentOf(options as RunOptions, this);
    if (typeof resident === "string") return failure("execution_error", "resident_closed", resident) as Failed;
    return this.execute(new CallerRun(dialect, text, options, seed, resident));
  }

  /**
   * What a run loads before it starts, on first use: the step-function module
   * (stepFunctions "lazy"), the tool-args checks when a tool declares a JSON
   * Schema for its parameters and a page has not fetched them yet.
   */
  private loadsFor(stepFunctions: boolean, tools: unknown): Promise<unknown> | undefined {
    const module = stepFunctions ? this.loadStepFunctions() : undefined;
    const checks = !extrasAtHand() && declaresParameters(tools) ? loadExtras() : undefined;
    return module && checks ? Promise.all([module, checks]) : (module ?? checks);
  }

  /** What a run waits for before it starts in this mode (nothing, unless the mode says). */
  protected beforeRun(): Promise<void> | undefined {
    return undefined;
  }

  /** Runs it in this mode (in-process or in a worker) to its result: at once when it can (no tool called). */
  protected abstract execute<R extends object>(run: CallerRun<CallerOptions, R>): R | Promise<R>;

  validate(program: ProgramInput, options: ValidateOptions = {}): ValidateResult {
    checkValidateOptions(options);
    const text = programText(program);
    if (typeof text !== "string") return text;
    return JSON.parse(this.healthyEngine().validate(text, validateOptionsJson(options))) as ValidateResult;
  }

  /** The tools a program may call (with how often), the context and memory it reads and writes; runs nothing. */
  analyze(program: ProgramInput, options: ValidateOptions = {}): AnalyzeResult<ProgramAnalysis> {
    checkValidateOptions(options);
    const text = programText(program);
    if (typeof text !== "string") return text;
    const result = JSON.parse(
      this.healthyEngine().analyze(text, validateOptionsJson(options)),
    ) as AnalyzeResult<ProgramAnalysis>;
    return withEffects(result, options.tools);
  }

  /** The tools a step-function file may call (with how often) and the input fields it reads; runs nothing. */
  analyzeWorkflow(source: string, options: ValidateWorkflowOptions = {}): AnalyzeResult<WorkflowAnalysis> {
    if (typeof source !== "string") throw new TypeError("ptc-wasm: a step-function file is text");
    const engine = this.stepsEngineFor("analyzeWorkflow");
    if (typeof engine === "string") return failure("execution_error", "bad_host_call", engine) as AnalyzeResult<never>;
    const result = JSON.parse(
      engine.analyzeWorkflow(source, validateStepFunctionOptions(options)),
    ) as AnalyzeResult<WorkflowAnalysis>;
    return withEffects(result, options.tools);
  }

  /**
   * One line a model can act on in one retry: the error type, the JSON Pointer,
   * the message with its did-you-mean and, for validation errors, the op's
   * shape: "ValidationError at /program/steps/1: Unknown operation 'filer'. ..."
   * Pass the program to get the shape also where the message has none.
   */
  formatError(error: FormattableError, program?: ProgramInput): string {
    const checked = checkedError(error);
    return this.healthyEngine().formatError(JSON.stringify(checked)) + repairHint(checked, this.operations(), program);
  }

  /** The JSON Schema (draft 2020-12) of a program, generated from the op table. */
  schema(options: SchemaOptions = {}): JsonSchema {
    return extras("runtime.schema()").programSchema(this.operations(), options);
  }

  /** The system-prompt text that teaches a model PTC-JSON (and the given tools), from the op table. */
  prompt(options: PromptOptions = {}): string {
    return extras("runtime.prompt()").languagePrompt(this.operations(), options);
  }

  /**
   * A function-calling definition for OpenAI-style APIs: { name, description,
   * parameters }, the description being the compact prompt and the parameters
   * {program: object} (with schema "full": the program's JSON Schema). The
   * call's arguments are a program: pass them to run().
   */
  asFunctionTool(options: FunctionToolOptions = {}): FunctionTool {
    const parameters = schemaForm(options.schema) === "full" ? this.fullParameters(options) : minimalProgramInput();
    return {
      name: options.name ?? "run_program",
      description: this.prompt({ tools: options.tools, context: options.context, compact: options.compact ?? true }),
      parameters,
    };
  }

  private fullParameters(options: FunctionToolOptions): JsonSchema {
    const { $schema: _dialect, ...parameters } = this.schema({ tools: options.tools ?? {} });
    return parameters;
  }

  /** Verifies a step-function file without running it (tools, entry and input optional). */
  validateWorkflow(source: string, options: ValidateWorkflowOptions = {}): ValidateResult {
    if (typeof source !== "string") throw new TypeError("ptc-wasm: a step-function file is text");
    const engine = this.stepsEngineFor("validateWorkflow");
    if (typeof engine === "string") return failure("execution_error", "bad_host_call", engine) as ValidateResult;
    const valid = JSON.parse(engine.validateWorkflow(source, validateStepFunctionOptions(options))) as ValidateResult;
    if (!valid.ok || !Object.values(options.tools ?? {}).some((tool) => effectOf(tool) === "write")) return valid;
    return compensationWarnings(valid, this.analyzeWorkflow(source, options), options.tools);
  }

  /** The engine's operation table: every op with its fields, description and example. */
  operations(): Operation[] {
    this.operationList ??= deepFreeze(JSON.parse(this.healthyEngine().operations()) as Operation[]);
    return this.operationList;
  }

  /** The engine's step table (step kinds with their keys), operators and functions of step functions. */
  workflowLanguage(): WorkflowLanguage {
    if (this.stepTable) return this.stepTable;
    const engine = this.stepsEngineFor("workflowLanguage, workflowSchema, workflowPrompt or describeLanguage");
    if (typeof engine === "string") throw new Error(`ptc-wasm: ${engine}`);
    const table = JSON.parse(engine.workflowLanguage()) as WorkflowLanguage | ValidateResult;
    // An engine without the dialect (createRuntime({ stepFunctions: false })) answers why instead.
    if ("ok" in table && !table.ok) throw new Error(`ptc-wasm: ${table.error.message}`);
    return (this.stepTable = deepFreeze(table as WorkflowLanguage));
  }

  /** The JSON Schema (draft 2020-12) of a step-function file {"functions": [...]}, from the step table. */
  workflowSchema(options: SchemaOptions = {}): JsonSchema {
    return extras("runtime.workflowSchema()").workflowSchema(this.workflowLanguage(), options);
  }

  /**
   * Details on demand, for a model that has the compact prompt: an op, a family,
   * an error code, a step kind or function of step functions, or a whole dialect
   * (what MCP's describe_language answers).
   */
  describeLanguage(options: DescribeLanguageOptions = {}): string {
    return extras("runtime.describeLanguage()").describeLanguage(this.operations(), this.workflowLanguage(), options);
  }

  /** The system-prompt text that teaches a model step functions (and the given tools), from the step table. */
  workflowPrompt(options: WorkflowPromptOptions = {}): string {
    return extras("runtime.workflowPrompt()").workflowLanguagePrompt(this.workflowLanguage(), options);
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
  // Named here: the bundles are minified without keepNames (it cost half a
  // millisecond of every import), and a public class keeps its name.
  static {
    Object.defineProperty(this, "name", { value: "Runtime" });
  }

  private inFlight = 0;
  private readonly engineSource = () => this.healthyEngine();
  private readonly stepsEngineSource = () => this.stepsEngine() as EngineInstance;
  private recycleTimer?: ReturnType<typeof setTimeout>;

  /** @internal use createRuntime() */
  constructor(wasmModule: WasmModule, recycleEngineBytes?: number, loadStepsModule?: StepsLoader) {
    super(wasmModule, recycleEngineBytes, loadStepsModule);
    this.healthyEngine(); // its runs use it: instantiated now, so createRuntime() says when that fails
  }

  private grown(): boolean {
    return this.engine.grewPast(this.recycleEngineBytes);
  }

  // Back-to-back big runs reuse the grown memory; only an instance that stays
  // idle for a while is replaced, so the host gets the memory back.
  private recycleWhenIdle(): void {
    clearTimeout(this.recycleTimer);
    this.recycleTimer = setTimeout(() => {
      if (this.inFlight === 0 && this.grown()) this.recycleEngine();
    }, RECYCLE_IDLE_MS);
    (this.recycleTimer as { unref?: () => void }).unref?.();
  }

  // Payloads being built: a context getter runs the caller's code, which may
  // start other runs (or loads) on this runtime. Those wait until the payload
  // is built and its run has started, so the engine is never entered in the
  // middle of another run's start.
  private buildingPayloads = 0;
  private async notInPayload(): Promise<void> {
    while (this.buildingPayloads > 0) await null;
  }

  protected beforeRun(): Promise<void> | undefined {
    return this.buildingPayloads > 0 ? this.notInPayload() : undefined;
  }

  // Synchronous to the end when the run calls no tool; else its promise.
  protected execute<R extends object>(run: CallerRun<CallerOptions, R>): R | Promise<R> {
    this.inFlight++;
    let driven: Driven | Promise<Driven> | undefined;
    try {
      const io: RunIo = {
        payload: (loads, fields) => {
          this.buildingPayloads++;
          try {
            return run.payload(loads, fields);
          } finally {
            this.buildingPayloads--;
          }
        },
        tool: (call) => run.tool(call),
        resident: run.resident,
      };
      const engine = run.entry.kind === "workflow" ? this.stepsEngineSource : this.engineSource;
      driven = driveRun(engine, run.entry, io, run.started);
      if (!(driven instanceof Promise)) return run.settle(run.resultOf(driven.status ?? driven.text, driven.toolMs));
    } finally {
      if (!(driven instanceof Promise)) this.executed(run);
    }
    return driven.then(
      ({ text, status, toolMs }) => {
        this.executed(run);
        return run.settle(run.resultOf(status ?? text, toolMs));
      },
      (e: unknown) => {
        this.executed(run);
        throw e;
      },
    );
  }

  // A run's end, however it ended.
  private executed(run: CallerRun<CallerOptions, object>): void {
    run.ended.end();
    this.inFlight--;
    if (this.inFlight === 0 && this.grown()) this.recycleWhenIdle();
  }

  async load(context: Record<string, unknown>, options: LoadOptions = {}): Promise<LoadResult> {
    options = checkLoadOptions(options);
    if (this.buildingPayloads > 0) await this.notInPayload();
    const made = residentSpec(context, options);
    if (!("spec" in made)) return made;
    const release = (spec: ResidentSpec) => {
      if (!this.engine.broken) this.engine.releaseResident(spec);
    };
    return loadResult(this.healthyEngine().loadResident(made.spec), made.spec, this, release);
  }

  /** Bytes the resident contexts loaded (and not closed) take in the engine. */
  get residentBytes(): number {
    return this.healthyEngine().residentBytes();
  }

  /** @internal for tests of trap recovery: makes the engine trap. */
  trapForTesting(): void {
    this.healthyEngine().trapForTesting();
  }

  get activeRuns(): number {
    return this.inFlight;
  }

  /** @internal for tests of leaks: runs the engine instance holds (started and not ended). */
  async liveEngineRunsForTesting(): Promise<number> {
    return this.engine.broken ? 0 : this.engine.liveRuns();
  }

  close(): void {
    clearTimeout(this.recycleTimer);
  }
}
