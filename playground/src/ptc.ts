// The ptc-wasm package as the page loads it: the bundler maps "ptc-wasm" to
// ./ptc/browser.mjs (a copy of dist/browser.mjs, kept external so that the
// package finds ptc.wasm and its worker next to itself). Types come from dist/.
// @ts-ignore -- resolved by scripts/bundle-playground.mjs
import * as pkg from "ptc-wasm";
import type * as Browser from "../../dist/browser.js";

export type {
  JsonObject,
  JsonValue,
  Operation,
  OperationField,
  PtcError,
  PtcRuntime,
  RunOptions,
  RunResult,
  RunSuccess,
} from "../../dist/browser.js";
import type { PtcRuntime } from "../../dist/browser.js";

declare const __PTC_WORKER__: boolean;

/** Whether the engine runs in a Web Worker (a runaway program cannot freeze the page). */
export const ENGINE_IN_WORKER: boolean = __PTC_WORKER__ && typeof Worker === "function";

export function loadRuntime(): Promise<PtcRuntime> {
  const { createRuntime } = pkg as typeof Browser;
  return ENGINE_IN_WORKER ? createRuntime({ worker: true }) : createRuntime();
}
