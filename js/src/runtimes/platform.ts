// What the platform entries (node.ts, browser.ts) share: compiling the engine
// once and building a runtime over it. Internal: the entries differ only in how
// they obtain the .wasm and start workers, and export createRuntime.
import { Runtime } from "./runtime.js";
import type { CreateRuntimeOptions, WasmSource } from "../types/public.js";
import { WorkerRuntime } from "./worker-runtime.js";
import type { WorkerPort } from "./worker-protocol.js";

export interface Platform {
  loadWasm(source: WasmSource | undefined): Promise<BufferSource | WebAssembly.Module>;
  /** What starts an engine worker; loaded when a worker runtime is first created. */
  workers(options: CreateRuntimeOptions): Promise<() => WorkerPort>;
}

const compiled = new Map<unknown, Promise<WebAssembly.Module>>();

/** Compiles the engine once per source and process; each runtime instantiates it. */
function compileOnce(source: WasmSource | undefined, platform: Platform): Promise<WebAssembly.Module> {
  const key = source ?? "default";
  let module = compiled.get(key);
  if (!module) {
    module = platform
      .loadWasm(source)
      .then((bytes) => (bytes instanceof WebAssembly.Module ? bytes : WebAssembly.compile(bytes)));
    module.catch(() => compiled.delete(key));
    compiled.set(key, module);
  }
  return module;
}

export async function createRuntimeOn(
  platform: Platform,
  options: CreateRuntimeOptions = {},
): Promise<Runtime | WorkerRuntime> {
  const recycle = options.recycleEngineBytes;
  if (recycle !== undefined && !(typeof recycle === "number" && recycle >= 0))
    throw new TypeError(`ptc-wasm: recycleEngineBytes must be a number of bytes (0 or more), got ${String(recycle)}`);
  const module = await compileOnce(options.wasm, platform);
  return options.worker
    ? new WorkerRuntime(module, await platform.workers(options), recycle)
    : new Runtime(module, recycle);
}
