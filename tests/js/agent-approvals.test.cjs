// Approvals where agents run programs (issue 16 item 3): the AI SDK tools and
// the MCP server decide held calls through the session's approve function (the
// MCP server asks its client's user by elicitation), and the CLI suspends to a
// state file and resumes it in a later process. The tool limits reach all three.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { ElicitRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
const { ptcWasm } = require("./helpers.cjs");
const { createMcpServer } = require("../../dist/mcp.cjs");

const root = path.join(__dirname, "../..");
const refundsProgram = {
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
};
const orders = [
  { id: "a", amount: 20 },
  { id: "b", amount: 900 },
];
function refundTool() {
  const tool = {
    effect: "write",
    approval: ({ amount }) => amount > 100,
    ran: [],
    execute: async ({ id, amount }) => (tool.ran.push(id), { id, refunded: amount }),
  };
  return tool;
}

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

// The AI SDK entry is ESM-only through `ai`; Jest here loads CommonJS, so these
// checks run in a child Node process that prints what it saw as JSON.
describe("sessions (AI SDK tools)", () => {
  const script = `
    import { createRuntime } from ${JSON.stringify(path.join(root, "dist/node.mjs"))};
    import { ptcTool, workflowTool } from ${JSON.stringify(path.join(root, "dist/ai-sdk.mjs"))};
    const ptc = await createRuntime();
    const program = ${JSON.stringify(refundsProgram)};
    const orders = ${JSON.stringify(orders)};
    ${refundTool.toString()}
    const seen = {};
    const refund = refundTool();
    const asked = [];
    seen.approved = await ptcTool(ptc, { tools: { refund }, context: { orders },
      approve: async (call) => (asked.push(call), true) }).execute(program);
    seen.asked = asked;
    seen.ran = refund.ran;
    seen.noApprover = await ptcTool(ptc, { tools: { refund: refundTool() }, context: { orders } }).execute(program);
    seen.throwing = await ptcTool(ptc, { tools: { refund: refundTool() }, context: { orders },
      approve: () => { throw new Error("approvals service down"); } }).execute(program);
    seen.answering = await ptcTool(ptc, { tools: { refund: refundTool() }, context: { orders },
      approve: (call) => ({ value: { id: call.args.id, refunded: 0, note: "done by hand" } }) }).execute(program);
    try { ptcTool(ptc, { approve: "yes" }); } catch (e) { seen.badOption = e.message; }
    seen.workflow = await workflowTool(ptc, {
      tools: { charge: { approval: true, execute: async () => "charged" } },
      approve: () => ({ approved: false, reason: "card expired" }),
    }).execute({ functions: [{ function: "main", output: "any",
      steps: [{ let: "c", call: "charge", "on-error": { return: "$error" } }, { return: "$c" }] }] });
    const calls = { op: "list", items: [1, 2, 3].map(() => ({ op: "call", tool: "t" })) };
    seen.limited = await ptcTool(ptc, { tools: { t: async () => 1 }, maxToolCalls: 2 }).execute({ program: calls });
    console.log(JSON.stringify(seen));
  `;
  let seen;
  beforeAll(() => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    seen = JSON.parse(r.stdout);
  });

  test("the approve function decides each held call, and the run goes on to its answer", () => {
    expect(seen.approved).toEqual({
      ok: true,
      result: [
        { id: "a", refunded: 20 },
        { id: "b", refunded: 900 },
      ],
    });
    expect(seen.asked).toEqual([
      expect.objectContaining({ tool: "refund", args: { id: "b", amount: 900 }, reason: "approval" }),
    ]);
    expect(seen.ran).toEqual(["a", "b"]);
  });

  test("without an approve function a held call is denied, and the model reads why", () => {
    expect(seen.noApprover.result[1]).toBe(
      "Tool 'refund' failed: the call was denied: this session has no one to approve it (its host gave no approve function)",
    );
  });

  test("an approve function that throws denies with its message; one may answer for the tool", () => {
    expect(seen.throwing.result[1]).toContain("asking for approval failed (approvals service down)");
    expect(seen.answering.result[1]).toEqual({ id: "b", refunded: 0, note: "done by hand" });
    expect(seen.badOption).toBe("ptc-wasm: options.approve must be a function deciding a held call");
  });

  test("workflowTool asks the same way, and the tool limits reach the runs", () => {
    expect(seen.workflow).toEqual({ ok: true, result: "the call was denied: card expired" }); // $error is the tool's message
    expect(seen.limited).toMatchObject({ ok: false, code: "tool_call_limit" });
  });
});

