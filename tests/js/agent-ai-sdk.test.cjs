// ptc-wasm/ai-sdk: ptcTool(runtime, { tools, context }) is a Vercel AI SDK tool.
// `ai` is ESM-only and Jest (on Node 20) cannot load ESM from CommonJS tests, so
// the checks run in a plain Node process, through the published entries
// (ptc-wasm/ai-sdk as ESM and as CommonJS), and report back as JSON.
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const root = path.join(__dirname, "../..");

function runNode(source) {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", source], { cwd: root, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop());
}

const script = (entry) => `
  import { createRequire } from "node:module";
  import { createRuntime } from "ptc-wasm";
  import * as tools from "./examples/agent-loop/tools.mjs";
  const { ptcTool, workflowTool } = ${entry === "cjs" ? 'createRequire(import.meta.url)("ptc-wasm/ai-sdk")' : 'await import("ptc-wasm/ai-sdk")'};
  const { generateText, stepCountIs } = await import("ai");
  const { MockLanguageModelV4 } = await import("ai/test");

  const rt = await createRuntime();
  const context = { rows: [{ n: 1 }, { n: 2 }, { n: 3 }] };
  const t = ptcTool(rt, { tools, context });
  const out = {};
  out.descriptionIsCompactPrompt = t.description === rt.prompt({ tools, context, compact: true });
  const { $schema, ...schema } = rt.schema({ tools });
  const minimal = await t.inputSchema.jsonSchema;
  out.inputSchemaIsMinimal = { required: minimal.required, program: minimal.properties.program.type, defs: !!minimal.$defs };
  const full = ptcTool(rt, { tools, context, schema: "full" });
  out.fullSchemaIsProgramSchema = JSON.stringify(await full.inputSchema.jsonSchema) === JSON.stringify(schema);
  const opts = { toolCallId: "1", messages: [] };
  out.sum = await t.execute({ program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "sum", field: "n" }] } }, opts);
  out.tool = await t.execute({ program: { op: "call", tool: "get_customer", args: { id: 3 } } }, opts);
  out.badArgs = await t.execute({ program: { op: "call", tool: "get_customer", args: {} } }, opts);
  out.typo = await t.execute({ program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "cuont" }] } }, opts);
  out.store = await t.execute({ program: { result: "ok", kept: { op: "load", name: "rows" } } }, opts);
  out.recall = await t.execute({ program: { op: "pipe", steps: [{ op: "var", name: "kept" }, { op: "count" }] } }, opts);
  out.text = await t.execute({ program: '{"op": "mul", "left": 6, "right": 7}' }, opts);
  try {
    ptcTool(rt, { timeoutMs: "100" });
    out.badOption = "accepted";
  } catch (e) {
    out.badOption = e.constructor.name + ": " + e.message;
  }
  // A value nested deeper than memory can hold is refused when stored; the session goes on.
  const wrapped = (levels) => ({ op: "pipe", steps: [{ op: "literal", value: 1 },
    ...Array.from({ length: levels }, () => ({ op: "object", fields: { a: { op: "get", path: [] } } }))] });
  const countKept = { program: { op: "pipe", steps: [{ op: "var", name: "kept" }, { op: "count" }] } };
  out.poison = await t.execute({ program: { result: "x", deep: wrapped(1000) } }, opts);
  out.afterPoison = await t.execute(countKept, opts);
  out.deepest = await t.execute({ program: { result: "ok", deep: wrapped(999) } }, opts);
  out.afterDeepest = await t.execute(countKept, opts);

  // Inside generateText, with a scripted model: one tool call, then an answer.
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const model = new MockLanguageModelV4({
    doGenerate: [
      { content: [{ type: "tool-call", toolCallId: "c1", toolName: "run_program",
          input: JSON.stringify({ program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "max", field: "n" }] } }) }],
        finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] },
      { content: [{ type: "text", text: "The largest n is 3." }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] },
    ],
  });
  const r = await generateText({ model, tools: { run_program: t }, prompt: "largest n?", stopWhen: stepCountIs(3) });
  out.generateText = { text: r.text, toolResults: r.steps.flatMap((s) => s.toolResults.map((x) => x.output)) };
  out.sentTool = model.doGenerateCalls[0].tools.map((x) => ({ name: x.name, hasDefs: !!x.inputSchema.$defs }));

  // run_workflow (issue 13 item 11): the same tools and limits, step functions.
  const w = workflowTool(rt, { tools });
  out.workflowDescription = w.description === rt.workflowPrompt({ tools, compact: true });
  const wschema = await w.inputSchema.jsonSchema;
  out.workflowSchema = { required: wschema.required, defs: !!wschema.$defs, input: wschema.properties.input.type };
  const wfull = await workflowTool(rt, { tools, schema: "full" }).inputSchema.jsonSchema;
  out.workflowFullSchema = JSON.stringify(wfull.$defs) === JSON.stringify(rt.workflowSchema({ tools }).$defs);
  const shout = [{ function: "shout", input: { id: "number" }, output: "text", steps: [
    { let: "c", call: "get_customer", args: { id: "$input.id" } }, { return: { $upper: "$c.name" } }] }];
  out.workflow = await w.execute({ functions: shout, input: { id: 3 } }, opts);
  out.workflowText = await w.execute({ functions: JSON.stringify(shout), input: JSON.stringify({ id: 1 }) }, opts);
  out.workflowBadArgs = await w.execute({ functions: shout, input: {} }, opts);
  out.workflowTypo = await w.execute({ functions: [{ ...shout[0], steps: [{ return: { $uper: "x" } }] }], input: { id: 3 } }, opts);
  // The short form (issue 36): one function's steps alone, "main" with output "any".
  const byId = (id) => [{ let: "c", call: "get_customer", args: { id } }, { return: { $upper: "$c.name" } }];
  out.steps = await w.execute({ steps: byId(3) }, opts);
  out.stepsInput = await w.execute({ steps: byId("$input.id"), input: { id: 1 } }, opts);
  out.stepsText = await w.execute(JSON.stringify({ steps: byId(2) }), opts);
  out.stepsHelpers = await w.execute({ functions: shout, steps: [{ let: "s", call: "shout", args: { id: 2 } },
    { return: { "+": ["$s", "!"] } }] }, opts);
  out.stepsOutput = await w.execute({ output: "result text text", steps: [{ return: { error: "no" } }] }, opts);
  out.stepsTypo = await w.execute({ steps: [{ return: { $uper: "x" } }] }, opts);
  out.stepsHelperTypo = await w.execute({ functions: [{ ...shout[0], steps: [{ return: { $uper: "x" } }] }],
    steps: [{ return: 1 }] }, opts);
  out.stepsNull = await w.execute({ steps: [{ return: null }] }, opts);
  out.stepsKeyTypo = await w.execute({ step: byId(3) }, opts);
  const slow = [{ function: "slow", output: "nil", steps: [{ call: "hang" }] }];
  const hanging = workflowTool(rt, { tools: { hang: () => new Promise(() => {}) }, timeoutMs: 50 });
  out.workflowTimeout = await hanging.execute({ functions: slow }, opts);
  const wmodel = new MockLanguageModelV4({
    doGenerate: [
      { content: [{ type: "tool-call", toolCallId: "w1", toolName: "run_workflow",
          input: JSON.stringify({ functions: shout, input: { id: 2 } }) }],
        finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] },
      { content: [{ type: "text", text: "GRACE HOPPER" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] },
    ],
  });
  const wr = await generateText({ model: wmodel, tools: { run_program: t, run_workflow: w }, prompt: "name?", stopWhen: stepCountIs(3) });
  out.workflowGenerateText = wr.steps.flatMap((s) => s.toolResults.map((x) => x.output));
  console.log(JSON.stringify(out));
`;

