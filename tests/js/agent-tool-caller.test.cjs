// ptc-wasm/ai-sdk: ptcToolCaller(runtime) is the AI SDK's own local tool caller
// (issue 33, point 1). App tools routed to it with experimental_toolCallers are
// hidden from the model and called by its programs, in generateText, streamText
// and ToolLoopAgent, with a scripted model. `ai` is ESM-only and Jest (on Node 20)
// cannot load ESM from CommonJS tests, so the checks run in a plain Node
// process, through the published entries (ESM and CommonJS), and report back as JSON.
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
  const { ptcToolCaller } = ${entry === "cjs" ? 'createRequire(import.meta.url)("ptc-wasm/ai-sdk")' : 'await import("ptc-wasm/ai-sdk")'};
  const { generateText, streamText, ToolLoopAgent, stepCountIs, tool, simulateReadableStream } = await import("ai");
  const { MockLanguageModelV4 } = await import("ai/test");
  const { z } = await import("zod");

  const rt = await createRuntime();
  const calls = [];
  const getOrders = tool({
    description: "The orders of a customer, newest first. Cancelled ones are left out.",
    inputSchema: z.object({ customer: z.string().describe("the customer's id, e.g. c1") }),
    outputSchema: z.array(z.object({ id: z.string(), total: z.number() })),
    execute: async ({ customer }, options) => {
      calls.push({ tool: "getOrders", customer, toolCallId: options.toolCallId });
      return customer === "c1" ? [{ id: "a", total: 5 }, { id: "b", total: 7 }] : [];
    },
  });
  const refund = tool({
    description: "Refunds an order.",
    inputSchema: z.object({ id: z.string() }),
    needsApproval: true,
    execute: async ({ id }) => { calls.push({ tool: "refund", id }); return { refunded: id }; },
  });
  const weather = tool({ description: "Weather now.", inputSchema: z.object({}), execute: async () => "sunny" });
  const tools = { run_program: ptcToolCaller(rt, { context: { vip: ["c1"] } }), getOrders, refund, weather };
  const experimental_toolCallers = { getOrders: ["run_program"], refund: ["run_program"] };

  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const finish = (unified) => ({ unified, raw: undefined });
  const callReply = (id, input) => ({ content: [{ type: "tool-call", toolCallId: id, toolName: "run_program", input: JSON.stringify(input) }], finishReason: finish("tool-calls"), usage, warnings: [] });
  const textReply = (text) => ({ content: [{ type: "text", text }], finishReason: finish("stop"), usage, warnings: [] });
  const sum = { program: { op: "pipe", steps: [{ op: "call", tool: "getOrders", args: { customer: "c1" } }, { op: "sum", field: "total" }] } };
  const out = {};

  // generateText: the model sees run_program (and the tool routed nowhere), not the routed tools;
  // the caller's message holds the compact prompt with a line per routed tool.
  const model = new MockLanguageModelV4({ doGenerate: [
    callReply("g1", sum),
    callReply("g2", { describe: ["getOrders"] }),
    callReply("g3", { program: { op: "pipe", steps: [{ op: "call", tool: "getOrders", args: { customer: "c1" } }, { op: "map", expr: { op: "get", field: "amount" } }] } }),
    callReply("g4", { program: { op: "try", expr: { op: "call", tool: "refund", args: { id: "a" } }, catch: { op: "literal", value: "not refunded" } } }),
    callReply("g5", { program: { op: "call", tool: "weather", args: {} } }),
    textReply("12"),
  ] });
  const r = await generateText({ model, tools, experimental_toolCallers, prompt: "total of c1?", stopWhen: stepCountIs(8) });
  out.generate = { text: r.text, outputs: r.steps.flatMap((s) => s.toolResults.map((x) => x.output)) };
  const first = model.doGenerateCalls[0];
  out.modelTools = first.tools.map((t) => t.name).sort();
  out.runProgramDescription = first.tools.find((t) => t.name === "run_program").description;
  const message = first.prompt.at(-1);
  out.messageRole = message.role;
  out.message = message.content.map((p) => p.text).join("");
  out.messageIsCompactPrompt = out.message.startsWith("# PTC-JSON");
  out.messageEveryStep = model.doGenerateCalls.map((c) => c.prompt.filter((m) => m.role === "user" && m.content[0]?.text?.startsWith("# PTC-JSON")).length);
  out.calls = calls.splice(0);

  // streamText: the same caller, a streamed model.
  const chunks = (parts) => ({ stream: simulateReadableStream({ chunks: [{ type: "stream-start", warnings: [] }, ...parts, { type: "finish", finishReason: finish(parts.some((p) => p.type === "tool-call") ? "tool-calls" : "stop"), usage }] }) });
  const smodel = new MockLanguageModelV4({ doStream: [
    chunks([{ type: "tool-call", toolCallId: "s1", toolName: "run_program", input: JSON.stringify(sum) }]),
    chunks([{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "12" }, { type: "text-end", id: "t" }]),
  ] });
  const s = streamText({ model: smodel, tools, experimental_toolCallers, prompt: "total?", stopWhen: stepCountIs(3) });
  out.stream = { text: await s.text, outputs: (await s.steps).flatMap((x) => x.toolResults.map((t) => t.output)) };
  out.streamTools = smodel.doStreamCalls[0].tools.map((t) => t.name).sort();
  out.streamCalls = calls.splice(0).map((c) => c.tool);

  // ToolLoopAgent: the caller as an agent's tool.
  const amodel = new MockLanguageModelV4({ doGenerate: [callReply("a1", sum), textReply("12")] });
  const agent = new ToolLoopAgent({ model: amodel, tools, experimental_toolCallers, stopWhen: stepCountIs(3) });
  const ar = await agent.generate({ prompt: "total?" });
  out.agent = { text: ar.text, outputs: ar.steps.flatMap((x) => x.toolResults.map((t) => t.output)) };
  out.agentTools = amodel.doGenerateCalls[0].tools.map((t) => t.name).sort();

  // Memory carries over between the calls of one caller, across bindings (each step binds anew).
  const kept = ptcToolCaller(rt);
  const mmodel = new MockLanguageModelV4({ doGenerate: [
    callReply("m1", { program: { result: "ok", orders: { op: "call", tool: "getOrders", args: { customer: "c1" } } } }),
    callReply("m2", { program: { op: "pipe", steps: [{ op: "var", name: "orders" }, { op: "count" }] } }),
    textReply("2"),
  ] });
  const mr = await generateText({ model: mmodel, tools: { run_program: kept, getOrders }, experimental_toolCallers: { getOrders: ["run_program"] }, prompt: "?", stopWhen: stepCountIs(4) });
  out.memory = { outputs: mr.steps.flatMap((x) => x.toolResults.map((t) => t.output)), kept: Object.keys(kept.memory.get()) };
  out.hasCaller = typeof kept.experimental_toolCaller?.bind === "function" && kept.experimental_toolCaller.type;
  console.log(JSON.stringify(out));
