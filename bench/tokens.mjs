// TOKENS: what ptc-wasm costs a model's context, counted with a real tokenizer
// (gpt-tokenizer's o200k_base, the GPT-4o / o-series encoding), never chars/4.
// The tool definitions as hosts send them (MCP tools/list as the official SDK
// client receives it, asFunctionTool(), the AI SDK tools), the prompts of both
// dialects, and the corpus's PTC-JSON / Python ratio (bench/tokens-corpus.mjs,
// when present). Each figure against its target (issue 25). The workflow corpus's
// ratios (step functions and PTC-JSON to Python, issue 36) are printed against
// their targets, judged only once token-targets.json's workflowCorpus.enforced is
// true: until then they are the baseline ("BASE").
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const CORPUS = new URL("./tokens-corpus.mjs", import.meta.url);

/** Tokens of a text, or of a value's JSON. */
export const tokens = (value) => encode(typeof value === "string" ? value : JSON.stringify(value)).length;

/** The targets, shared with the Jest size checks (tests/js/token-budgets.test.cjs). */
export const TOKEN_TARGETS = JSON.parse(readFileSync(new URL("./token-targets.json", import.meta.url), "utf8"));

// tools/list as a client sees it: the server is `ptc-wasm mcp` on stdio.
async function mcpToolsList() {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({ command: process.execPath, args: [DIST + "cli.mjs", "mcp"] });
  const client = new Client({ name: "ptc-wasm-bench", version: "1" });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** Every figure: [{ label, tokens, target? }] in sections. */
export async function measureTokens() {
  const { createRuntime } = await import(DIST + "node.mjs");
  const { ptcTool, workflowTool, ptcToolCaller } = await import(DIST + "ai-sdk.mjs");
  const runtime = await createRuntime();
  const tools = await mcpToolsList();
  const sdkTool = (t) => ({ description: t.description, inputSchema: t.inputSchema.jsonSchema });
  const T = TOKEN_TARGETS;
  const definitions = [
    { label: "MCP tools/list (all tools)", tokens: tokens(tools), target: T.mcpToolsList },
    ...tools.map((t) => ({
      label: `  ${t.name}`,
      tokens: tokens(t),
      target: t.name === "run_program" ? T.runProgram : undefined,
    })),
    { label: "asFunctionTool()", tokens: tokens(runtime.asFunctionTool()), target: T.functionTool },
    { label: "AI SDK ptcTool", tokens: tokens(sdkTool(ptcTool(runtime))), target: T.functionTool },
    { label: "AI SDK workflowTool", tokens: tokens(sdkTool(workflowTool(runtime))), target: T.functionTool },
    { label: "AI SDK ptcToolCaller", tokens: tokens(sdkTool(ptcToolCaller(runtime))), target: T.functionTool },
  ];
  const prompts = [
    { label: "PTC-JSON prompt, compact", tokens: tokens(runtime.prompt({ compact: true })), target: T.promptCompact },
    { label: "PTC-JSON prompt, full", tokens: tokens(runtime.prompt()), target: T.promptFull },
    {
      label: "ptcToolCaller message, no tools",
      tokens: tokens(ptcToolCaller(runtime).experimental_toolCaller.prepareModelMessage({})),
      target: T.promptCompact,
    },
    {
      label: "step-function prompt, compact",
      tokens: tokens(runtime.workflowPrompt({ compact: true })),
      target: T.workflowPromptCompact,
    },
    { label: "step-function prompt, full", tokens: tokens(runtime.workflowPrompt()) },
  ];
  runtime.dispose?.();
  return { definitions, prompts, corpus: await corpusTokens(), workflows: await workflowTokens() };
}

async function corpusTokens() {
  if (!existsSync(fileURLToPath(CORPUS))) return undefined;
  const { corpusTokens: measure } = await import(CORPUS.href);
  return measure();
}

async function workflowTokens() {
  if (!existsSync(fileURLToPath(CORPUS))) return undefined;
  const { workflowCorpusTokens } = await import(CORPUS.href);
  return workflowCorpusTokens?.();
}

const pass = (value, target) => (target === undefined ? "    " : value <= target ? "PASS" : "MISS");

/** Prints the section; returns the run's summary lines and targets (bench/run.mjs). */
export function reportTokens({ definitions, prompts, corpus, workflows }, say, line) {
  say("TOKENS (gpt-tokenizer o200k_base; JSON of each definition as a host sends it)");
  say(line);
  const row = ({ label, tokens: n, target }) =>
    say(`${pass(n, target)}  ${label.padEnd(40)}${String(n).padStart(7)}${target ? `   target <= ${target}` : ""}`);
  definitions.forEach(row);
  say();
  prompts.forEach(row);
  say();
  const targets = [...definitions, ...prompts]
    .filter((f) => f.target !== undefined)
    .map((f) => [f.label.trim(), pass(f.tokens, f.target), `${f.tokens} tokens (target <= ${f.target})`]);
  if (!corpus) say("corpus: not present");
  else {
    say(`corpus: PTC-JSON vs Python tokens per question (target total ratio <= ${TOKEN_TARGETS.corpusRatio})`);
    for (const r of corpus.rows)
      say(
        `  ${String(r.id).padEnd(38)}${String(r.ptc).padStart(6)}${String(r.python).padStart(6)}  ${r.ratio.toFixed(2)}x`,
      );
    const { ptc, python, ratio } = corpus.total;
    const verdict = pass(ratio, TOKEN_TARGETS.corpusRatio);
    say(
      `${verdict}  ${"total".padEnd(36)}${String(ptc).padStart(6)}${String(python).padStart(6)}  ${ratio.toFixed(2)}x`,
    );
    targets.push([
      "corpus PTC-JSON / Python",
      verdict,
      `${ratio.toFixed(2)}x (target <= ${TOKEN_TARGETS.corpusRatio}x)`,
    ]);
    const worst = corpus.rows.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const worstVerdict = pass(worst.ratio, TOKEN_TARGETS.corpusWorstRatio);
    say(`${worstVerdict}  ${"worst question".padEnd(36)}${worst.id.padStart(12)}  ${worst.ratio.toFixed(2)}x`);
    targets.push([
      "corpus worst question / Python",
      worstVerdict,
      `${worst.ratio.toFixed(2)}x ${worst.id} (target <= ${TOKEN_TARGETS.corpusWorstRatio}x)`,
    ]);
  }
  if (workflows) reportWorkflows(workflows, say, targets);
  say(line);
  say();
  // One id per figure: the diff against an earlier run matches lines by id.
  const lines = [...definitions, ...prompts].map((f) => ({
    id: `TOKENS ${f.label.trim()}`,
    label: f.label.trim(),
    unit: "tokens",
    cells: { "ptc-wasm": f.tokens },
  }));
  if (workflows)
    for (const [dialect, key] of [
      ["step functions", "steps"],
      ["PTC-JSON", "ptc"],
      ["Python", "python"],
    ])
      lines.push({
        id: `TOKENS workflow corpus, ${dialect}`,
        label: `workflow corpus, ${dialect}`,
        unit: "tokens",
        cells: { "ptc-wasm": workflows.total[key] },
      });
  return { lines, targets };
}

/**
 * The workflow corpus (issue 36): each workflow's twins in tokens, the totals'
 * ratios and the worst workflow against token-targets.json's workflowCorpus;
 * "BASE" instead of PASS/MISS while its `enforced` is false (the baseline).
 */
function reportWorkflows({ rows, total, worst }, say, targets) {
  const T = TOKEN_TARGETS.workflowCorpus;
  const judge = (value, target) => (T.enforced ? pass(value, target) : "BASE");
  const x = (r) => `${r.toFixed(2)}x`;
  say();
  say(
    `workflow corpus: tokens per workflow, step functions / PTC-JSON / Python` +
      (T.enforced ? "" : " (baseline: targets printed, not judged)"),
  );
  for (const r of rows)
    say(
      `  ${r.id.padEnd(24)}${String(r.steps).padStart(6)}${String(r.ptc).padStart(6)}${String(r.python).padStart(6)}` +
        `  ${x(r.stepsRatio).padStart(6)}${x(r.ptcRatio).padStart(7)}`,
    );
  say(
    `  ${"total".padEnd(24)}${String(total.steps).padStart(6)}${String(total.ptc).padStart(6)}${String(total.python).padStart(6)}` +
      `  ${x(total.stepsRatio).padStart(6)}${x(total.ptcRatio).padStart(7)}`,
  );
  const figures = [
    ["workflows steps / Python", total.stepsRatio, T.stepsRatio, ""],
    ["workflows PTC-JSON / Python", total.ptcRatio, T.ptcRatio, ""],
    ["workflows worst twin / Python", worst.ratio, T.worstRatio, ` ${worst.id}, ${worst.dialect}`],
  ];
  for (const [label, value, target, which] of figures) {
    const verdict = judge(value, target);
    say(`${verdict}  ${label.padEnd(36)}${x(value).padStart(7)}   target <= ${target}x${which}`);
    targets.push([label, verdict, `${x(value)}${which} (target <= ${target}x${T.enforced ? "" : ", baseline"})`]);
  }
}
