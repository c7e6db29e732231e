// Node entry (ESM and CJS builds): reads the .wasm next to this file, since the
// generated loader's fetch() cannot read file paths in Node 20.
import { provideExtras, type Extras } from "./run/extras-loader.js";
import { describeThrown } from "./util/describe.js";
import type { Runtime, WorkerRuntime } from "./index.js";
import { createRuntimeOn, type Platform } from "./runtimes/platform.js";
import { findOpenTelemetryWith, type OpenTelemetryApi } from "./run/telemetry.js";
import type { CreateRuntimeOptions } from "./types/public.js";
import type { WorkerPort } from "./runtimes/worker-protocol.js";

export * from "./index.js";

interface Builtins {
  fs: Pick<typeof import("node:fs"), "readFileSync">;
  module: Pick<typeof import("node:module"), "createRequire">;
  url: Pick<typeof import("node:url"), "fileURLToPath">;
}

// Node's built-in modules as their CommonJS objects (process.getBuiltinModule,
// Node 20.16 and later), each when first used: importing node:fs or node:module
// as an ES module builds a namespace of every export, reading lazy ones
// (fs.promises, the source maps) that load more of Node, about a millisecond
// of a cold start. Older Nodes import them with the first createRuntime().
const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
let imported: Builtins | undefined;
async function importBuiltins(): Promise<void> {
  imported ??= { fs: await import("node:fs"), module: await import("node:module"), url: await import("node:url") };
}
/** A built-in module, once a runtime exists (createRuntime awaited importBuiltins where needed). */
function builtin<K extends keyof Builtins>(name: K): Builtins[K] {
  return (getBuiltin ? getBuiltin(`node:${name}`) : (imported as Builtins)[name]) as Builtins[K];
}

// Spans when @opentelemetry/api is installed, looked for on the first run only
// once a tracer provider is registered (telemetry.ts); any failure: no spans.
findOpenTelemetryWith(() => {
  try {
    return builtin("module").createRequire(import.meta.url)("@opentelemetry/api") as OpenTelemetryApi;
  } catch {
    return undefined;
  }
});

// Prompts, schemas and the tool-args validator: dist/extras.cjs, next to this
// file, required by the first call that needs them (see extras.ts).
provideExtras(() => {
  const file = new URL("./extras.cjs", import.meta.url);
  const fileURLToPath = builtin("url").fileURLToPath;
  try {
    return builtin("module").createRequire(import.meta.url)(fileURLToPath(file)) as Extras;
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

let withBoth: WebAssembly.Module | undefined; // ptc.wasm, compiled

const node: Platform = {
  // Read and compiled synchronously, once per process: Node (unlike a
  // browser's main thread) allows it, and it is faster than readFile and
  // WebAssembly.compile, whose steps each wait on the event loop. V8 compiles
  // the functions lazily either way, on their first call. Synchronous, the
  // step-function module (ptc.wasm) loads when first needed by any method.
  loadWasmSync(file) {
    const fs = builtin("fs");
    // Spelled out, not built from `file`, so that bundlers see both files.
    const both = () => (withBoth ??= new WebAssembly.Module(fs.readFileSync(new URL("./ptc.wasm", import.meta.url))));
    if (file === "ptc.wasm") return both();
    try {
      return new WebAssembly.Module(fs.readFileSync(new URL("./ptc-json.wasm", import.meta.url)));
    } catch (e) {
      // A bundle that copied only ptc.wasm (as its recipe said before
      // ptc-json.wasm was Node's first module): the engine with both dialects.
      if ((e as { code?: unknown }).code !== "ENOENT") throw e;
      return both();
    }
  },
  async loadWasm(source) {
    if (source instanceof WebAssembly.Module || source instanceof ArrayBuffer || source instanceof Uint8Array)
      return source;
    const where = source as URL | string;
    return new WebAssembly.Module(
      builtin("fs").readFileSync(typeof where === "string" && !where.startsWith("file:") ? where : new URL(where)),
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
  if (getBuiltin || imported) return createRuntimeOn(node, options);
  return importBuiltins().then(() => createRuntimeOn(node, options));
}
