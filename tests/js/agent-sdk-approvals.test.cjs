// ptc-wasm/ai-sdk: approvals through the AI SDK's own flow, across requests
// (issue 33, point 2). A program's call of a routed tool with needsApproval
// becomes the SDK's tool-approval-request for the run_program call, whose input
// shows the held call and carries the run's state, signed with the stateKey.
// Each request below is its own Node process with a new runtime and caller, as
// a serverless host's: nothing passes between them but the messages (JSON) and
// the key. `ai` is ESM-only and Jest (on Node 20) cannot load ESM from CommonJS
// tests, so the requests run in plain Node processes and report back as JSON.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.join(__dirname, "../..");

// One request of the app: the tools, the caller, generateText over the messages given.
const app = (entry) => `
  import { createRequire } from "node:module";
  import { readFileSync, writeFileSync, appendFileSync } from "node:fs";
  import { createRuntime } from "ptc-wasm";
  const { ptcToolCaller, ptcTool } = ${entry === "cjs" ? 'createRequire(import.meta.url)("ptc-wasm/ai-sdk")' : 'await import("ptc-wasm/ai-sdk")'};
  const { generateText, stepCountIs, tool } = await import("ai");
  const { MockLanguageModelV4 } = await import("ai/test");
  const { z } = await import("zod");
  const [mode, dir, kind] = process.argv.slice(1);
  const input = JSON.parse(readFileSync(dir + "/in.json", "utf8"));

  // The write: each real refund is a line of a file (the count), deduped by its toolCallId, as a host's store would.
  const done = new Set(readFileSync(dir + "/refunds.log", "utf8").split("\\n").filter(Boolean).map((l) => JSON.parse(l).toolCallId));
  const getOrders = tool({
    description: "A customer's orders.",
    inputSchema: z.object({ customer: z.string() }),
    execute: async () => [{ id: "a", total: 120 }, { id: "b", total: 80 }],
  });
  const refund = tool({
    description: "Refunds an order.",
    inputSchema: z.object({ id: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: async ({ id, amount }, { toolCallId }) => {
      if (done.has(toolCallId)) return { refunded: id, amount, duplicate: true };
      appendFileSync(dir + "/refunds.log", JSON.stringify({ id, amount, toolCallId }) + "\\n");
      return { refunded: id, amount };
    },
  });
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const finish = (unified) => ({ unified, raw: undefined });
  const reply = (content, unified) => ({ content, finishReason: finish(unified), usage, warnings: [] });
  const program = { op: "let", name: "orders", value: { op: "call", tool: "getOrders", args: { customer: "c1" } },
    in: { op: "try",
      expr: { op: "call", tool: "refund", args: { id: { op: "pipe", steps: [{ op: "var", name: "orders" }, { op: "first" }, { op: "get", field: "id" }] }, amount: 30 } },
      catch: { op: "object", fields: { denied: { op: "var", name: "error", field: "message" } } } } };
  // Request 1: the model sends the program; request 2: it answers from run_program's result.
  const model = new MockLanguageModelV4({ doGenerate: [
    ...(input.messages ? [] : [reply([{ type: "tool-call", toolCallId: "call-1", toolName: "run_program", input: JSON.stringify({ program }) }], "tool-calls")]),
    reply([{ type: "text", text: "done" }], "stop") ] });
  const runtime = await createRuntime();
  const stateKey = "the host's state key";
  const secret = kind === "unsigned" ? {} : { experimental_toolApprovalSecret: "the host's approval secret" };
  const out = {};
  if (mode === "caller") {
    const run_program = ptcToolCaller(runtime, { stateKey, routedTools: { getOrders, refund } });
    const messages = input.messages ? await run_program.denials(input.messages) : undefined;
    try {
      const r = await generateText({ model, tools: { run_program, getOrders, refund },
        experimental_toolCallers: { getOrders: ["run_program"], refund: ["run_program"] },
        ...secret, stopWhen: stepCountIs(3), ...(messages ? { messages } : { prompt: "Refund c1's first order 30." }) });
      out.text = r.text;
      out.approvals = r.content.filter((p) => p.type === "tool-approval-request").map((p) => ({ tool: p.toolCall.toolName, input: p.toolCall.input, approvalId: p.approvalId }));
      out.messages = [...(messages ?? [{ role: "user", content: "Refund c1's first order 30." }]), ...r.response.messages];
      // What the model read after run_program: its answer, in request 2.
      out.modelSaw = model.doGenerateCalls.flatMap((c) => c.prompt.filter((m) => m.role === "tool").flatMap((m) => m.content.map((p) => p.output)));
    } catch (e) {
      out.thrown = e.name + ": " + e.message;
    }
  } else {
    // ptcTool, the same flow over ptc-wasm tools (no caller).
    const ptcTools = { refund: { effect: "write", approval: true, execute: async (args, { callId }) => {
      appendFileSync(dir + "/refunds.log", JSON.stringify({ ...args, toolCallId: callId }) + "\\n"); return { refunded: args.id }; } } };
    const run_program = ptcTool(runtime, { tools: ptcTools, stateKey });
    const p = { op: "call", tool: "refund", args: { id: "z", amount: 5 } };
    const m = new MockLanguageModelV4({ doGenerate: [
      ...(input.messages ? [] : [reply([{ type: "tool-call", toolCallId: "t-1", toolName: "run_program", input: JSON.stringify({ program: p }) }], "tool-calls")]),
      reply([{ type: "text", text: "ok" }], "stop") ] });
    const r = await generateText({ model: m, tools: { run_program }, ...secret, stopWhen: stepCountIs(3), ...(input.messages ? { messages: input.messages } : { prompt: "refund z" }) });
    out.approvals = r.content.filter((x) => x.type === "tool-approval-request").map((x) => ({ input: x.toolCall.input, approvalId: x.approvalId }));
    out.messages = [...(input.messages ?? [{ role: "user", content: "refund z" }]), ...r.response.messages];
    out.modelSaw = m.doGenerateCalls.flatMap((c) => c.prompt.filter((x) => x.role === "tool").flatMap((x) => x.content.map((q) => q.output)));
  }
  runtime.close?.();
  writeFileSync(dir + "/out.json", JSON.stringify(out));
`;

