// Browser/bundler entry: fetches the .wasm next to this file (bundlers follow
// `new URL(..., import.meta.url)`), or takes bytes, a module or a URL; starts
// the engine worker from next to this file too, or from `workerUrl`.
// On a page the engine runs in a worker unless `worker: false` says otherwise:
// a program computing on the page's thread would freeze it (see workerByDefault).
// Bundlers that do not follow those URLs (esbuild) leave both files out: the
// errors then say which file to copy and which option points at it.
import type { Runtime, WorkerRuntime } from "./index.js";
import { describeThrown } from "./util/describe.js";
import { provideExtras } from "./run/extras-loader.js";
import { createRuntimeOn, type Platform, type WasmFile } from "./runtimes/platform.js";
import type { CreateRuntimeOptions } from "./types/public.js";
import type { FromWorker, WorkerPort } from "./runtimes/worker-protocol.js";

export * from "./index.js";

// The prompts, schemas and tool-args checks (extras.ts): dist/extras.browser.mjs,
// fetched on first use (a run whose tools declare JSON Schema parameters, or
// runtime.preload()), not before a page's first run: scripts/bundle.mjs keeps
// this import out of browser.mjs, and bundlers (Vite, webpack) make it a chunk.
provideExtras(() => import("./extras/extras.js"), true);

// A classic-script bundle (esbuild's default format, iife) has no import.meta.url:
// the files are then looked for next to that script, whose URL is known only
// while it first runs.
const scriptUrl =
  typeof document === "undefined" ? undefined : (document.currentScript as HTMLScriptElement | null)?.src || undefined;

const WASM_OPTION = 'createRuntime({ wasm: "/ptc.wasm" }) (a URL, the bytes or a WebAssembly.Module)';
const WORKER_OPTION = 'createRuntime({ workerUrl: "/worker.browser.mjs" })';
const IN_PROCESS =
  "or run the engine on the page's thread, which blocks the page while a program computes: createRuntime({ worker: false })";
const WASM_FIX = (url: string, file: WasmFile) =>
  `serve node_modules/ptc-wasm/dist/${file} at ${url} (copy it next to your bundle` +
  (file === "ptc.wasm" ? "" : ", and ptc.wasm, which step functions load on first use") +
  `), or pass where it is: ${WASM_OPTION}`;
const WORKER_FIX = (url: string) =>
  `serve node_modules/ptc-wasm/dist/worker.browser.mjs at ${url} (copy it next to your bundle), ` +
  `or pass where it is: ${WORKER_OPTION}; ${IN_PROCESS}`;

/** `file` next to this script; an error saying what to do when that place is unknown. */
function besideThisScript(file: string, option: string): URL {
  if (scriptUrl) return new URL(file, scriptUrl);
  throw new Error(
    `ptc-wasm: cannot tell where ${file} is (this bundle has no import.meta.url, nor a <script> URL): ` +
      `copy node_modules/ptc-wasm/dist/${file} to your site and pass its URL: ${option}` +
      (option === WORKER_OPTION ? `; ${IN_PROCESS}` : ""),
  );
}

const isWasm = (bytes: ArrayBuffer) => {
  const head = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
  return head.length === 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d;
};

async function fetchWasm(url: URL | string, file: WasmFile = "ptc.wasm"): Promise<ArrayBuffer> {
  const where = String(url);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`ptc-wasm: could not load ${where} (${describeThrown(e)}): ${WASM_FIX(where, file)}`, { cause: e });
  }
  if (!response.ok)
    throw new Error(`ptc-wasm: could not load ${where} (HTTP ${response.status}): ${WASM_FIX(where, file)}`);
  const bytes = await response.arrayBuffer();
  // A server that answers a missing file with a page (an SPA fallback) says 200.
  if (!isWasm(bytes))
    throw new Error(
      `ptc-wasm: ${where} is not the engine's .wasm (got ${response.headers.get("content-type") ?? "no content type"}, ` +
        `not WebAssembly): ${WASM_FIX(where, file)}`,
    );
  return bytes;
}

/**
 * Why a worker failed, for the run results: an ErrorEvent says so itself; a
 * plain Event means its script did not load or start, and fetching it tells why.
 */
async function describeWorkerError(event: Event, url: string): Promise<string> {
  const error = event as Partial<ErrorEvent>;
  if (typeof error.message === "string" && error.message)
    return `${error.message}${error.filename ? ` (${error.filename}:${error.lineno ?? 0})` : ""}`;
  const didNotStart = `ptc-wasm: the engine worker script did not load or start`;
  if (!/^[a-z]+:/i.test(url)) return `${didNotStart}: ${WORKER_FIX(url)}`;
  try {
    const response = await fetch(url);
    if (!response.ok) return `${didNotStart} (${url}: HTTP ${response.status}): ${WORKER_FIX(url)}`;
    const type = response.headers.get("content-type") ?? "no content type";
    return (
      `${didNotStart} (${url} loads, as ${type}): a module worker needs a JavaScript content type, ` +
      `and a Content-Security-Policy must allow its URL (worker-src or script-src); ${IN_PROCESS}`
    );
  } catch (e) {
    return `${didNotStart} (${url}: ${describeThrown(e)}): ${WORKER_FIX(url)}`;
  }
}

