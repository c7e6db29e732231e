// Messages between the caller's thread and an engine worker.
import type { Dialect, DoneStatus, Payload, Projections, ToolOutcome } from "./driver.js";
import type { JsonObject, WasmModule } from "./types.js";

export type ToWorker =
  | { type: "init"; module: WasmModule }
  | { type: "run"; id: number; program: string; engineOptions: string; dialect: Dialect }
  | { type: "payload"; id: number; payload: Payload }
  | { type: "outcome"; id: number; outcome: ToolOutcome };

export type FromWorker =
  | { type: "payload?"; id: number; loads: string[]; fields?: Projections }
  | { type: "call"; id: number; tool: string; args: JsonObject }
  | { type: "done"; id: number; status: DoneStatus; toolMs: number };

/** A worker as the caller's thread sees it (Node worker_threads or a Web Worker). */
export interface WorkerPort {
  post(message: ToWorker): void;
  onMessage(listener: (message: FromWorker) => void): void;
  onError(listener: (error: unknown) => void): void;
  terminate(): void;
}
