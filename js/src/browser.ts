// Browser/bundler entry: fetches the .wasm next to this file (bundlers follow
// `new URL(..., import.meta.url)`), or takes bytes, a module or a URL.
import type { Runtime, WorkerRuntime } from "./index.js";
import { createRuntimeOn, type Platform } from "./platform.js";
import type { CreateRuntimeOptions } from "./types.js";
import type { FromWorker, WorkerPort } from "./worker-protocol.js";

export * from "./index.js";

const browser: Platform = {
  async loadWasm(source) {
    if (source instanceof WebAssembly.Module || source instanceof ArrayBuffer || source instanceof Uint8Array)
      return source;
    const url = (source as URL | string | undefined) ?? new URL("./ptc.wasm", import.meta.url);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`ptc-wasm: could not load ${String(url)} (HTTP ${response.status})`);
    return response.arrayBuffer();
  },
  async workers() {
    return (): WorkerPort => {
      const worker = new Worker(new URL("./worker.browser.mjs", import.meta.url), { type: "module" });
      return {
        post: (message) => worker.postMessage(message),
        onMessage: (listener) => worker.addEventListener("message", (e) => listener(e.data as FromWorker)),
        onError: (listener) => worker.addEventListener("error", (e) => listener(e.message)),
        terminate: () => worker.terminate(),
      };
    };
  },
};

/** Loads the engine (compiled once per page) and returns a new runtime. */
export function createRuntime(options?: CreateRuntimeOptions & { worker?: false }): Promise<Runtime>;
export function createRuntime(options: CreateRuntimeOptions & { worker: true }): Promise<WorkerRuntime>;
export function createRuntime(options?: CreateRuntimeOptions): Promise<Runtime | WorkerRuntime> {
  return createRuntimeOn(browser, options);
}
