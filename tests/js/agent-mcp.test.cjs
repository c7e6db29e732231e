// ptc-wasm/mcp, driven the way an MCP host drives it: the official SDK's Client
// over stdio, spawning `node dist/cli.mjs mcp --tools <module> --context <file>`.
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { ptcWasm } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const example = path.join(root, "examples/agent-loop");

let client, ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  client = new Client({ name: "ptc-wasm-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        "dist/cli.mjs",
        "mcp",
        "--tools",
        path.join(example, "tools.mjs"),
        "--context",
        path.join(example, "data.json"),
      ],
      cwd: root,
      stderr: "pipe",
    }),
  );
});
afterAll(async () => {
  await client?.close();
});

const text = (result) => result.content.map((c) => c.text).join("\n");

// Issue 25: every model step carries tools/list, so the input schemas are minimal by default.
test("lists run_program, run_workflow and describe_language, with minimal schemas and the compact prompt", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["describe_language", "run_program", "run_workflow"]);
  const run = tools.find((t) => t.name === "run_program");
  expect(run.inputSchema.type).toBe("object");
  expect(run.inputSchema.required).toEqual(["program"]);
  expect(run.inputSchema.properties.program.type).toBe("object");
  expect(run.inputSchema.properties.context.type).toBe("object");
  expect(run.inputSchema.$defs).toBeUndefined();
  // The description teaches the language, names the tools and the context, and says how to ask for more.
  for (const op of ptc.operations()) expect(run.description).toMatch(new RegExp(`\\b${op.name}\\b`));
  expect(run.description).toContain("get_orders(status?:");
  expect(run.description).toContain("`expenses`: list of 24 objects");
  expect(run.description).toContain('describe_language {"topic": "date_diff"}');
});

test('with schema "full", the input schemas are the generated JSON Schemas', async () => {
  const { createMcpServer } = require("../../dist/mcp.cjs");
  const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
  const server = createMcpServer(ptc, { tools: { get_orders: async () => [] }, schema: "full" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const inProcess = new Client({ name: "full-schema", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), inProcess.connect(clientSide)]);
  try {
    const { tools } = await inProcess.listTools();
    const run = tools.find((t) => t.name === "run_program");
    expect(run.inputSchema.properties.program.$ref).toBe("#/$defs/program");
    const schema = ptc.schema({ tools: ["get_orders"] });
    expect(run.inputSchema.$defs).toEqual(schema.$defs);
    expect(run.inputSchema.$defs.op_call.properties.tool.enum).toEqual(["get_orders"]);
    const workflow = tools.find((t) => t.name === "run_workflow");
    expect(workflow.inputSchema.$defs).toEqual(ptc.workflowSchema({ tools: ["get_orders"] }).$defs);
  } finally {
    await inProcess.close();
  }
  expect(() => createMcpServer(ptc, { schema: "big" })).toThrow('option schema must be "minimal" or "full"');
});

test("ptc-wasm mcp --full-schema serves the generated JSON Schemas", async () => {
  const full = new Client({ name: "full-schema-cli", version: "1.0.0" });
  await full.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["dist/cli.mjs", "mcp", "--full-schema"],
      cwd: root,
      stderr: "pipe",
    }),
  );
  try {
    const { tools } = await full.listTools();
    expect(tools.find((t) => t.name === "run_program").inputSchema.$defs).toEqual(ptc.schema({ tools: [] }).$defs);
  } finally {
    await full.close();
  }
});

test("run_program runs a program with the context and the module's tools", async () => {
  const result = await client.callTool({
    name: "run_program",
    arguments: {
      program: {
        op: "pipe",
        steps: [
          { op: "call", tool: "get_orders", args: { status: "shipped", limit: 3 } },
          { op: "map", expr: { op: "get", field: "status" } },
        ],
      },
    },
  });
  expect(result.isError).toBeFalsy();
  expect(JSON.parse(result.content[0].text)).toEqual(["shipped", "shipped", "shipped"]);

  const travel = await client.callTool({
    name: "run_program",
    arguments: { program: { op: "pipe", steps: [{ op: "load", name: "expenses" }, { op: "count" }] } },
  });
  expect(JSON.parse(text(travel))).toBe(24);
});

