// The two dialects as objects with one lifecycle: each says how its checked
// options become the engine's options and the run's payload, and how the
// engine's done status becomes its result. Both are prepared once and run by
// handle (driver.ts), and either runtime runs both through one CallerRun
// (runtimes/caller-run.ts): nothing past the entry points asks which it is.
import type { DoneStatus, Payload, Projections, Timings } from "./driver.js";
import { checkRunOptions } from "./checks.js";
import { engineOptionsJson, toRunResult } from "./options.js";
import { payloadFor } from "./payload.js";
import {
  checkStepFunctionOptions,
  toStepFunctionResult,
  stepFunctionEngineOptions,
  stepFunctionPayload,
} from "./step-function-options.js";
import type { WorkflowOptions, WorkflowResult } from "../types/step-functions.js";
import { sentLoads, type ResidentContext } from "../engine/resident.js";
import type { RunKind, RunOptions, RunResult } from "../types/public.js";

export interface Dialect<O, R> {
  /**
   * The public RunKind its suspended states carry: "workflow" for step
   * functions, as runWorkflow names them (signed states of earlier versions
   * must still resume, so the value stays).
   */
  kind: RunKind;
  /** The caller's options, checked (throws TypeError, as run() documents). */
  check(options: O): O;
  /** The options text the engine prepares the entry with (its limits, tools and entry). */
  engineOptions(options: O): string;
  /** The run's data as the engine reads it: a program's context keys, or a step-function entry's input. */
  payload(options: O, loads: string[], fields?: Projections, resident?: ResidentContext): Payload;
  /** The engine's done status as the caller's result. */
  toResult(status: DoneStatus, started: number, timings: Timings): R;
}

export const PROGRAM: Dialect<RunOptions, RunResult> = {
  kind: "program",
  check: checkRunOptions,
  engineOptions: engineOptionsJson,
  payload: (options, loads, fields, resident) => payloadFor(options, sentLoads(loads, resident, options), fields),
  toResult: toRunResult,
};

export const STEP_FUNCTIONS: Dialect<WorkflowOptions, WorkflowResult> = {
  kind: "workflow",
  check: checkStepFunctionOptions,
  engineOptions: stepFunctionEngineOptions,
  payload: (options) => stepFunctionPayload(options),
  toResult: toStepFunctionResult,
};
