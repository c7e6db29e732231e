// How each dialect's program runs, and what the page calls its parts. Examples
// name their dialect (examples.ts); main.ts renders PTC-JSON results with their
// tool calls and memory, step-function results with their trace (trace.ts).
import type { DialectId } from "./examples.js";
import type { PtcRuntime, RunResult, WorkflowResult } from "./ptc.js";

export interface RunInputs {
  /** PTC-JSON: the context; step functions: the entry's input. */
  data: Record<string, unknown>;
  memory: Record<string, unknown>;
  /** Step functions: the function to run (default: the last of the file). */
  entry?: string;
  tools: Record<string, (args: Record<string, unknown>) => unknown>;
  timeoutMs: number;
  signal: AbortSignal;
}

export type Outcome = RunResult | WorkflowResult;

export interface Dialect {
  id: DialectId;
  /** The chip next to the program's heading. */
  label: string;
  /** The program editor's accessible name. */
  programLabel: string;
  /** The first input tab: "Context" or "Input". */
  dataTab: string;
  /** The data editor's accessible name. */
  dataLabel: string;
  run(runtime: PtcRuntime, source: string, inputs: RunInputs): Promise<Outcome>;
}

export const dialects: Record<DialectId, Dialect> = {
  "ptc-json": {
    id: "ptc-json",
    label: "PTC-JSON",
    programLabel: "Program (PTC-JSON)",
    dataTab: "Context",
    dataLabel: "Context (JSON): data the program reads with load",
    run: (runtime, source, o) =>
      runtime.run(source, { context: o.data, memory: o.memory, tools: o.tools, timeoutMs: o.timeoutMs, signal: o.signal }),
  },
  "step-functions": {
    id: "step-functions",
    label: "Step functions",
    programLabel: "Program (step functions: function objects one after another)",
    dataTab: "Input",
    dataLabel: "Input (JSON): the entry function's parameters",
    run: (runtime, source, o) =>
      runtime.runWorkflow(source, { entry: o.entry, input: o.data, tools: o.tools, timeoutMs: o.timeoutMs, signal: o.signal }),
  },
};
