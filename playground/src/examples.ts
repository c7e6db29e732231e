// The examples the visitor can pick, read at build time: PTC-JSON programs from
// examples/spec-examples.json (the same file `npm start` runs) and step functions
// from examples/step-functions/ (index.json and the files' text, through
// scripts/bundle-playground.mjs). Every example names its dialect (dialects.ts).
import spec from "../../examples/spec-examples.json";
import stepFunctionFiles from "virtual:step-function-examples";
import { formatJson } from "../../js/src/editor/format.js";
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

/** The playground's own PTC-JSON examples: a call that asks first, a fan-out to watch in the timeline. */
const runExamples: Example[] = [
  {
    id: "approval",
    title: "Refunds over 100 need approval",
    program: {
      op: "pipe",
      steps: [
        { op: "load", name: "orders" },
        {
          op: "map",
          expr: {
            op: "try",
            expr: {
              op: "call",
              tool: "refund",
              args: { id: { op: "get", field: "id" }, amount: { op: "get", field: "amount" } },
            },
            catch: { op: "var", name: "error", field: "message" },
          },
        },
      ],
    },
    context: {
      orders: [
        { id: "A-1001", amount: 20 },
        { id: "A-1002", amount: 900 },
        { id: "A-1003", amount: 45 },
      ],
    },
    tools: [
      '// A tool may be a descriptor, as the package takes it. effect "write": its calls never',
      "// overlap. approval (true, or a check of the args): the run stops at the call until you",
      "// approve or deny it in the result panel; a denial is an error the program's try catches.",
      "refund: {",
      '  effect: "write",',
      "  approval: ({ amount }) => amount > 100,",
      "  execute: async ({ id, amount }) => ({ id, refunded: amount }),",
      "},",
      "",
    ],
  },
  {
    id: "fan-out",
    title: "A slow lookup per item, in parallel",
    program: {
      op: "pipe",
      steps: [
        { op: "load", name: "skus" },
        { op: "map", as: "sku", expr: { op: "call", tool: "price", args: { sku: { op: "var", name: "sku" } } } },
        { op: "sum", field: "price" },
      ],
    },
    context: { skus: ["A", "B", "C", "D", "E", "F"] },
    tools: [
      "// Each call takes 120 ms; the map's calls overlap (see the timeline).",
      "price: async ({ sku }) => {",
      "  await new Promise((resolve) => setTimeout(resolve, 120));",
      "  return { sku, price: sku.charCodeAt(0) - 60 };",
      "},",
      "",
    ],
  },
].map((e) => ({
  id: e.id,
  title: e.title,
  label: e.title,
  group: "Approvals, fan-out, replay",
  dialect: "ptc-json",
  turns: [{ program: formatJson({ program: e.program }) }],
  context: formatJson(e.context),
  tools: e.tools.join("\n"),
}));

export const examples: Example[] = [...ptcExamples, ...runExamples, ...stepFunctionExamples];

export const exampleById = (id: string | undefined) => examples.find((e) => e.id === id);
