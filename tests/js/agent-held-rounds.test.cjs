// A second round of held calls, for a host that approves between requests
// (issue 33's approvals across requests, at the integration edge): a program
// that goes on after its first approved calls to another call that needs
// approval holds again, with a new signed state, resumed the same way; every
// approved write runs once and a denial reaches the program's try. Through MCP
// without elicitation (resume_program, for run_program and for run_workflow's
// step functions) and through the AI SDK's approval flow (ptcTool).
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { ptcWasm } = require("./helpers.cjs");
const { createMcpServer } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000);

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

const stateKey = "the host's state key";

// The write, deduped by the call identity { runId, callId } (the same on every resume of one state).
function refundTool() {
  const done = new Map();
  let calls = 0;
  const tool = {
    description: "Refunds an order.",
    effect: "write",
    approval: true,
    execute: async (args, { runId, callId }) => {
      calls++;
      const key = `${runId}/${callId}`;
      if (!done.has(key)) done.set(key, `refunded ${args.id}`);
      return done.get(key);
    },
  };
  return { tool, writes: () => [...done.values()], calls: () => calls };
}

async function connected(options) {
  const server = createMcpServer(ptc, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "host", version: "1.0.0" }); // no elicitation
  await client.connect(clientSide);
  return async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    return { isError: r.isError === true, code: r._meta?.code, texts: r.content.map((c) => c.text) };
  };
}

// Two writes one after the other, each needing approval; the second's denial is caught.
const program = {
  op: "let",
  name: "first",
  value: { op: "call", tool: "refund", args: { id: "a" } },
  in: {
    op: "let",
    name: "second",
    value: {
      op: "try",
      expr: { op: "call", tool: "refund", args: { id: "b" } },
      catch: { op: "object", fields: { denied: { op: "var", name: "error", field: "message" } } },
    },
    in: { op: "object", fields: { first: { op: "var", name: "first" }, second: { op: "var", name: "second" } } },
  },
};

// The same in step functions.
const file = {
  functions: [
    {
      function: "main",
      output: "text",
      steps: [
        { let: "first", call: "refund", args: { id: "a" } },
        { let: "second", call: "refund", args: { id: "b" }, "on-error": { return: "$first; denied: $error" } },
        { return: "$first; $second" },
      ],
    },
  ],
};

function heldAnswer(r, kind) {
  expect(r.isError).toBe(false);
  expect(r.code).toBe("held_for_approval");
  expect(r.texts[0]).toContain("resume_program");
  const answer = JSON.parse(r.texts[1]);
  expect(answer.state.kind).toBe(kind);
  expect(typeof answer.state.mac).toBe("string");
  return answer;
}

