// Sessions (the MCP server's and the AI SDK tools'), as issue 24 found them
// (items 5, 14, 21): an approve function that edits the call it is shown, a
// model call whose program resumes after approvals (one time limit for all of
// it, the host's timers still running) and programs of one session in flight
// at once (no memory update lost).
const { spawnSync } = require("node:child_process");
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { ptcWasm, sleep } = require("./helpers.cjs");
const { createMcpServer } = require("../../dist/mcp.cjs");

const root = path.join(__dirname, "../..");
const call = (tool, args = {}) => ({ op: "call", tool, args });

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

/** An MCP server over `options` and a client of it; run(program) is one model call of run_program(_writes). */
async function session(options) {
  const server = createMcpServer(ptc, options);
  const client = new Client({ name: "sessions-test", version: "1.0.0" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  // These programs call tools that write: where a tool writes, they go to run_program_writes (run_program is read-only).
  const names = (await client.listTools()).tools.map((t) => t.name);
  const name = names.includes("run_program_writes") ? "run_program_writes" : "run_program";
  const run = async (program) => {
    const r = await client.callTool({ name, arguments: { program } });
    return { isError: r.isError === true, code: r._meta?.code, texts: r.content.map((c) => c.text) };
  };
  return { run, close: () => client.close() };
}

describe("an approve function that edits the call it is shown", () => {
  test("redacting a field decides the call once; the tool gets the program's args", async () => {
    const paid = [];
    const shown = [];
    let approvals = 0;
    const s = await session({
      tools: { pay: { effect: "write", approval: true, execute: async (args) => (paid.push(args), "paid") } },
      approve: (held) => {
        approvals++;
        shown.push(JSON.stringify(held.args));
        // A host that logs the call without the card number. (Past 20 rounds it
        // stops editing, so that a loop ends and the count shows it.)
        if (approvals <= 20) held.args.card = "****";
        return true;
      },
    });
    try {
      const r = await s.run(call("pay", { card: "4111 1111 1111 1111", amount: 5 }));
      expect(r).toEqual({ isError: false, code: undefined, texts: ['"paid"'] });
      expect(approvals).toBe(1);
      expect(shown).toEqual(['{"card":"4111 1111 1111 1111","amount":5}']);
      expect(paid).toEqual([{ card: "4111 1111 1111 1111", amount: 5 }]);
    } finally {
      await s.close();
    }
  });
});

describe("a model call whose program resumes after approvals", () => {
  // Three writes that ask first, each after a read that takes 60 ms.
  const slowThenPay = {
    op: "list",
    items: [1, 2, 3].flatMap((n) => [call("slow", { n }), call("pay", { n })]),
  };
  const tools = {
    slow: async ({ n }) => (await sleep(60), n),
    pay: { effect: "write", approval: true, execute: async ({ n }) => `paid ${n}` },
  };

  test("has one timeoutMs for all its runs: each run after an approval gets only what is left", async () => {
    // Each run alone (one read, 60 ms) is within 150 ms; the three reads of the call (180 ms) are not.
    const s = await session({ tools, timeoutMs: 150, maxConcurrency: 1, approve: () => true });
    try {
      const r = await s.run(slowThenPay);
      expect(r).toMatchObject({ isError: true, code: "timeout" });
      expect(r.texts[0]).toContain("Execution exceeded the time limit of 150 ms (timeoutMs) of this call");
    } finally {
      await s.close();
    }
  });

  test("the clock stops while the approve function decides: a person may take longer than a program may run", async () => {
    let asked = 0;
    const s = await session({
      tools: { pay: tools.pay },
      timeoutMs: 1000,
      approve: async () => (asked++, await sleep(1050), true),
    });
    try {
      expect(await s.run(call("pay", { n: 1 }))).toEqual({ isError: false, code: undefined, texts: ['"paid 1"'] });
      expect(asked).toBe(1);
    } finally {
      await s.close();
    }
  });

  test("lets the host's timers run between its runs, however fast the approvals come", async () => {
    let fired = false;
    const firedWhenAsked = [];
    const s = await session({
      tools: { pay: tools.pay },
      maxConcurrency: 1, // one call at a time: a round of approvals (and a run) per call
      approve: () => {
        if (firedWhenAsked.length === 0) setTimeout(() => (fired = true), 0);
        firedWhenAsked.push(fired);
        return true;
      },
    });
    try {
      const r = await s.run({ op: "list", items: [1, 2, 3].map((n) => call("pay", { n })) });
      expect(r.texts).toEqual(['["paid 1","paid 2","paid 3"]']);
      // Asked three times (a run each): the timer set at the first had fired by the second.
      expect(firedWhenAsked).toEqual([false, true, true]);
    } finally {
      await s.close();
    }
  });
});

// Two programs in flight at once, each storing its own key: both must be kept.
// `meet` answers both calls once both programs have made theirs.
function meeting() {
  const waiting = [];
  return async () => {
    await new Promise((resolve) => {
      waiting.push(resolve);
      if (waiting.length === 2) for (const go of waiting) go();
    });
    return "met";
  };
}
const storing = (key) => ({
  op: "pipe",
  steps: [call("meet"), { op: "literal", value: { result: "ok", [key]: key } }],
});
const readBoth = {
  op: "list",
  items: [
    { op: "var", name: "a" },
    { op: "var", name: "b" },
  ],
};

describe("programs of one session in flight at once", () => {
  test("MCP: both programs' memory updates are kept", async () => {
    const s = await session({ tools: { meet: meeting() } });
    try {
      const [a, b] = await Promise.all([s.run(storing("a")), s.run(storing("b"))]);
      expect(a.texts[1]).toContain("Stored in memory for your next programs");
      expect(b.texts[1]).toContain("Stored in memory for your next programs");
      expect(await s.run(readBoth)).toMatchObject({ isError: false, texts: ['["a","b"]'] });
    } finally {
      await s.close();
    }
  });

  test("AI SDK: both programs' memory updates are kept", () => {
    // The AI SDK entry is ESM-only through `ai`: run in a child Node process.
    const script = `
      import { createRuntime } from ${JSON.stringify(path.join(root, "dist/node.mjs"))};
      import { ptcTool } from ${JSON.stringify(path.join(root, "dist/ai-sdk.mjs"))};
      ${meeting.toString()}
      const t = ptcTool(await createRuntime(), { tools: { meet: meeting() } });
      const both = await Promise.all([t.execute({ program: ${JSON.stringify(storing("a"))} }),
        t.execute({ program: ${JSON.stringify(storing("b"))} })]);
      console.log(JSON.stringify({ both, read: await t.execute({ program: ${JSON.stringify(readBoth)} }) }));
    `;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const seen = JSON.parse(r.stdout);
    expect(seen.both).toEqual([
      { ok: true, result: "ok", stored: ["a"] },
      { ok: true, result: "ok", stored: ["b"] },
    ]);
    expect(seen.read).toEqual({ ok: true, result: ["a", "b"] });
  });
});