// Issue 13 item 11: step functions beside PTC-JSON, with the same tools.
test("lists run_workflow with a minimal schema and a description that points to its language", async () => {
  const { tools } = await client.listTools();
  const run = tools.find((t) => t.name === "run_workflow");
  // {"functions": [...]} or the short form {"steps": [...], "output"?}: neither key is required alone.
  expect(run.inputSchema.required).toBeUndefined();
  expect(Object.keys(run.inputSchema.properties).sort()).toEqual(["entry", "functions", "input", "output", "steps"]);
  expect(run.inputSchema.properties.input.type).toBe("object");
  expect(run.inputSchema.$defs).toBeUndefined();
  expect(run.description).toContain('describe_language with topic "step-functions"');
  const language = text(
    await client.callTool({ name: "describe_language", arguments: { topic: "step-functions", compact: true } }),
  );
  expect(language.split("Tools (")[0]).toBe(ptc.workflowPrompt({ compact: true }).split("Errors:")[0]);
  expect(language).toContain("get_customer(id: integer)");
});

test("run_workflow runs a file with the module's tools; its errors come back formatted", async () => {
  const functions = [
    {
      function: "shout-name",
      input: { id: "number" },
      output: "text",
      steps: [{ let: "c", call: "get_customer", args: { id: "$input.id" } }, { return: { $upper: "$c.name" } }],
    },
  ];
  const result = await client.callTool({ name: "run_workflow", arguments: { functions, input: { id: 3 } } });
  expect(result.isError).toBeFalsy();
  expect(JSON.parse(text(result))).toBe("EDSGER DIJKSTRA");
  // The file as text (functions one after another) runs too.
  const asText = await client.callTool({
    name: "run_workflow",
    arguments: { functions: functions.map((f) => JSON.stringify(f)).join("\n"), input: { id: 1 } },
  });
  expect(JSON.parse(text(asText))).toBe("ADA LOVELACE");
  const typo = await client.callTool({
    name: "run_workflow",
    arguments: { functions: [{ ...functions[0], steps: [{ return: { $uper: "x" } }] }], input: { id: 3 } },
  });
  expect(typo.isError).toBe(true);
  expect(typo._meta).toEqual({ code: "unknown_operator" });
  expect(text(typo)).toMatch(/^ValidationError at \/0\/steps\/0\/return\/\$uper: .*Did you mean '\$upper'\?/);
  // The short form: one function's steps alone ("main", output "any" unless "output" says), pointers in its terms.
  const steps = await client.callTool({
    name: "run_workflow",
    arguments: { steps: functions[0].steps, input: { id: 2 } },
  });
  expect(JSON.parse(text(steps))).toBe("GRACE HOPPER");
  const output = await client.callTool({
    name: "run_workflow",
    arguments: { output: "result text text", steps: [{ return: { ok: "fine" } }] },
  });
  expect(JSON.parse(text(output))).toEqual({ ok: "fine" });
  const stepsTypo = await client.callTool({ name: "run_workflow", arguments: { steps: [{ return: { $uper: "x" } }] } });
  expect(text(stepsTypo)).toMatch(/^ValidationError at \/steps\/0\/return\/\$uper: .*Did you mean '\$upper'\?/);
  const failed = await client.callTool({
    name: "run_workflow",
    arguments: {
      functions: [{ function: "f", output: "number", steps: [{ return: { $to_timestamp: "2024-02-30" } }] }],
    },
  });
  expect(failed.isError).toBe(true);
  expect(failed._meta).toEqual({ code: "invalid_date" });
  expect(text(failed)).toContain("ExecutionError at /0/steps/0/return/$to_timestamp");
  expect(text(failed)).toContain("day 30 does not exist in 2024-02");
});

