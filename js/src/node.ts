// Node entry (ESM and CJS builds): reads the .wasm next to this file, since the
// generated loader's fetch() cannot read file paths in Node 20.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { provideExtras, type Extras } from "./run/extras-loader.js";
import { describeThrown } from "./util/describe.js";
import type { Runtime, WorkerRuntime } from "./index.js";
import { MissingPeerError, loadPeers } from "./agents/peers.js";
import { createRuntimeOn, type Platform } from "./runtimes/platform.js";
import { findOpenTelemetryWith, type OpenTelemetryApi } from "./run/telemetry.js";
import type { CreateRuntimeOptions } from "./types/public.js";
import type { WorkerPort } from "./runtimes/worker-protocol.js";

export * from "./index.js";

// Spans when @opentelemetry/api is installed, looked for on the first run only.
findOpenTelemetryWith(() => {
  try {
    return loadPeers("tracing", ["@opentelemetry/api"], (require) => require("@opentelemetry/api") as OpenTelemetryApi);
  } catch (e) {
    if (e instanceof MissingPeerError) return undefined;
    throw e;
  }
});

// Prompts, schemas and the tool-args validator: dist/extras.cjs, next to this
// file, required by the first call that needs them (see extras.ts).
provideExtras(() => {
  const file = new URL("./extras.cjs", import.meta.url);
  try {
    return createRequire(import.meta.url)(fileURLToPath(file)) as Extras;
  } catch (e) {
    const why = (e as { code?: unknown }).code === "MODULE_NOT_FOUND" ? "it is missing" : describeThrown(e);
    throw new Error(
      `ptc-wasm: cannot load ${fileURLToPath(file)}, which holds the prompts, schemas and tool-args checks ` +
        `(${why}): a bundle of this package must copy node_modules/ptc-wasm/dist/extras.cjs next to it, ` +
        `as it does ptc.wasm`,
      { cause: e },
    );
  }
});

const node: Platform = {
  // The .wasm file is compiled synchronously, once per process: Node (unlike a
  // browser's main thread) allows it, and it is ~1 ms of a ~18 ms cold start
  // faster than WebAssembly.compile, whose background steps wait on the event
  // loop. V8 compiles the functions lazily either way, on their first call.
  // (readFileSync would be no faster: importing node:fs costs as much.)
  async loadWasm(source, file) {
    if (source instanceof WebAssembly.Module || source instanceof ArrayBuffer || source instanceof Uint8Array)
      return source;
    // Spelled out, not built from `file`, so that bundlers see both files.
    const where =
      (source as URL | string | undefined) ??
      (file === "ptc.wasm" ? new URL("./ptc.wasm", import.meta.url) : new URL("./ptc-json.wasm", import.meta.url));
    return new WebAssembly.Module(
      await readFile(where instanceof URL || where.startsWith("file:") ? fileURLToPath(where) : where),
    );
  },
  // worker_threads takes milliseconds to import, and most runtimes never start
  // a worker: it is loaded with the first worker runtime.
  async workers() {
    const { Worker } = await import("node:worker_threads");
    return (): WorkerPort => {
      const worker = new Worker(new URL("./worker.node.mjs", import.meta.url));
      // An idle worker must not keep the process alive (runs in flight hold
      // timers that do). Adding a "message" listener refs the worker again, so
      // it is unref'd after each listener.
      const unrefAfter = (add: () => void) => {
        add();
        worker.unref();
      };
      return {
        post: (message) => worker.postMessage(message),
        onMessage: (listener) => unrefAfter(() => worker.on("message", listener)),
        onError: (listener) => unrefAfter(() => worker.on("error", listener)),
        terminate: () => void worker.terminate(),
      };
    };
  },
};

/** Loads the engine (compiled once per process) and returns a new runtime. */
export function createRuntime(options?: CreateRuntimeOptions & { worker?: false }): Promise<Runtime>;
export function createRuntime(options: CreateRuntimeOptions & { worker: true }): Promise<WorkerRuntime>;
export function createRuntime(options?: CreateRuntimeOptions): Promise<Runtime | WorkerRuntime> {
  return createRuntimeOn(node, options);
}
