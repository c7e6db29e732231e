// Node entry (ESM and CJS builds): reads the .wasm next to this file, since the
// generated loader's fetch() cannot read file paths in Node 20.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { createRuntimeFrom, type Runtime } from "./index.js";
import type { CreateRuntimeOptions, WasmSource } from "./types.js";

export * from "./index.js";

async function load(source: WasmSource | undefined): Promise<BufferSource | WebAssembly.Module> {
  if (source instanceof WebAssembly.Module || source instanceof ArrayBuffer || source instanceof Uint8Array)
    return source;
  const where = source ?? new URL("./ptc.wasm", import.meta.url);
  const path = where instanceof URL || where.startsWith("file:") ? fileURLToPath(where) : where;
  return readFile(path);
}

/** Loads the engine (compiled once per process) and returns a new Runtime. */
export function createRuntime(options?: CreateRuntimeOptions): Promise<Runtime> {
  return createRuntimeFrom(options, load);
}
