// Entry of the engine worker as a (module) Web Worker.
import { serveEngine } from "./worker-core.js";
import type { ToWorker } from "./worker-protocol.js";

const scope = self as unknown as { postMessage(message: unknown): void; onmessage: ((e: MessageEvent) => void) | null };
const handle = serveEngine((message) => scope.postMessage(message));
scope.onmessage = (event: MessageEvent) => handle(event.data as ToWorker);