test("describe_language teaches step functions when asked", async () => {
  const full = text(await client.callTool({ name: "describe_language", arguments: { language: "step-functions" } }));
  expect(full).toContain("# Step functions");
  expect(full).toContain("## Functions");
  expect(full).toContain("- `get_orders`: Orders, optionally only those with one status; newest first.");
});

test("a per-call context is merged over the server's", async () => {
  const result = await client.callTool({
    name: "run_program",
    arguments: {
      program: {
        a: { op: "load", name: "extra" },
        n: { op: "pipe", steps: [{ op: "load", name: "expenses" }, { op: "count" }] },
        result: 1,
      },
      context: { extra: 5 },
    },
  });
  expect(JSON.parse(result.content[0].text)).toBe(1);
});

test("memory carries over between run_program calls", async () => {
  const first = await client.callTool({
    name: "run_program",
    arguments: {
      program: {
        result: "saved",
        big_spenders: {
          op: "pipe",
          steps: [
            { op: "load", name: "expenses" },
            { op: "filter", where: { op: "gt", field: "amount", value: 300 } },
          ],
        },
      },
    },
  });
  expect(JSON.parse(first.content[0].text)).toBe("saved");
  expect(first.content[1].text).toContain("big_spenders");
  const second = await client.callTool({
    name: "run_program",
    arguments: { program: { op: "pipe", steps: [{ op: "var", name: "big_spenders" }, { op: "count" }] } },
  });
  expect(JSON.parse(second.content[0].text)).toBeGreaterThan(0);
});

test("a bad program is an isError result with the formatted error", async () => {
  const result = await client.callTool({
    name: "run_program",
    arguments: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "expenses" },
          { op: "sort_by", field: "amount", ordr: "desc" },
        ],
      },
    },
  });
  expect(result.isError).toBe(true);
  expect(result._meta).toEqual({ code: "unknown_field" });
  expect(text(result)).toMatch(
    /^ValidationError at \/program\/steps\/1\/ordr: Unknown field 'ordr' for operation 'sort_by'\. Did you mean 'order'\?/,
  );
  expect(text(result)).toContain("Shape: ");
});

test("tool args that do not match the descriptor's parameters: isError naming the tool and the arg", async () => {
  const result = await client.callTool({
    name: "run_program",
    arguments: { program: { op: "call", tool: "get_customer", args: { id: "one" } } },
  });
  expect(result.isError).toBe(true);
  expect(text(result)).toContain("ExecutionError at /program: Tool 'get_customer' failed: invalid args");
  expect(text(result)).toContain('at /id: expected integer, got string "one"');
});

test("a program sent as JSON text is accepted too", async () => {
  const result = await client.callTool({
    name: "run_program",
    arguments: { program: '{"op": "add", "left": 2, "right": 3}' },
  });
  expect(JSON.parse(result.content[0].text)).toBe(5);
});

test("a program storing a value deeper than memory can hold is refused, and the session goes on", async () => {
  const wrapped = (levels) => ({
    op: "pipe",
    steps: [
      { op: "literal", value: 1 },
      ...Array.from({ length: levels }, () => ({ op: "object", fields: { a: { op: "get", path: [] } } })),
    ],
  });
  const run = (program) => client.callTool({ name: "run_program", arguments: { program } });
  await run({ result: "stored", probe: 5 });
  const refused = await run({ result: "x", deep: wrapped(1000) });
  expect(refused.isError).toBe(true);
  expect(text(refused)).toMatch(/^ExecutionError at \/program: .*more than 1000 levels deep/);
  // A returned object is stored whole (the memory contract): 6,000 levels used to poison the session.
  const returned = await run(wrapped(6000));
  expect(returned.isError).toBe(true);
  expect(text(returned)).toMatch(/^ExecutionError at \/program\/steps\/1001: .*more than 1000 levels deep/);
  expect(text(await run({ op: "var", name: "probe" }))).toBe("5");
  // The deepest value that can be stored is stored, and read back by the next program.
  expect((await run({ result: "ok", deep: wrapped(999) })).isError).toBeFalsy();
  expect(text(await run({ op: "var", name: "probe" }))).toBe("5");
});

