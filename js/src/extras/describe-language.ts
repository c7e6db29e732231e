// Details on demand (MCP describe_language, runtime.describeLanguage): the tool
// definitions carry the compact prompt only, and a model asks for what it needs
// once — an operation, a family of operations, an error code, a step kind or
// function of step functions, or a whole dialect. Everything comes from the op
// table, the step table and the error-code table, as the prompts do.
import { ERROR_CODES, type ErrorCodeInfo } from "../types/error-codes.js";
import type { DescribeLanguageOptions, Operation, WorkflowLanguage } from "../types/public.js";
import { languagePrompt, operationEntry, REFERENCES } from "./prompt.js";
import { workflowLanguagePrompt } from "./step-function-prompt.js";

/** The dialects a topic may name, and what a model may call them. */
const STEP_FUNCTIONS = new Set(["step-functions", "step_functions", "workflow", "workflows", "run_workflow"]);
const PTC_JSON = new Set(["ptc-json", "ptc_json", "ptc", "run_program", "all"]);
const REFERENCE_TOPICS = new Set(["references", "reference", "$", "$_", "$name"]);

const normal = (topic: string) => topic.trim().toLowerCase();

function errorEntry(info: ErrorCodeInfo): string {
  return `Error code ${info.code} (${info.types.join(", ")}): ${info.when} Fix: ${info.fix}`;
}

function familyText(family: string, ops: Operation[]): string {
  return [`# ${family} operations`, "", ...ops.flatMap((op) => [...operationEntry(op), ""])].join("\n");
}

function stepFunctionTopic(topic: string, language: WorkflowLanguage): string | undefined {
  const step = language.steps.find((s) => s.name === topic);
  if (step) return `Step functions, step "${step.name}": ${step.shape}: ${step.description}`;
  const fn = language.functions.find((f) => f.key === topic || f.key === `$${topic}`);
  if (fn && topic.startsWith("$"))
    return `Step functions, function ${fn.shape}: ${fn.description} Example: ${JSON.stringify(fn.example)}`;
  const operator = language.operators.find((o) => o.key === topic);
  return operator ? `Step functions, operator "${operator.key}": ${operator.description}` : undefined;
}

// Edit distance, for the nearest topics to a name that is none.
export function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

function unknownTopic(topic: string, ops: Operation[]): string {
  const families = [...new Set(ops.map((o) => o.category))];
  const names = [...ops.map((o) => o.name), ...families, ...ERROR_CODES.map((c) => c.code)];
  const near = names
    .map((name) => ({ name, d: distance(topic, name) }))
    .filter(({ name, d }) => d <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map(({ name }) => name);
  return (
    `No topic '${topic}'.${near.length ? ` Did you mean ${near.map((n) => `'${n}'`).join(" or ")}?` : ""} ` +
    `Ask for an operation (e.g. "date_diff"), "references", a family (${families.join(", ")}), an error code ` +
    `(e.g. "tool_failed"), "step-functions", or nothing for the whole reference.`
  );
}

/** The answer to one describe_language query, as text for a model. */
export function describeLanguage(
  ops: Operation[],
  workflow: WorkflowLanguage,
  options: DescribeLanguageOptions = {},
): string {
  const { topic: asked, ...prompt } = options;
  const topic = asked === undefined ? "" : normal(asked);
  if (topic === "" || PTC_JSON.has(topic)) return languagePrompt(ops, prompt);
  if (STEP_FUNCTIONS.has(topic))
    return workflowLanguagePrompt(workflow, { tools: prompt.tools, compact: prompt.compact });
  if (REFERENCE_TOPICS.has(topic)) return `References: ${REFERENCES}.\n`;
  const op = ops.find((o) => o.name === topic);
  if (op) return operationEntry(op).join("\n") + "\n";
  const family = ops.filter((o) => o.category === topic);
  if (family.length) return familyText(topic, family);
  const code = ERROR_CODES.find((c) => c.code === topic);
  if (code) return errorEntry(code) + "\n";
  return (stepFunctionTopic(topic, workflow) ?? unknownTopic(topic, ops)) + "\n";
}