describe.each(["esm", "cjs"])("ptcTool through the %s entry", (entry) => {
  let out;
  beforeAll(() => {
    out = runNode(script(entry));
  }, 60000);

  test("its description is the compact prompt; its input schema minimal, or with schema full the program schema", () => {
    expect(out.descriptionIsCompactPrompt).toBe(true);
    expect(out.inputSchemaIsMinimal).toEqual({ required: ["program"], program: "object", defs: false });
    expect(out.fullSchemaIsProgramSchema).toBe(true);
  });

  test("execute runs programs with the context and the tools", () => {
    expect(out.sum).toEqual({ ok: true, result: 6 });
    // An object result is stored in memory too (the memory contract), and the model is told so.
    const customer = { id: 3, name: "Edsger Dijkstra", country: "NL", tier: "gold" };
    expect(out.tool).toEqual({ ok: true, result: customer, stored: ["id", "name", "country", "tier"] });
    expect(out.text).toEqual({ ok: true, result: 42 });
  });

  // Issue 11, item 17: options are checked when the tool is made, as run() checks them.
  test("options of the wrong type are a TypeError when the tool is made", () => {
    expect(out.badOption).toBe(
      "TypeError: ptc-wasm: options.timeoutMs must be a positive number of at most 2147483647, got a string",
    );
  });

  test("failures come back as the formatted error, for the model to repair", () => {
    expect(out.typo.ok).toBe(false);
    expect(out.typo.error).toMatch(
      /^ValidationError at \/program\/steps\/1: Unknown operation 'cuont'\. Did you mean 'count'\?/,
    );
    expect(out.typo.code).toBe("unknown_op");
    expect(out.badArgs.ok).toBe(false);
    expect(out.badArgs.code).toBe("tool_failed");
    expect(out.badArgs.error).toContain("Tool 'get_customer' failed: invalid args");
    expect(out.badArgs.error).toContain("at /id: the required arg 'id' is missing");
  });

  test("memory carries over between calls", () => {
    expect(out.store).toEqual({ ok: true, result: "ok", stored: ["kept"] });
    expect(out.recall).toEqual({ ok: true, result: 3 });
  });

  test("a value nested deeper than memory can hold is refused when stored, and later programs still run", () => {
    expect(out.poison.ok).toBe(false);
    expect(out.poison.error).toMatch(/^ExecutionError at \/program: .*more than 1000 levels deep/);
    expect(out.afterPoison).toEqual({ ok: true, result: 3 });
    expect(out.deepest).toEqual({ ok: true, result: "ok", stored: ["deep"] });
    expect(out.afterDeepest).toEqual({ ok: true, result: 3 });
  });

  test("workflowTool runs step-function files with the same tools, limits and formatted errors", () => {
    expect(out.workflowDescription).toBe(true);
    expect(out.workflowSchema).toEqual({ required: undefined, defs: false, input: "object" });
    expect(out.workflowFullSchema).toBe(true);
    expect(out.workflow).toEqual({ ok: true, result: "EDSGER DIJKSTRA" });
    expect(out.workflowText).toEqual({ ok: true, result: "ADA LOVELACE" });
    expect(out.workflowBadArgs.ok).toBe(false);
    expect(out.workflowBadArgs.error).toMatch(/^ValidationError/);
    expect(out.workflowBadArgs.error).toContain("id");
    expect(out.workflowTypo.ok).toBe(false);
    expect(out.workflowTypo.code).toBe("unknown_operator");
    expect(out.workflowTypo.error).toMatch(
      /^ValidationError at \/0\/steps\/0\/return\/\$uper: .*Did you mean '\$upper'\?/,
    );
    expect(out.workflowTimeout.ok).toBe(false);
    expect(out.workflowTimeout.error).toMatch(/^Timeout/);
    expect(out.workflowTimeout.code).toBe("timeout");
    expect(out.workflowGenerateText).toEqual([{ ok: true, result: "GRACE HOPPER" }]);
  });

  test("workflowTool takes one function's steps alone: {steps, output?, functions?, input?}", () => {
    expect(out.steps).toEqual({ ok: true, result: "EDSGER DIJKSTRA" });
    expect(out.stepsInput).toEqual({ ok: true, result: "ADA LOVELACE" });
    expect(out.stepsText).toEqual({ ok: true, result: "GRACE HOPPER" });
    expect(out.stepsHelpers).toEqual({ ok: true, result: "GRACE HOPPER!" });
    expect(out.stepsOutput).toEqual({ ok: true, result: { error: "no" } });
    // Pointers name the request's keys: its steps, and its helpers under "functions".
    expect(out.stepsTypo).toMatchObject({ ok: false, code: "unknown_operator" });
    expect(out.stepsTypo.error).toMatch(/^ValidationError at \/steps\/0\/return\/\$uper: .*Did you mean '\$upper'\?/);
    expect(out.stepsHelperTypo.error).toMatch(/^ValidationError at \/functions\/0\/steps\/0\/return\/\$uper: /);
    expect(out.stepsNull).toMatchObject({ ok: false, code: "type_mismatch" });
    expect(out.stepsNull.error).toMatch(/^ValidationError at \/steps\/0\/return: .*null is not a any/);
    expect(out.stepsKeyTypo).toMatchObject({ ok: false, code: "unknown_field" });
    expect(out.stepsKeyTypo.error).toMatch(/^ValidationError at \/step: Unknown key 'step'.*Did you mean 'steps'\?/);
  });

  test("it works inside generateText", () => {
    expect(out.sentTool).toEqual([{ name: "run_program", hasDefs: false }]);
    expect(out.generateText).toEqual({ text: "The largest n is 3.", toolResults: [{ ok: true, result: 3 }] });
  });
});