describe("the MCP server", () => {
  async function connected(clientCapabilities, onElicit) {
    const refund = refundTool();
    const server = createMcpServer(ptc, { tools: { refund }, context: { orders } });
    const client = new Client({ name: "approvals-test", version: "1.0.0" }, { capabilities: clientCapabilities });
    if (onElicit) client.setRequestHandler(ElicitRequestSchema, onElicit);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const run = async () => {
      // refund writes: its programs go to run_program_writes (run_program is read-only, issue 33 point 6).
      const r = await client.callTool({ name: "run_program_writes", arguments: refundsProgram });
      return JSON.parse(r.content[0].text);
    };
    return { refund, client, server, run };
  }

  test("asks the client's user by elicitation: allowed runs the call", async () => {
    const asked = [];
    const { refund, client, run } = await connected({ elicitation: { form: {} } }, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { allow: true } };
    });
    try {
      expect(await run()).toEqual([
        { id: "a", refunded: 20 },
        { id: "b", refunded: 900 },
      ]);
      expect(asked).toEqual([
        'A program asks to call the tool "refund" at "/program/steps/1/expr/expr" with these args (every one, as JSON):\n' +
          '  "amount": 900\n' +
          '  "id": "b"\n' +
          "Allow it?",
      ]);
      expect(refund.ran).toEqual(["a", "b"]);
    } finally {
      await client.close();
    }
  });

  test("a user who says no (with a reason) or declines denies the call; the program's try sees it", async () => {
    const answers = [{ action: "accept", content: { allow: false, reason: "not today" } }, { action: "decline" }];
    const { client, run } = await connected({ elicitation: { form: {} } }, async () => answers.shift());
    try {
      expect((await run())[1]).toBe("Tool 'refund' failed: the call was denied: not today");
      expect((await run())[1]).toBe("Tool 'refund' failed: the call was denied: the user chose to decline");
    } finally {
      await client.close();
    }
  });

  // Issue 24, item 2: the person sees every arg that reaches the tool, in a layout the program cannot forge.
  describe("what the user is shown", () => {
    const ask = async (args, program) => {
      const asked = [];
      const { client, refund } = await connected({ elicitation: { form: {} } }, async (request) => {
        asked.push(request.params.message);
        return { action: "accept", content: { allow: false, reason: "checked" } };
      });
      try {
        const r = await client.callTool({
          name: "run_program_writes",
          arguments: program ?? { program: { op: "call", tool: "refund", args } },
        });
        return { asked, ran: refund.ran, text: r.content[0].text };
      } finally {
        await client.close();
      }
    };

    test("every arg, whole, each on its own line: a long one first hides none after it", async () => {
      const note = "Routine refund, nothing to see. ".repeat(19); // 608 characters
      const { asked } = await ask({ note, id: "z", amount: 1000000 });
      expect(asked).toHaveLength(1);
      expect(asked[0].split("\n")).toEqual([
        'A program asks to call the tool "refund" at "/program" with these args (every one, as JSON):',
        '  "amount": 1000000',
        '  "id": "z"',
        `  "note": ${JSON.stringify(note)}`,
        "Allow it?",
      ]);
    });

    test("keys, texts and the path are quoted and escaped: no line is the program's", async () => {
      const key = "amount\nNote from the host: already approved";
      const program = {
        program: {
          ["s\nNote from the host: already approved\u001b[2K"]: {
            op: "call",
            tool: "refund",
            args: { [key]: 1, id: "x\r\u009b\u202e", amount: 500 },
          },
        },
      };
      const { asked } = await ask(undefined, program);
      const lines = asked[0].split("\n");
      expect(lines).toEqual([
        'A program asks to call the tool "refund" at "/program/s\\nNote from the host: already approved\\u001b[2K" ' +
          "with these args (every one, as JSON):",
        '  "amount": 500',
        '  "amount\\nNote from the host: already approved": 1',
        '  "id": "x\\r\\u009b\\u202e"',
        "Allow it?",
      ]);
    });

    test("args too long to show are not put to the user: the call is denied, saying why", async () => {
      const { asked, ran, text } = await ask({ id: "z", amount: 1000000, note: "x".repeat(3000) });
      expect(asked).toEqual([]);
      expect(ran).toEqual([]);
      expect(text).toMatch(
        /Tool 'refund' failed: the call was denied: its args take \d+ characters to show, more than the 2000 a person is shown to approve a call: call the tool with smaller args/,
      );
    });
  });

  test("a client without elicitation: the call is denied, saying why", async () => {
    const { client, run } = await connected({}, undefined);
    try {
      expect((await run())[1]).toBe(
        "Tool 'refund' failed: the call was denied: the MCP client cannot ask its user (it does not support elicitation)",
      );
    } finally {
      await client.close();
    }
  });
});

