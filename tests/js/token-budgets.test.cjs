// Issue 25: what ptc-wasm costs a model's context, against its budgets, counted
// with a real tokenizer (gpt-tokenizer's o200k_base; a devDependency, never
// shipped). Size checks of generated text: deterministic. The same figures,
// with the corpus ratio, come out of `npm run bench -- --only TOKENS`.
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { encode } = require("gpt-tokenizer/encoding/o200k_base");
const { ptcWasm } = require("./helpers.cjs");
const TARGETS = require("../../bench/token-targets.json");

const root = path.join(__dirname, "../..");
const tokens = (value) => encode(typeof value === "string" ? value : JSON.stringify(value)).length;

let ptc, mcpTools;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  // tools/list as the official SDK client receives it from `ptc-wasm mcp` with default options.
  const client = new Client({ name: "token-budgets", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: ["dist/cli.mjs", "mcp"], cwd: root, stderr: "pipe" }),
  );
  try {
    mcpTools = (await client.listTools()).tools;
  } finally {
    await client.close();
  }
});

test(`MCP tools/list is at most ${TARGETS.mcpToolsList} tokens, run_program at most ${TARGETS.runProgram}`, () => {
  expect(tokens(mcpTools)).toBeLessThanOrEqual(TARGETS.mcpToolsList);
  expect(tokens(mcpTools.find((t) => t.name === "run_program"))).toBeLessThanOrEqual(TARGETS.runProgram);
});

// The AI SDK tools as a user's ESM process makes them (the `ai` package is ESM).
function aiSdkDefinitionTokens() {
  const source = `
    import { createRuntime } from "ptc-wasm";
    import { ptcTool, workflowTool, ptcToolCaller } from "ptc-wasm/ai-sdk";
    import { encode } from "gpt-tokenizer/encoding/o200k_base";
    const rt = await createRuntime();
    const size = (t) => encode(JSON.stringify({ description: t.description, inputSchema: t.inputSchema.jsonSchema })).length;
    const caller = ptcToolCaller(rt);
    console.log(JSON.stringify({ ptcTool: size(ptcTool(rt)), workflowTool: size(workflowTool(rt)),
      ptcToolCaller: size(caller), callerMessage: encode(caller.experimental_toolCaller.prepareModelMessage({})).length }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", source], { cwd: root, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop());
}

test(`asFunctionTool, ptcTool, workflowTool and ptcToolCaller are at most ${TARGETS.functionTool} tokens each`, () => {
  expect(tokens(ptc.asFunctionTool())).toBeLessThanOrEqual(TARGETS.functionTool);
  const sdk = aiSdkDefinitionTokens();
  expect(sdk.ptcTool).toBeLessThanOrEqual(TARGETS.functionTool);
  expect(sdk.workflowTool).toBeLessThanOrEqual(TARGETS.functionTool);
  // The caller's definition is short; its message (the compact prompt) is what the model reads.
  expect(sdk.ptcToolCaller).toBeLessThanOrEqual(TARGETS.functionTool);
  expect(sdk.callerMessage).toBeLessThanOrEqual(TARGETS.promptCompact);
  // The full schema stays available, and is what made the definitions big.
  expect(tokens(ptc.asFunctionTool({ schema: "full" }))).toBeGreaterThan(TARGETS.functionTool);
});

test("the prompts are within their budgets", () => {
  expect(tokens(ptc.prompt({ compact: true }))).toBeLessThanOrEqual(TARGETS.promptCompact);
  expect(tokens(ptc.prompt())).toBeLessThanOrEqual(TARGETS.promptFull);
  expect(tokens(ptc.workflowPrompt({ compact: true }))).toBeLessThanOrEqual(TARGETS.workflowPromptCompact);
});

test("characters / 4 under-counts the prompts: approximateTokens is only an estimate", () => {
  const full = ptc.prompt();
  expect(ptcWasm.approximateTokens(full)).toBeLessThan(tokens(full));
});