`;

describe.each(["esm", "cjs"])("ptcToolCaller through the %s entry", (entry) => {
  let out;
  beforeAll(() => {
    out = runNode(script(entry));
  }, 120000);

  test("it is a local tool caller: the routed tools are hidden from the model, run_program is shown", () => {
    expect(out.hasCaller).toBe("local");
    expect(out.modelTools).toEqual(["run_program", "weather"]);
    expect(out.streamTools).toEqual(["run_program", "weather"]);
    expect(out.agentTools).toEqual(["run_program", "weather"]);
    expect(out.runProgramDescription).toContain('{"describe": [tool names]}');
  });

  test("its message is the compact prompt with a one-line signature per routed tool, in every step", () => {
    expect(out.messageRole).toBe("user");
    expect(out.messageIsCompactPrompt).toBe(true);
    expect(out.message).toContain(
      "- getOrders(customer: string) -> {id: string, total: number}[]: The orders of a customer, newest first.\n",
    );
    expect(out.message).toContain("- refund(id: string): Refunds an order.");
    expect(out.message).not.toContain("weather");
    expect(out.message).not.toContain("Cancelled ones");
    expect(out.message).toContain("Context data");
    expect(out.messageEveryStep).toEqual([1, 1, 1, 1, 1, 1]);
  });

  test("generateText: programs call the routed tools, with the caller's execution options", () => {
    const [total, described, unknownField, refused, notRouted] = out.generate.outputs;
    expect(total).toEqual({ ok: true, result: 12 });
    expect(described.tools).toBe(
      "getOrders(customer: string) -> {id: string, total: number}[]\n" +
        "  effect: read\n" +
        '  description: "The orders of a customer, newest first. Cancelled ones are left out."\n' +
        '  customer: "the customer\'s id, e.g. c1"',
    );
    // The declared output schema is the program's declared return: a field it lacks is warned of.
    expect(unknownField.ok).toBe(true);
    expect(unknownField.warnings.join("\n")).toContain("amount");
    // needsApproval is never run unasked: without an approver the call is denied, a failure try handles.
    expect(refused).toEqual({ ok: true, result: "not refunded" });
    // A tool not routed to the caller is not a program's tool.
    expect(notRouted.ok).toBe(false);
    expect(notRouted.error).toContain("weather");
    expect(out.generate.text).toBe("12");
    expect(out.calls.map((c) => c.tool)).toEqual(["getOrders", "getOrders"]);
    // A run that may hold a call (a routed tool has needsApproval) is gated: each routed call's
    // id carries the run's stable call id, the same on every resume of that call.
    expect(out.calls[0]).toEqual({
      tool: "getOrders",
      customer: "c1",
      toolCallId: expect.stringMatching(/^g1:getOrders:call-[0-9a-f]+$/),
    });
  });

  test("streamText and ToolLoopAgent run the caller's programs", () => {
    expect(out.stream).toEqual({ text: "12", outputs: [{ ok: true, result: 12 }] });
    expect(out.streamCalls).toEqual(["getOrders"]);
    expect(out.agent).toEqual({ text: "12", outputs: [{ ok: true, result: 12 }] });
  });

  test("memory carries over between its calls, though each step binds it anew", () => {
    expect(out.memory.outputs[1]).toEqual({ ok: true, result: 2 });
    expect(out.memory.kept).toEqual(["orders"]);
  });
});