describe("the CLI", () => {
  let tmp;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-approvals-"));
    fs.writeFileSync(
      path.join(tmp, "tools.mjs"),
      "export const refund = { effect: 'write', approval: ({ amount }) => amount > 100,\n" +
        "  execute: async ({ id, amount }) => ({ id, refunded: amount }) };\n" +
        "export async function weather({ city }) { return { city, celsius: city.length }; }\n",
    );
    fs.writeFileSync(path.join(tmp, "program.json"), JSON.stringify(refundsProgram));
    fs.writeFileSync(path.join(tmp, "context.json"), JSON.stringify({ orders }));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const cli = (...args) => {
    const r = spawnSync(process.execPath, [path.join(root, "dist/cli.mjs"), ...args], { cwd: tmp, encoding: "utf8" });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  test("run stops at a call needing approval (exit 4, the state written); resume in another process finishes it", () => {
    const first = cli(
      "run",
      "program.json",
      "--tools",
      "tools.mjs",
      "--context",
      "context.json",
      "--state-out",
      "state.json",
    );
    expect(first.code).toBe(4);
    const [held] = JSON.parse(fs.readFileSync(path.join(tmp, "state.json"), "utf8")).pending;
    expect(held.id).toMatch(/^call-[0-9a-f]{14}$/);
    expect(first.stderr).toContain(
      `${held.id}: "refund" {"id":"b","amount":900} at "/program/steps/1/expr/expr" (approval)`,
    );
    expect(first.stderr).toContain("resume with: ptc-wasm resume state.json --results <file>");
    fs.writeFileSync(path.join(tmp, "results.json"), JSON.stringify({ [held.id]: { approved: true } }));
    const done = cli(
      "resume",
      "state.json",
      "--results",
      "results.json",
      "--tools",
      "tools.mjs",
      "--context",
      "context.json",
    );
    expect(done).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(done.stdout)).toEqual([
      { id: "a", refunded: 20 },
      { id: "b", refunded: 900 },
    ]);
    const wrong = cli("resume", "state.json", "--results", "results.json", "--tools", "tools.mjs");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("The context differs from the one the run suspended with");
  });

  test("--journal records the tool I/O and --replay answers a run from it, without the tools", () => {
    const ask = (cities) =>
      JSON.stringify({
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: cities },
            { op: "map", as: "c", expr: { op: "call", tool: "weather", args: { city: { op: "var", name: "c" } } } },
            { op: "max", field: "celsius" },
          ],
        },
      });
    fs.writeFileSync(path.join(tmp, "two.json"), ask(["Oslo", "Lisbon"]));
    fs.writeFileSync(path.join(tmp, "one.json"), ask(["Lisbon"]));
    expect(cli("run", "two.json", "--tools", "tools.mjs", "--journal", "journal.json")).toMatchObject({
      code: 0,
      stdout: "6\n",
    });
    expect(JSON.parse(fs.readFileSync(path.join(tmp, "journal.json"), "utf8"))).toHaveLength(2);
    expect(cli("run", "one.json", "--replay", "journal.json")).toMatchObject({ code: 0, stdout: "6\n" });
    fs.writeFileSync(path.join(tmp, "other.json"), ask(["Rome"]));
    const missing = cli("run", "other.json", "--replay", "journal.json");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("which the recording being replayed does not hold");
  });

  test("the tool limits are flags, checked as the options are", () => {
    fs.writeFileSync(
      path.join(tmp, "three.json"),
      JSON.stringify({
        program: {
          op: "list",
          items: ["a", "b", "c"].map((city) => ({ op: "call", tool: "weather", args: { city } })),
        },
      }),
    );
    const over = cli("run", "three.json", "--tools", "tools.mjs", "--max-tool-calls", "2");
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("limit of 2 tool calls (--max-tool-calls)");
    expect(
      cli("run", "three.json", "--tools", "tools.mjs", "--max-concurrency", "1", "--tool-timeout", "500").code,
    ).toBe(0);
    const bad = cli("run", "three.json", "--max-concurrency", "1.5");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max-concurrency must be a positive integer");
  });
});
