// The examples the visitor can pick, read from examples/spec-examples.json at
// build time (the same file `npm start` runs).
//
// Extension point: every example names its dialect. Only "ptc-json" exists
// today; step-function examples will add entries with dialect
// "step-functions" (and a runner for it in dialects.ts).
import spec from "../../examples/spec-examples.json";
import { formatJson } from "./format.js";
import { toolsSourceFor } from "./tools.js";

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
  group: string;
  dialect: DialectId;
  turns: ExampleTurn[];
  /** Context JSON text. */
  context: string;
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

export const examples: Example[] = (spec.examples as SpecExample[]).map((e) => ({
  id: e.id,
  title: e.title,
  group: groupOf(e.id),
  dialect: e.dialect ?? "ptc-json",
  turns: (e.turns ?? [{ program: e.program }]).map((t) => ({
    program: formatJson(t.program),
    contextFromPreviousResult: "contextFromPreviousResult" in t ? t.contextFromPreviousResult : undefined,
  })),
  context: formatJson(e.context ?? {}),
  tools: toolsSourceFor(e.tools),
}));

export const exampleById = (id: string | undefined) => examples.find((e) => e.id === id);
