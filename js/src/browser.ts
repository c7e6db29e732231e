// Browser/bundler entry: fetches the .wasm next to this file (bundlers follow
// `new URL(..., import.meta.url)`), or takes bytes, a module or a URL.
import { createRuntimeFrom, type Runtime } from "./index.js";
import type { CreateRuntimeOptions, WasmSource } from "./types.js";

export * from "./index.js";

async function load(source: WasmSource | undefined): Promise<BufferSource | WebAssembly.Module> {
  if (source instanceof WebAssembly.Module || source instanceof ArrayBuffer || source instanceof Uint8Array)
    return source;
  const url = source ?? new URL("./ptc.wasm", import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`ptc-wasm: could not load ${String(url)} (HTTP ${response.status})`);
  return response.arrayBuffer();
}

/** Loads the engine (compiled once per page) and returns a new Runtime. */
export function createRuntime(options?: CreateRuntimeOptions): Promise<Runtime> {
  return createRuntimeFrom(options, load);
}
