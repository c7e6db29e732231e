// ptc-wasm/mcp: approvals across MCP calls for a client without elicitation
// (issue 33, point 2). With a stateKey, run_program answers a program's calls
// held for approval with the run's signed state, and resume_program resumes it
// approved or denied. A real MCP SDK client that declares no elicitation.
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { ptcWasm } = require("./helpers.cjs");
const { createMcpServer } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000);

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

const stateKey = "the host's state key";

// The write: each real refund is counted; deduped by the call identity { runId, callId },
// which is the same on every resume of one state (the README's dedupe pattern).
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
      if (!done.has(key)) done.set(key, { refunded: args.id, amount: args.amount });
      return done.get(key);
    },
  };
  return { tool, writes: () => done.size, calls: () => calls };
}

async function connected(options, capabilities = {}) {
  const server = createMcpServer(ptc, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "host", version: "1.0.0" }, { capabilities });
  await client.connect(clientSide);
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    return { isError: r.isError === true, code: r._meta?.code, texts: r.content.map((c) => c.text) };
  };
  return { client, call };
}

const program = {
  op: "try",
  expr: { op: "call", tool: "refund", args: { id: "a", amount: 30 } },
  catch: { op: "object", fields: { denied: { op: "var", name: "error", field: "message" } } },
};

async function held(call) {
  const r = await call("run_program_writes", { program });
  expect(r.isError).toBe(false);
  expect(r.code).toBe("held_for_approval");
  expect(r.texts[0]).toContain("resume_program");
  return JSON.parse(r.texts[1]);
}

describe("resume_program: a client without elicitation approves between two calls", () => {
  test("run answers the held calls and the state; approved, the write runs once and the answer comes back", async () => {
    const refund = refundTool();
    const { call } = await connected({ tools: { refund: refund.tool }, stateKey });
    const answer = await held(call);
    expect(answer.held).toEqual([{ tool: "refund", args: { id: "a", amount: 30 } }]);
    expect(typeof answer.state.mac).toBe("string");
    expect(refund.writes()).toBe(0);
    const r = await call("resume_program", { state: answer.state, approved: true });
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.texts[0])).toEqual({ refunded: "a", amount: 30 });
    expect(refund.writes()).toBe(1);
    // The same state again (a retry): the call identity is the same, so the tool's dedupe keeps one write.
    const again = await call("resume_program", { state: answer.state, approved: true });
    expect(JSON.parse(again.texts[0])).toEqual({ refunded: "a", amount: 30 });
    expect(refund.calls()).toBe(2);
    expect(refund.writes()).toBe(1);
  });

  test("denied: the program's try gets the denial, with the reason; nothing is written", async () => {
    const refund = refundTool();
    const { call } = await connected({ tools: { refund: refund.tool }, stateKey });
    const answer = await held(call);
    const r = await call("resume_program", { state: answer.state, approved: false, reason: "too much" });
    expect(r.isError).toBe(false);
    const result = JSON.parse(r.texts[0]);
    expect(Object.keys(result)).toEqual(["denied"]);
    expect(result.denied).toContain("too much");
    expect(refund.writes()).toBe(0);
  });

  test("a tampered state is refused (bad_state); nothing is written", async () => {
    const refund = refundTool();
    const { call } = await connected({ tools: { refund: refund.tool }, stateKey });
    const answer = await held(call);
    const tampered = JSON.parse(JSON.stringify(answer.state).replace('"amount":30', '"amount":3000'));
    expect(tampered).not.toEqual(answer.state);
    const r = await call("resume_program", { state: tampered, approved: true });
    expect(r.isError).toBe(true);
    expect(r.code).toBe("bad_state");
    expect(r.texts[0]).toMatch(/stateKey|signed|changed/);
    const notObject = await call("resume_program", { state: "nope", approved: true });
    expect(notObject.isError).toBe(true);
    expect(notObject.code).toBe("bad_state");
    expect(refund.writes()).toBe(0);
  });

  test("without a stateKey tools/list is unchanged and a client without elicitation gets the call denied", async () => {
    const refund = refundTool();
    const plain = await connected({ tools: { refund: refund.tool } });
    const keyed = await connected({ tools: { refund: refund.tool }, stateKey });
    const names = async (c) => (await c.client.listTools()).tools.map((t) => t.name).sort();
    const without = await names(plain);
    expect(without).not.toContain("resume_program");
    expect(await names(keyed)).toEqual([...without, "resume_program"].sort());
    const r = await plain.call("run_program_writes", { program });
    expect(JSON.parse(r.texts[0]).denied).toContain("elicitation");
    expect(refund.writes()).toBe(0);
  });

  test("with elicitation, the user is asked as before, even with a stateKey", async () => {
    const refund = refundTool();
    const { client, call } = await connected({ tools: { refund: refund.tool }, stateKey }, { elicitation: {} });
    const { ElicitRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: "accept", content: { allow: true } };
    });
    const r = await call("run_program_writes", { program });
    expect(r.code).toBeUndefined();
    expect(JSON.parse(r.texts[0])).toEqual({ refunded: "a", amount: 30 });
    expect(asked).toBe(1);
    expect(refund.writes()).toBe(1);
  });
});

describe("ptc-wasm mcp --state-key-file", () => {
  const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
  const { spawnSync } = require("node:child_process");
  const fs = require("node:fs");
  const os = require("node:os");
  const path = require("node:path");
  const root = path.join(__dirname, "../..");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-state-key-"));

  test("with a key file the server lists resume_program; a key file too short is refused (exit 2)", async () => {
    const key = path.join(dir, "key");
    fs.writeFileSync(key, "a key of the host, 32 bytes long");
    const client = new Client({ name: "host", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["dist/cli.mjs", "mcp", "--state-key-file", key],
      cwd: root,
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("resume_program");
    } finally {
      await client.close();
    }
    const short = path.join(dir, "short");
    fs.writeFileSync(short, "short");
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "mcp", "--state-key-file", short], {
      cwd: root,
      input: "",
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("at least 16");
  });
});