/** The engine worker: from `workerUrl`, else next to this file (Vite and webpack bundle it from this very expression). */
function startWorker(workerUrl: URL | string | undefined): Worker {
  if (workerUrl !== undefined) return new Worker(workerUrl, { type: "module" });
  if (import.meta.url) return new Worker(new URL("./worker.browser.mjs", import.meta.url), { type: "module" });
  return new Worker(besideThisScript("worker.browser.mjs", WORKER_OPTION), { type: "module" });
}

/**
 * Where the worker was started from, to fetch when it fails; workers do not say.
 * A guess when a bundler moved it (webpack makes import.meta.url the source's
 * file: URL: no guess then).
 */
function workerScriptUrl(workerUrl: URL | string | undefined): string {
  if (workerUrl !== undefined) {
    try {
      return String(new URL(workerUrl, globalThis.location?.href));
    } catch {
      return String(workerUrl);
    }
  }
  const base = import.meta.url || scriptUrl;
  return base && !base.startsWith("file:") ? String(new URL("worker.browser.mjs", base)) : "worker.browser.mjs";
}

const browser: Platform = {
  startsWorkerEarly: true,
  async loadWasm(source, file) {
    if (source instanceof WebAssembly.Module || source instanceof ArrayBuffer || source instanceof Uint8Array)
      return source;
    if (source !== undefined) return fetchWasm(source as URL | string);
    if (!import.meta.url) return fetchWasm(besideThisScript(file, WASM_OPTION), file);
    // Spelled out, not built from `file`: bundlers follow only a literal new URL("./x", import.meta.url).
    return fetchWasm(
      file === "ptc.wasm" ? new URL("./ptc.wasm", import.meta.url) : new URL("./ptc-json.wasm", import.meta.url),
      file,
    );
  },
  async workers({ workerUrl }) {
    if (workerUrl === undefined && !import.meta.url) besideThisScript("worker.browser.mjs", WORKER_OPTION); // fails early
    const url = workerScriptUrl(workerUrl);
    return (): WorkerPort => {
      const worker = startWorker(workerUrl);
      return {
        post: (message) => worker.postMessage(message),
        onMessage: (listener) => worker.addEventListener("message", (e) => listener(e.data as FromWorker)),
        onError: (listener) => worker.addEventListener("error", (e) => void describeWorkerError(e, url).then(listener)),
        terminate: () => worker.terminate(),
      };
    };
  },
};

let warnedNoWorker = false;

/**
 * `worker` when the caller did not say: a worker on a page (its main thread
 * also paints and answers input), in-process elsewhere (inside a Web Worker,
 * Cloudflare Workers: no page to freeze). A page without Worker (jsdom, an old
 * embedded browser) runs in-process, and says so once on the console.
 */
function workerByDefault(): boolean {
  if (typeof document === "undefined" || typeof window === "undefined") return false;
  if (typeof Worker === "function") return true;
  if (!warnedNoWorker) {
    warnedNoWorker = true;
    console.warn(
      "ptc-wasm: this page has no Worker, so the engine runs on the page's thread: the page is blocked " +
        "while a program computes, and an abort waits for the run's timeoutMs. Pass { worker: false } to say so and silence this.",
    );
  }
  return false;
}

/**
 * Loads the engine (compiled once per page) and returns a new runtime. On a
 * page the engine runs in a Web Worker (a WorkerRuntime), so that a program
 * that computes never freezes the page and an abort settles at once;
 * `{ worker: false }` runs it on the page's thread instead (a Runtime), which
 * blocks the page while a program computes. Inside a Web Worker and in
 * Cloudflare Workers the default is in-process.
 */
export function createRuntime(options: CreateRuntimeOptions & { worker: false }): Promise<Runtime>;
export function createRuntime(options: CreateRuntimeOptions & { worker: true }): Promise<WorkerRuntime>;
export function createRuntime(options?: CreateRuntimeOptions): Promise<Runtime | WorkerRuntime>;
export function createRuntime(options: CreateRuntimeOptions = {}): Promise<Runtime | WorkerRuntime> {
  // The step-function dialect's engine (ptc.wasm) is fetched when first used: a
  // page fetches the PTC-JSON engine (ptc-json.wasm) before its first run.
  return createRuntimeOn(
    browser,
    options.worker === undefined ? { ...options, worker: workerByDefault() } : options,
    "lazy",
  );
}
