// Entry of the engine worker under Node's worker_threads.
import { parentPort } from "node:worker_threads";
import { serveEngine } from "./worker-core.js";
import type { ToWorker } from "./worker-protocol.js";

const port = parentPort;
if (!port) throw new Error("ptc-wasm: worker.node.mjs must run in a worker thread");
const handle = serveEngine((message) => port.postMessage(message));
port.on("message", (message: ToWorker) => handle(message));
