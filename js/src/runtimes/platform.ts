// What the platform entries (node.ts, browser.ts) share: compiling the engine
// once and building a runtime over it. Internal: the entries differ only in how
// they obtain the .wasm and start workers, and export createRuntime.
import { Runtime } from "./runtime.js";
import type { CreateRuntimeOptions, WasmSource } from "../types/public.js";
import type { StepsLoader } from "./steps-loader.js";
import { WorkerRuntime } from "./worker-runtime.js";
import type { WorkerPort } from "./worker-protocol.js";

/** The package's engine modules: both dialects, or PTC-JSON only (CreateRuntimeOptions.stepFunctions false). */
export type WasmFile = "ptc.wasm" | "ptc-json.wasm";

export interface Platform {
  /** `source` when given, else `file` next to the package's JS. */
  loadWasm(source: WasmSource | undefined, file: WasmFile): Promise<BufferSource | WebAssembly.Module>;
  /**
   * `file` next to the package's JS, read and compiled at once, where the
   * platform can (Node): the step-function module of Node's default is then
   * loaded when first needed, by synchronous methods too.
   */
  loadWasmSync?(file: WasmFile): WebAssembly.Module;
  /** What starts an engine worker; loaded when a worker runtime is first created. */
  workers(options: CreateRuntimeOptions): Promise<() => WorkerPort>;
  /**
   * A worker runtime's first worker is started while the engine's .wasm is
   * fetched and compiled, not after: its script loads meanwhile (a page).
   */
  startsWorkerEarly?: boolean;
}

const compiled = new Map<unknown, Promise<WebAssembly.Module>>();
// The modules compiled synchronously (Platform.loadWasmSync), by file.
const compiledNow = new Map<WasmFile, WebAssembly.Module>();

/** Compiles the engine once per source and process; each runtime instantiates it. */
function compileOnce(source: WasmSource | undefined, file: WasmFile, platform: Platform): Promise<WebAssembly.Module> {
  const loadNow = platform.loadWasmSync;
  // The package's own file, where the platform reads it at once: shared with the synchronous loads.
  if (source === undefined && loadNow) return new Promise((resolve) => resolve(compileNow(file, loadNow)));
  const key = source ?? file;
  let module = compiled.get(key);
  if (!module) {
    module = platform
      .loadWasm(source, file)
      .then((bytes) => (bytes instanceof WebAssembly.Module ? bytes : WebAssembly.compile(bytes)));
    module.catch(() => compiled.delete(key));
    compiled.set(key, module);
  }
  return module;
}

/** `file` compiled synchronously, once per process. */
function compileNow(file: WasmFile, load: (file: WasmFile) => WebAssembly.Module): WebAssembly.Module {
  let module = compiledNow.get(file);
  if (!module) compiledNow.set(file, (module = load(file)));
  return module;
}

/**
 * `stepFunctions` when the caller did not say: the PTC-JSON engine first, and
 * the step-function dialect when first used ("lazy"). A page fetches it on
 * first use (its synchronous methods say to await runtime.preload() until
 * then); Node (Platform.loadWasmSync) reads it when anything first needs it,
 * synchronous methods included, so that every method answers as with true.
 */
export async function createRuntimeOn(
  platform: Platform,
  options: CreateRuntimeOptions = {},
  stepFunctionsByDefault: true | "lazy" = "lazy",
): Promise<Runtime | WorkerRuntime> {
  const recycle = options.recycleEngineBytes;
  if (recycle !== undefined && !(typeof recycle === "number" && recycle >= 0))
    throw new TypeError(`ptc-wasm: recycleEngineBytes must be a number of bytes (0 or more), got ${String(recycle)}`);
  const stepFunctions = options.stepFunctions;
  if (stepFunctions !== undefined && typeof stepFunctions !== "boolean" && stepFunctions !== "lazy")
    throw new TypeError(`ptc-wasm: stepFunctions must be true, false or "lazy", got ${String(stepFunctions)}`);
  // A module given is loaded whatever stepFunctions says.
  const mode = options.wasm !== undefined ? true : (stepFunctions ?? stepFunctionsByDefault);
  const compiling = compileOnce(options.wasm, mode === true ? "ptc.wasm" : "ptc-json.wasm", platform);
  let steps: StepsLoader | undefined;
  if (mode === "lazy") steps = () => compileOnce(undefined, "ptc.wasm", platform);
  const loadNow = platform.loadWasmSync;
  if (steps && loadNow && stepFunctions === undefined) steps.now = () => compileNow("ptc.wasm", loadNow);
  if (!options.worker) return new Runtime(await compiling, recycle, steps);
  // On a page, the worker's script loads while the .wasm does (engine start
  // in a worker: the two were one after the other).
  const spawn = platform.startsWorkerEarly ? await platform.workers(options) : undefined;
  const early = startEarly(spawn);
  let module: WebAssembly.Module;
  try {
    module = await compiling;
  } catch (e) {
    early?.terminate();
    throw e;
  }
  return new WorkerRuntime(module, spawn ?? (await platform.workers(options)), recycle, steps, early);
}

/**
 * The first worker, started early; undefined when starting it throws (a page
 * whose Worker refuses, a CSP): the first run then starts one and says why,
 * as without an early start. Its errors until the runtime listens (a script
 * that did not load, while the .wasm still compiled) are held, not lost.
 */
function startEarly(spawn: (() => WorkerPort) | undefined): WorkerPort | undefined {
  let port: WorkerPort | undefined;
  try {
    port = spawn?.();
  } catch {
    return undefined;
  }
  if (!port) return undefined;
  const started = port;
  const held: unknown[] = [];
  let listener: ((error: unknown) => void) | undefined;
  started.onError((error) => (listener ? listener(error) : held.push(error)));
  return {
    post: (message) => started.post(message),
    onMessage: (l) => started.onMessage(l),
    onError: (l) => {
      listener = l;
      // Later: the runtime takes the port as its worker once it has listened.
      if (held.length) queueMicrotask(() => held.splice(0).forEach(l));
    },
    terminate: () => started.terminate(),
  };
}