// Issue 28 item 2 for the AI SDK: tools of MCP servers ("<server>.<tool>") are a
// line per server in ptcTool's description, read on demand with describeToolsTool.
test("ptcTool lists upstream tools per server; describeToolsTool reads them on demand", () => {
  const out = runNode(`
    import { createRuntime } from "ptc-wasm";
    import { ptcTool, workflowTool, describeToolsTool } from "ptc-wasm/ai-sdk";
    const rt = await createRuntime();
    const order = { type: "object", properties: { id: { type: "string" }, total: { type: "number" } } };
    const tools = {
      "shop.get_order": { description: "Get one order. Slow for old ones.", returns: order,
        parameters: { type: "object", properties: { id: { type: "string", description: "the order id" } }, required: ["id"] },
        execute: ({ id }) => ({ id, total: 5 }) },
      "shop.list_orders": { description: "List the order ids.", execute: () => ["a", "b"] },
      "crm.find": { description: "Find a customer.", execute: () => null },
      local_sum: (args) => args.a + args.b,
    };
    const t = ptcTool(rt, { tools });
    const d = describeToolsTool({ tools });
    console.log(JSON.stringify({
      description: t.description,
      workflowDescription: workflowTool(rt, { tools }).description,
      list: await d.execute({}),
      shop: await d.execute({ server: "shop" }),
      full: await d.execute({ tools: ["shop.get_order", "shop.nope"] }),
      schema: await d.inputSchema.jsonSchema,
      run: await t.execute({ program: { op: "pipe", steps: [{ op: "call", tool: "shop.list_orders" },
        { op: "map", expr: { op: "call", tool: "shop.get_order", args: { id: "$_" } } }, { op: "sum", field: "total" }] } }),
    }));
  `);
  expect(out.description).toContain("shop.<tool>");
  expect(out.description).toContain("2 tools of MCP server 'shop'");
  expect(out.description).toContain("crm.<tool>");
  expect(out.description).toContain("local_sum");
  expect(out.description).not.toContain("shop.get_order");
  expect(out.workflowDescription).toContain("shop.<tool>");
  expect(out.workflowDescription).not.toContain("shop.get_order");
  expect(out.list).toContain("4 tools.");
  expect(out.list).toContain("- local_sum (read)");
  expect(out.list).toContain('- shop.get_order (read): "Get one order."');
  expect(out.list).toContain('- crm.find (read): "Find a customer."');
  expect(out.shop).toContain("2 tools.");
  expect(out.shop).not.toContain("crm.find");
  expect(out.full).toContain("shop.get_order(id: string) -> {id?: string, total?: number}");
  expect(out.full).toContain('id: "the order id"');
  expect(out.full).toContain("shop.nope: no such tool");
  expect(out.schema.properties.tools.items.type).toBe("string");
  expect(out.run).toEqual({ ok: true, result: 10 });
});
