// The ptc-wasm package as the page loads it: the bundler maps "ptc-wasm" to
// ./ptc/browser.mjs (a copy of dist/browser.mjs, kept external so that the
// package finds ptc.wasm and its worker next to itself). Types come from dist/types/.
// @ts-ignore -- resolved by scripts/bundle-playground.mjs
import * as pkg from "ptc-wasm";
import type * as Browser from "../../dist/types/browser.mjs";
import type { PtcRuntime, RunResult } from "../../dist/types/browser.mjs";

export type {
  CallResult,
  JournalEntry,
  JsonObject,
  JsonValue,
  Operation,
  OperationField,
  PtcError,
  PtcRuntime,
  RunOptions,
  RunResult,
  RunSuccess,
  RunSuspended,
  Tool,
  ToolCallTrace,
  TraceEntry,
  WorkflowResult,
} from "../../dist/types/browser.mjs";

/** Defined by the bundler: whether the package has its worker build. */
declare const __PTC_WORKER__: boolean;

export interface Engine {
  runtime: PtcRuntime;
  /** The engine runs in a Web Worker: a runaway program cannot freeze the page. */
  inWorker: boolean;
}

const WARM_UP = '{"program": {"op": "literal", "value": null}}';

/**
 * The engine, in a Web Worker when the package and the browser allow it (a
 * first throwaway run boots the worker and proves it works), else in the page.
 */
export async function loadEngine(): Promise<Engine> {
  const { createRuntime } = pkg as typeof Browser;
  if (__PTC_WORKER__ && typeof Worker === "function") {
    const runtime = await createRuntime({ worker: true });
    performance.mark("ptc-engine-compiled");
    const probe: RunResult = await runtime.run(WARM_UP).catch((e: unknown) => ({
      ok: false as const,
      error: { type: "execution_error" as const, code: "engine_crashed" as const, message: String(e) },
    }));
    if (probe.ok) return { runtime, inWorker: true };
    runtime.close(); // e.g. a browser without module workers
  }
  return { runtime: await createRuntime({ worker: false }), inWorker: false };
}