test("describe_language returns the full prompt (or the compact one)", async () => {
  const full = text(await client.callTool({ name: "describe_language", arguments: {} }));
  expect(full.startsWith(ptc.prompt().split("## Available tools")[0])).toBe(true);
  for (const op of ptc.operations()) expect(full).toContain(op.description);
  expect(full).toContain("- `get_orders`: Orders, optionally only those with one status; newest first.");
  expect(full).toContain('Parameters (JSON Schema): {"type":"object","properties":{"id":{"type":"integer"');
  expect(full).toContain("- `expenses`: list of 24 objects with keys id, date, category, amount, employee");
  const compact = text(await client.callTool({ name: "describe_language", arguments: { compact: true } }));
  expect(compact.length).toBeLessThan(full.length / 2);
});

// Issue 25: details on demand, for a family, an op, an error code or the step-function dialect.
test("describe_language answers for an op, a family, an error code and step functions", async () => {
  const ask = async (args) => text(await client.callTool({ name: "describe_language", arguments: args }));
  const op = await ask({ topic: "date_diff" });
  expect(op).toContain(ptc.operations().find((o) => o.name === "date_diff").description);
  expect(op).toContain('Example: `{"op":"date_diff"');
  expect(op).toContain("`unit` (required)");
  const family = await ask({ topic: "dates" });
  for (const o of ptc.operations().filter((o) => o.category === "dates")) expect(family).toContain(`**${o.name}**`);
  expect(await ask({ topic: "tool_failed" })).toMatch(/^Error code tool_failed \(execution_error\): /);
  expect(await ask({ topic: "step-functions" })).toContain("## Functions");
  expect(await ask({ topic: "$date_diff" })).toContain('{"$date_diff": [<value>, <to>,');
  expect(await ask({ topic: "for" })).toContain('Step functions, step "for"');
  expect(await ask({ topic: "references" })).toMatch(
    /^References: a text that reads a value: "\$_" is the current value/,
  );
  expect(await ask({ topic: "$_" })).toContain('{"op": "literal", "value": "$USD"}');
  expect(await ask({ topic: "date_dif" })).toContain("No topic 'date_dif'. Did you mean 'date_diff'?");
});

// Issue 11, item 17: a session checks its options when it is made, as run() would.
test("createMcpServer refuses options of the wrong type with a TypeError", () => {
  const { createMcpServer } = require("../../dist/mcp.cjs");
  expect(() => createMcpServer(ptc, { timeoutMs: "100" })).toThrow(
    new TypeError("ptc-wasm: options.timeoutMs must be a positive number of at most 2147483647, got a string"),
  );
  expect(() => createMcpServer(ptc, { maxHeapBytes: Infinity })).toThrow(TypeError);
  expect(() => createMcpServer(ptc, { context: "x" })).toThrow(
    new TypeError("ptc-wasm: options.context must be an object"),
  );
});

