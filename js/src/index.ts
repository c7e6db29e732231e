// Shared entry: the runtimes over a compiled engine module. The platform entries
// (node.ts, browser.ts) only differ in how they obtain the .wasm and start workers.
import { Runtime } from "./runtime.js";
import type { CreateRuntimeOptions, WasmSource } from "./types.js";
import { WorkerRuntime } from "./worker-runtime.js";
import type { WorkerPort } from "./worker-protocol.js";

export { Runtime, type PtcRuntime } from "./runtime.js";
export { WorkerRuntime } from "./worker-runtime.js";
export type * from "./types.js";
export type { TraceEntry, ValidateWorkflowOptions, WorkflowOptions, WorkflowResult } from "./workflows.js";
export type { JsonSchema, SchemaOptions } from "./schema.js";
export type { PromptOptions } from "./prompt.js";
export { approximateTokens } from "./prompt.js";
export { isToolDescriptor } from "./descriptors.js";

export interface Platform {
  loadWasm(source: WasmSource | undefined): Promise<BufferSource | WebAssembly.Module>;
  /** What starts an engine worker; loaded when a worker runtime is first created. */
  workers(): Promise<() => WorkerPort>;
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
  const module = await compileOnce(options.wasm, platform);
  return options.worker ? new WorkerRuntime(module, await platform.workers()) : new Runtime(module);
}
