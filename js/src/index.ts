// Shared entry: the Runtime over a compiled engine module. The platform entries
// (node.ts, browser.ts) only differ in how they obtain the .wasm bytes.
import { Runtime } from "./runtime.js";
import type { CreateRuntimeOptions, WasmSource } from "./types.js";

export { Runtime } from "./runtime.js";
export type * from "./types.js";

const compiled = new Map<unknown, Promise<WebAssembly.Module>>();

/** Compiles the engine once per source and process; each runtime instantiates it. */
export function compileOnce(key: unknown, load: () => Promise<BufferSource | WebAssembly.Module>) {
  let module = compiled.get(key);
  if (!module) {
    module = load().then((bytes) => (bytes instanceof WebAssembly.Module ? bytes : WebAssembly.compile(bytes)));
    module.catch(() => compiled.delete(key));
    compiled.set(key, module);
  }
  return module;
}

export async function createRuntimeFrom(
  options: CreateRuntimeOptions | undefined,
  loadDefault: (source: WasmSource | undefined) => Promise<BufferSource | WebAssembly.Module>,
): Promise<Runtime> {
  const source = options?.wasm;
  const key = source ?? "default";
  const module = await compileOnce(key, () => loadDefault(source));
  return new Runtime(module);
}