// Issue 11, item 1: a tool that throws an unprintable value ended the server process.
test("a tool that throws an unprintable value: an isError result naming it, and the server stays up", async () => {
  const fs = require("node:fs");
  const os = require("node:os");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-mcp-"));
  const tools = path.join(dir, "hostile-tools.mjs");
  fs.writeFileSync(
    tools,
    "export function poison() { const v = Object.create(null); v.n = 1n; return Promise.reject(v); }\n",
  );
  const c = new Client({ name: "ptc-wasm-test", version: "1.0.0" });
  await c.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["dist/cli.mjs", "mcp", "--tools", tools],
      cwd: root,
      stderr: "pipe",
    }),
  );
  try {
    const failed = await c.callTool({ name: "run_program", arguments: { program: { op: "call", tool: "poison" } } });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(
      /^ExecutionError at \/program: Tool 'poison' failed: an unprintable value\. To go on when a tool fails, wrap the call in a try/,
    );
    const after = await c.callTool({ name: "run_program", arguments: { program: { op: "add", left: 1, right: 1 } } });
    expect(JSON.parse(text(after))).toBe(2);
  } finally {
    await c.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Issue 11, item 15: the SDK's stdio transport closed on a message over 10 MiB
// (no reply, the server exited with code 0). Now the message is skipped and
// answered with a JSON-RPC error for its id, and the server goes on serving.
describe("a message longer than the server reads", () => {
  async function connect(args) {
    const c = new Client({ name: "ptc-wasm-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["dist/cli.mjs", "mcp", ...args],
      cwd: root,
      stderr: "pipe",
    });
    let exited = false;
    transport.onclose = () => (exited = true);
    await c.connect(transport);
    return { client: c, exited: () => exited };
  }
  const count = { program: { op: "pipe", steps: [{ op: "load", name: "big" }, { op: "count" }] } };

  test("the default limit (10 MiB): a JSON-RPC error naming it, and the server stays up", async () => {
    const { client: c, exited } = await connect([]);
    try {
      const big = Array.from({ length: 11 }, () => "x".repeat(1 << 20)); // 11 MiB of text
      const refused = c.callTool({ name: "run_program", arguments: { ...count, context: { big } } });
      await expect(refused).rejects.toMatchObject({
        code: -32600,
        message: expect.stringContaining("more than this server reads (10485760 bytes"),
      });
      await expect(refused).rejects.toThrow("--max-message-bytes");
      const after = await c.callTool({ name: "run_program", arguments: { ...count, context: { big: [1, 2] } } });
      expect(JSON.parse(after.content[0].text)).toBe(2);
      expect(exited()).toBe(false);
    } finally {
      await c.close();
    }
  });

  test("--max-message-bytes sets it; messages under it are served as before", async () => {
    const { client: c } = await connect(["--max-message-bytes", "50000"]);
    try {
      const fits = await c.callTool({
        name: "run_program",
        arguments: { ...count, context: { big: Array(1000).fill("abcdefghij") } },
      });
      expect(JSON.parse(fits.content[0].text)).toBe(1000);
      await expect(
        c.callTool({ name: "run_program", arguments: { ...count, context: { big: Array(5000).fill("abcdefghij") } } }),
      ).rejects.toMatchObject({
        code: -32600,
        message: expect.stringMatching(/The message is \d+ bytes, more than this server reads \(50000 bytes/),
      });
      const again = await c.callTool({ name: "run_program", arguments: { ...count, context: { big: [1] } } });
      expect(JSON.parse(again.content[0].text)).toBe(1);
    } finally {
      await c.close();
    }
  });
});

test("StdioTransport finds the id of a skipped message wherever it is, in pieces, past nested ids and strings", async () => {
  const { StdioTransport } = require("../../dist/mcp.cjs");
  const { PassThrough } = require("node:stream");
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new StdioTransport(100, stdin, stdout);
  const received = [];
  const errors = [];
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e.message);
  await transport.start();
  const pad = "x".repeat(200);
  const lines = [
    `{"jsonrpc":"2.0","method":"tools/call","params":{"id":7,"s":"\\"id\\":9, ${pad}","list":[{"id":8}]},"id":"req-1"}`,
    `{"id": 42 ,"jsonrpc":"2.0","method":"m","params":{"pad":"${pad}"}}`,
    `{"jsonrpc":"2.0","method":"notifications/x","params":{"pad":"${pad}"}}`,
    `{"jsonrpc":"2.0","method":"ping","id":5}`,
  ];
  const bytes = Buffer.from(lines.join("\n") + "\n");
  for (let i = 0; i < bytes.length; i += 7) stdin.write(bytes.subarray(i, i + 7)); // pieces that cut tokens
  await new Promise((resolve) => setImmediate(resolve));
  const replies = stdout
    .read()
    .toString()
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(replies.map((r) => [r.id, r.error.code])).toEqual([
    ["req-1", -32600],
    [42, -32600],
    [null, -32600],
  ]);
  expect(replies[0].error.message).toMatch(/^The message is \d+ bytes, more than this server reads \(100 bytes/);
  expect(received).toEqual([{ jsonrpc: "2.0", method: "ping", id: 5 }]);
  expect(errors).toHaveLength(3);
  await transport.close();
});