describe.each([
  ["run_program_writes", { program }, "program"],
  ["run_workflow_writes", file, "workflow"],
])("MCP without elicitation, %s: a second held call holds again", (tool, args, kind) => {
  const ended = (r) => JSON.parse(r.texts[0]);

  test("each round answers its held calls and a new state; approved twice, each write runs once", async () => {
    const refund = refundTool();
    const call = await connected({ tools: { refund: refund.tool }, stateKey });
    const one = heldAnswer(await call(tool, args), kind);
    expect(one.held).toEqual([{ tool: "refund", args: { id: "a" } }]);
    expect(refund.writes()).toEqual([]);

    const two = heldAnswer(await call("resume_program", { state: one.state, approved: true }), kind);
    expect(two.held).toEqual([{ tool: "refund", args: { id: "b" } }]);
    expect(two.state.mac).not.toBe(one.state.mac);
    expect(refund.writes()).toEqual(["refunded a"]);

    const done = await call("resume_program", { state: two.state, approved: true });
    expect(done.isError).toBe(false);
    expect(done.code).toBeUndefined();
    const both = kind === "program" ? { first: "refunded a", second: "refunded b" } : "refunded a; refunded b";
    expect(ended(done)).toEqual(both);
    expect(refund.writes()).toEqual(["refunded a", "refunded b"]);
    // The second state again (a retry): the first write is answered from the state, the second deduped.
    const again = await call("resume_program", { state: two.state, approved: true });
    expect(ended(again)).toEqual(both);
    expect(refund.writes()).toEqual(["refunded a", "refunded b"]);
  });

  test("the second round denied: the try (on-error) gets the denial with its reason; one write", async () => {
    const refund = refundTool();
    const call = await connected({ tools: { refund: refund.tool }, stateKey });
    const one = heldAnswer(await call(tool, args), kind);
    const two = heldAnswer(await call("resume_program", { state: one.state, approved: true }), kind);
    const r = await call("resume_program", { state: two.state, approved: false, reason: "one is enough" });
    expect(r.isError).toBe(false);
    const result = ended(r);
    if (kind === "program") {
      expect(result.first).toBe("refunded a");
      expect(result.second.denied).toContain("one is enough");
    } else expect(result).toMatch(/^refunded a; denied: .*one is enough/);
    expect(refund.writes()).toEqual(["refunded a"]);
  });

  test("a tampered second state is refused (bad_state); nothing more is written", async () => {
    const refund = refundTool();
    const call = await connected({ tools: { refund: refund.tool }, stateKey });
    const one = heldAnswer(await call(tool, args), kind);
    const two = heldAnswer(await call("resume_program", { state: one.state, approved: true }), kind);
    const tampered = JSON.parse(JSON.stringify(two.state).replaceAll('"id":"b"', '"id":"c"'));
    expect(tampered).not.toEqual(two.state);
    const r = await call("resume_program", { state: tampered, approved: true });
    expect(r.isError).toBe(true);
    expect(r.code).toBe("bad_state");
    expect(refund.writes()).toEqual(["refunded a"]);
  });
});

test("run_workflow without a stateKey: a client without elicitation gets the held call denied, as before", async () => {
  const refund = refundTool();
  const call = await connected({ tools: { refund: refund.tool } });
  const r = await call("run_workflow_writes", file);
  expect(r.isError).toBe(true); // the first call has no on-error
  expect(r.code).toBe("tool_failed");
  expect(r.texts[0]).toContain("elicitation");
  expect(refund.writes()).toEqual([]);
});

// The AI SDK: each request its own Node process (ai is ESM-only), sharing only the messages and keys.
const root = path.join(__dirname, "../..");
const app = `
  import { readFileSync, writeFileSync, appendFileSync } from "node:fs";
  import { createRuntime } from "ptc-wasm";
  const { ptcTool } = await import("ptc-wasm/ai-sdk");
  const { generateText, stepCountIs } = await import("ai");
  const { MockLanguageModelV4 } = await import("ai/test");
  const [dir] = process.argv.slice(1);
  const input = JSON.parse(readFileSync(dir + "/in.json", "utf8"));
  const program = ${JSON.stringify(program)};
  const done = new Set(readFileSync(dir + "/refunds.log", "utf8").split("\\n").filter(Boolean).map((l) => JSON.parse(l).key));
  const refund = { effect: "write", approval: true, execute: async (args, { runId, callId }) => {
    const key = runId + "/" + callId;
    if (!done.has(key)) appendFileSync(dir + "/refunds.log", JSON.stringify({ id: args.id, key }) + "\\n");
    done.add(key);
    return "refunded " + args.id; } };
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const reply = (content, unified) => ({ content, finishReason: { unified, raw: undefined }, usage, warnings: [] });
  let n = 0;
  // The model: sends the program; given a held_for_approval output, sends its input back unchanged; else ends.
  const model = new MockLanguageModelV4({ doGenerate: async ({ prompt }) => {
    n++;
    const last = prompt.at(-1);
    const out = last?.role === "tool" ? last.content.at(-1)?.output?.value : undefined;
    if (!input.messages) return reply([{ type: "tool-call", toolCallId: "t-1", toolName: "run_program", input: JSON.stringify({ program }) }], "tool-calls");
    if (out?.code === "held_for_approval") return reply([{ type: "tool-call", toolCallId: "t-" + (prompt.length + 1), toolName: "run_program", input: JSON.stringify(out.input) }], "tool-calls");
    return reply([{ type: "text", text: "done" }], "stop");
  } });
  const runtime = await createRuntime();
  const run_program = ptcTool(runtime, { tools: { refund }, stateKey: "the host's state key" });
  const messages = input.messages ? await run_program.denials(input.messages) : undefined;
  const r = await generateText({ model, tools: { run_program }, experimental_toolApprovalSecret: "the host's approval secret",
    stopWhen: stepCountIs(4), ...(messages ? { messages } : { prompt: "refund a and b" }) });
  const out = {
    text: r.text,
    approvals: r.content.filter((x) => x.type === "tool-approval-request").map((x) => ({ input: x.toolCall.input, approvalId: x.approvalId })),
    messages: [...(messages ?? [{ role: "user", content: "refund a and b" }]), ...r.responseMessages],
    modelSaw: model.doGenerateCalls.flatMap((c) => c.prompt.filter((x) => x.role === "tool").flatMap((x) => x.content.map((q) => q.output))),
  };
  runtime.close?.();
  writeFileSync(dir + "/out.json", JSON.stringify(out));
`;

