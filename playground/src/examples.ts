// The examples the visitor can pick, read at build time: PTC-JSON programs from
// examples/spec-examples.json (the same file `npm start` runs) and step functions
// from examples/step-functions/ (index.json and the files' text, through
// scripts/bundle-playground.mjs). Every example names its dialect (dialects.ts).
import spec from "../../examples/spec-examples.json";
import stepFunctionFiles from "virtual:step-function-examples";
import { formatJson } from "./format.js";
import { toolsSourceFor, toolsSourceForStepFunctions } from "./tools.js";

export type DialectId = "ptc-json" | "step-functions";

export interface ExampleTurn {
  /** Program text, formatted. */
  program: string;
  /** Before this turn, the previous turn's result becomes this context key (spec 7.5). */
  contextFromPreviousResult?: string;
}

export interface Example {
  id: string;
  title: string;
  /** How the example picker names it. */
  label: string;
  group: string;
  dialect: DialectId;
  turns: ExampleTurn[];
  /** Context JSON text (for step functions: the entry's input). */
  context: string;
  /** Step functions: the function to run. */
  entry?: string;
  /** Mock tools source (JavaScript). */
  tools: string;
}

interface SpecExample {
  id: string;
  title: string;
  dialect?: DialectId;
  program?: unknown;
  turns?: { program: unknown; contextFromPreviousResult?: string }[];
  context?: Record<string, unknown>;
  tools?: Record<string, unknown>;
}

const groupOf = (id: string) => (/^7\./.test(id) ? "Spec §7: complete examples" : "Spec §5.11: memory across turns");

const ptcExamples: Example[] = (spec.examples as SpecExample[]).map((e) => ({
  id: e.id,
  title: e.title,
  // The spec's section number, the title, and how many turns.
  label: `${e.id} ${e.title}${e.turns && e.turns.length > 1 ? ` (${e.turns.length} turns)` : ""}`,
  group: groupOf(e.id),
  dialect: e.dialect ?? "ptc-json",
  turns: (e.turns ?? [{ program: e.program }]).map((t) => ({
    program: formatJson(t.program),
    contextFromPreviousResult: "contextFromPreviousResult" in t ? t.contextFromPreviousResult : undefined,
  })),
  context: formatJson(e.context ?? {}),
  tools: toolsSourceFor(e.tools),
}));

const stepFunctionExamples: Example[] = stepFunctionFiles.map((w) => ({
  id: w.id,
  title: w.title,
  label: w.title,
  group: "Step functions",
  dialect: "step-functions",
  turns: [{ program: w.source }],
  context: formatJson(w.input ?? {}),
  tools: toolsSourceForStepFunctions(w.tools),
  entry: w.entry,
}));

export const examples: Example[] = [...ptcExamples, ...stepFunctionExamples];

export const exampleById = (id: string | undefined) => examples.find((e) => e.id === id);
