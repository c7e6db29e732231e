// Messages between the caller's thread and an engine worker. What may nest
// deeply (results, tool calls' args) crosses as JSON text: a structured clone
// of a deeply nested object can fail on the receiving side, which then drops
// the message (a 'messageerror' event), while a string always arrives and
// JSON.parse reads any depth.
import type { Payload, Projections, ToolOutcome } from "../run/driver.js";
import type { ResidentSpec } from "../engine/resident.js";
import type { RunKind, WasmModule } from "../types/public.js";

export type ToWorker =
  // steps: the module with both dialects when `module` is PTC-JSON only
  // (stepFunctions "lazy"), sent as "steps" when it loads after the worker started.
  | { type: "init"; module: WasmModule; steps?: WasmModule }
  | { type: "steps"; module: WasmModule }
  // submittedAt: when the caller submitted the run (ms since the epoch, as
  // performance.timeOrigin + performance.now()): the time it spent queued, or on
  // a worker that was replaced, counts toward its limit.
  | {
      type: "run";
      id: number;
      program: string;
      engineOptions: string;
      kind: RunKind;
      submittedAt: number;
      /** The id of a resident context sent before (type "resident"). */
      resident?: number;
    }
  // A resident context the worker keeps for runs (and loads into each engine
  // instance it uses); answered with "resident" when `answer` is set. Its text
  // comes once, with the first load; later (to a fresh worker) the caller sends
  // `gzip`, what the worker packed it into ("packed"), and the text is "".
  | { type: "resident"; spec: ResidentSpec; answer: boolean; gzip?: Uint8Array }
  | { type: "unresident"; id: number }
  | { type: "payload"; id: number; payload: Payload }
  | { type: "outcome"; id: number; call: number; outcome: ToolOutcome }
  | { type: "liveRuns?" }
  // Tests of trap recovery: the worker's engine instance traps.
  | { type: "trap" };

// Each run, payload and outcome message gets exactly one answer (payload?,
// calls or done), in the order they were sent; "calls" holds the call
// statuses the engine wrote meanwhile ({"state":"call","calls":[...]}, as
// text: the caller parses each once), maybe none: it waits on calls still
// out. An outcome that arrives once its run is done gets none.
export type FromWorker =
  | { type: "payload?"; id: number; loads: string[]; fields?: Projections }
  | { type: "calls"; id: number; statuses: string[] }
  // With its engine's size, so the caller can recycle a worker that grew (EngineSize).
  | ({ type: "done"; id: number; status: string; toolMs: number } & EngineSize)
  | ({ type: "liveRuns"; count: number } & EngineSize)
  | { type: "resident"; id: number; status: string }
  // After a load, the data held once: the worker packed the context's text
  // (gzip) and dropped it; the caller keeps this copy for a fresh worker, with
  // the keys' fingerprints (suspension.ts; the JSON text of [key, hash] pairs:
  // one string crosses at once, a list of a million pairs would not), and drops its own text.
  | { type: "packed"; id: number; gzip: Uint8Array; hashes: string };

/**
 * The worker's engine instance: its wasm memory (which only grows), what it
 * grew by beyond the resident contexts (EngineInstance.grownBytes) and what
 * those take (also tests of leaks).
 */
export interface EngineSize {
  memoryBytes: number;
  grownBytes: number;
  residentBytes: number;
}

/** A worker as the caller's thread sees it (Node worker_threads or a Web Worker). */
export interface WorkerPort {
  post(message: ToWorker): void;
  onMessage(listener: (message: FromWorker) => void): void;
  onError(listener: (error: unknown) => void): void;
  terminate(): void;
}