function request(dir, input) {
  fs.writeFileSync(path.join(dir, "in.json"), JSON.stringify(input));
  execFileSync(process.execPath, ["--input-type=module", "-e", app, dir], { cwd: root, encoding: "utf8" });
  return JSON.parse(fs.readFileSync(path.join(dir, "out.json"), "utf8"));
}

const refunds = (dir) =>
  fs
    .readFileSync(path.join(dir, "refunds.log"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l).id);

const answer = (messages, approvalId, approved, reason) => [
  ...messages,
  { role: "tool", content: [{ type: "tool-approval-response", approvalId, approved, ...(reason ? { reason } : {}) }] },
];

describe("the AI SDK's approval flow (ptcTool with a stateKey): a second held call holds again", () => {
  function twoRounds() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-held-rounds-"));
    fs.writeFileSync(path.join(dir, "refunds.log"), "");
    const first = request(dir, {});
    expect(first.approvals).toHaveLength(1);
    expect(first.approvals[0].input.held).toEqual([{ tool: "refund", args: { id: "a" } }]);
    expect(refunds(dir)).toEqual([]);
    // Approved: refund a runs; the program goes on to refund b and holds again, asked like the first.
    const second = request(dir, { messages: answer(first.messages, first.approvals[0].approvalId, true) });
    expect(refunds(dir)).toEqual(["a"]);
    expect(second.modelSaw).toContainEqual({
      type: "json",
      value: expect.objectContaining({ ok: false, code: "held_for_approval" }),
    });
    expect(second.approvals).toHaveLength(1);
    const [ask] = second.approvals;
    expect(ask.input.held).toEqual([{ tool: "refund", args: { id: "b" } }]);
    expect(ask.input.state.mac).toMatch(/^hmac-sha256:/);
    expect(ask.input.state.mac).not.toBe(first.approvals[0].input.state.mac);
    return { dir, second, ask };
  }

  test("approved twice: each write runs once, and the program's answer reaches the model", () => {
    const { dir, second, ask } = twoRounds();
    const next = answer(second.messages, ask.approvalId, true);
    const third = request(dir, { messages: next });
    expect(refunds(dir)).toEqual(["a", "b"]);
    const result = { first: "refunded a", second: "refunded b" };
    expect(third.modelSaw).toContainEqual({ type: "json", value: expect.objectContaining({ ok: true, result }) });
    expect(third.text).toBe("done");
    // The third request sent again (a retry): still one write each.
    request(dir, { messages: next });
    expect(refunds(dir)).toEqual(["a", "b"]);
  }, 120000);

  test("the second round denied: the program's try gets the denial; one write", () => {
    const { dir, second, ask } = twoRounds();
    const third = request(dir, { messages: answer(second.messages, ask.approvalId, false, "one is enough") });
    expect(refunds(dir)).toEqual(["a"]);
    expect(third.modelSaw).toContainEqual({
      type: "json",
      value: expect.objectContaining({
        ok: true,
        result: { first: "refunded a", second: { denied: "Tool 'refund' failed: the call was denied: one is enough" } },
      }),
    });
  }, 120000);
});