function request(entry, dir, mode, input, kind = "signed") {
  fs.writeFileSync(path.join(dir, "in.json"), JSON.stringify(input));
  execFileSync(process.execPath, ["--input-type=module", "-e", app(entry), mode, dir, kind], {
    cwd: root,
    encoding: "utf8",
  });
  // What travels: JSON text only.
  return JSON.parse(fs.readFileSync(path.join(dir, "out.json"), "utf8"));
}

const refunds = (dir) =>
  fs
    .readFileSync(path.join(dir, "refunds.log"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

const answer = (messages, approvalId, approved, reason) => [
  ...messages,
  { role: "tool", content: [{ type: "tool-approval-response", approvalId, approved, ...(reason ? { reason } : {}) }] },
];

function fresh() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-approvals-"));
  fs.writeFileSync(path.join(dir, "refunds.log"), "");
  return dir;
}

describe.each(["esm", "cjs"])("approvals across requests through the %s entry", (entry) => {
  test("approved: request 1 asks with the held call, request 2 runs the write once and the answer reaches the model", () => {
    const dir = fresh();
    const first = request(entry, dir, "caller", {});
    expect(first.thrown).toBeUndefined();
    expect(first.approvals).toHaveLength(1);
    const [ask] = first.approvals;
    // The person is asked about run_program's call, whose input shows the held call with every arg.
    expect(ask.tool).toBe("run_program");
    expect(ask.input.held).toEqual([{ tool: "refund", args: { id: "a", amount: 30 } }]);
    expect(ask.input.state.mac).toMatch(/^hmac-sha256:/);
    expect(refunds(dir)).toEqual([]); // nothing written yet

    const next = answer(first.messages, ask.approvalId, true);
    const second = request(entry, dir, "caller", { messages: next });
    expect(second.thrown).toBeUndefined();
    expect(refunds(dir)).toHaveLength(1);
    expect(refunds(dir)[0]).toMatchObject({ id: "a", amount: 30 });
    // The routed tool's toolCallId: run_program's call id, the tool, and the call's id in the run (or a count).
    expect(refunds(dir)[0].toolCallId).toMatch(/^call-1:refund:/);
    expect(second.modelSaw).toContainEqual({
      type: "json",
      value: expect.objectContaining({ ok: true, result: { refunded: "a", amount: 30 } }),
    });
    expect(second.text).toBe("done");

    // The same request sent again (a retry): the write's toolCallId is the same, so the host's dedupe holds.
    const again = request(entry, dir, "caller", { messages: next });
    expect(refunds(dir)).toHaveLength(1);
    expect(again.modelSaw).toContainEqual({
      type: "json",
      value: expect.objectContaining({ ok: true, result: { refunded: "a", amount: 30, duplicate: true } }),
    });
  }, 120000);

  test("denied: the program's try handles the denial (with the reason), and nothing is written", () => {
    const dir = fresh();
    const first = request(entry, dir, "caller", {});
    const second = request(entry, dir, "caller", {
      messages: answer(first.messages, first.approvals[0].approvalId, false, "over the limit"),
    });
    expect(second.thrown).toBeUndefined();
    expect(refunds(dir)).toEqual([]);
    expect(second.modelSaw).toContainEqual({
      type: "json",
      value: expect.objectContaining({
        ok: true,
        result: { denied: "Tool 'refund' failed: the call was denied: over the limit" },
      }),
    });
  }, 120000);

  test("a tampered state is refused: the SDK's signature, or without it the state's mac", () => {
    const dir = fresh();
    for (const kind of ["signed", "unsigned"]) {
      const first = request(entry, dir, "caller", {}, kind);
      const messages = structuredClone(first.messages);
      const call = messages
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .find((p) => p.type === "tool-call");
      call.input.held[0].args.amount = 3000;
      call.input.state.pending[0].args.amount = 3000;
      const second = request(
        entry,
        dir,
        "caller",
        { messages: answer(messages, first.approvals[0].approvalId, true) },
        kind,
      );
      if (kind === "signed") expect(second.thrown).toMatch(/signature/);
      else
        expect(second.modelSaw).toContainEqual({
          type: "json",
          value: expect.objectContaining({
            ok: false,
            code: "bad_state",
            error: expect.stringMatching(/mac does not match/),
          }),
        });
    }
    expect(refunds(dir)).toEqual([]);
  }, 120000);

  test("ptcTool asks the same way for a ptc-wasm tool with approval", () => {
    const dir = fresh();
    const first = request(entry, dir, "tool", {});
    expect(first.approvals.map((a) => a.input.held)).toEqual([[{ tool: "refund", args: { id: "z", amount: 5 } }]]);
    const second = request(entry, dir, "tool", {
      messages: answer(first.messages, first.approvals[0].approvalId, true),
    });
    expect(refunds(dir)).toHaveLength(1);
    expect(second.modelSaw).toContainEqual({
      type: "json",
      value: expect.objectContaining({ ok: true, result: { refunded: "z" } }),
    });
  }, 120000);
});
