// How each dialect's program runs. Examples name their dialect (examples.ts);
// only PTC-JSON exists today. Step functions will add an entry here calling
// runtime.runWorkflow(...) with its own result/trace rendering.
import type { DialectId } from "./examples.js";
import type { PtcRuntime, RunOptions, RunResult } from "./ptc.js";

export interface Dialect {
  id: DialectId;
  label: string;
  run(runtime: PtcRuntime, source: string, options: RunOptions): Promise<RunResult>;
}

export const dialects: Partial<Record<DialectId, Dialect>> = {
  "ptc-json": {
    id: "ptc-json",
    label: "PTC-JSON",
    run: (runtime, source, options) => runtime.run(source, options),
  },
};
