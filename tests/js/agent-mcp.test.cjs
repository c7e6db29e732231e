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
      args: ["dist/cli.mjs", "mcp", "--tools", path.join(example, "tools.mjs"), "--context", path.join(example, "data.json")],
      cwd: root,
      stderr: "pipe",
    }),
  );
});
afterAll(async () => {
  await client?.close();
});

const text = (result) => result.content.map((c) => c.text).join("\n");

test("lists run_program and describe_language, with the program schema and the compact prompt", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["describe_language", "run_program"]);
  const run = tools.find((t) => t.name === "run_program");
  expect(run.inputSchema.type).toBe("object");
  expect(run.inputSchema.required).toEqual(["program"]);
  expect(run.inputSchema.properties.program.$ref).toBe("#/$defs/program");
  expect(run.inputSchema.properties.context.type).toBe("object");
  // The schema's definitions come through whole: one per op, tool names as an enum.
  const schema = ptc.schema({ tools: ["get_customer", "get_orders"] }); // a module's exports, in their order
  expect(run.inputSchema.$defs).toEqual(schema.$defs);
  expect(run.inputSchema.$defs.op_call.properties.tool.enum).toEqual(["get_customer", "get_orders"]);
  // The description teaches the language and names the tools and the context.
  for (const op of ptc.operations()) expect(run.description).toContain(op.description);
  expect(run.description).toContain("get_orders(status?:");
  expect(run.description).toContain("`expenses`: list of 24 objects");
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

test("a per-call context is merged over the server's", async () => {
  const result = await client.callTool({
    name: "run_program",
    arguments: { program: { a: { op: "load", name: "extra" }, n: { op: "pipe", steps: [{ op: "load", name: "expenses" }, { op: "count" }] }, result: 1 }, context: { extra: 5 } },
  });
  expect(JSON.parse(result.content[0].text)).toBe(1);
});

test("memory carries over between run_program calls", async () => {
  const first = await client.callTool({
    name: "run_program",
    arguments: { program: { result: "saved", big_spenders: { op: "pipe", steps: [{ op: "load", name: "expenses" }, { op: "filter", where: { op: "gt", field: "amount", value: 300 } }] } } },
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
    arguments: { program: { op: "pipe", steps: [{ op: "load", name: "expenses" }, { op: "sort_by", field: "amount", ordr: "desc" }] } },
  });
  expect(result.isError).toBe(true);
  expect(text(result)).toMatch(/^ValidationError at \/program\/steps\/1\/ordr: Unknown field 'ordr' for operation 'sort_by'\. Did you mean 'order'\?/);
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
  const result = await client.callTool({ name: "run_program", arguments: { program: '{"op": "add", "left": 2, "right": 3}' } });
  expect(JSON.parse(result.content[0].text)).toBe(5);
});

test("a program storing a value deeper than memory can hold is refused, and the session goes on", async () => {
  const wrapped = (levels) => ({
    op: "pipe",
    steps: [{ op: "literal", value: 1 }, ...Array.from({ length: levels }, () => ({ op: "object", fields: { a: { op: "get", path: [] } } }))],
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
  for (const op of ptc.operations()) expect(full).toContain(`\`${JSON.stringify(op.example)}\``);
  expect(full).toContain("- `get_orders`: Orders, optionally only those with one status; newest first.");
  expect(full).toContain('Parameters (JSON Schema): {"type":"object","properties":{"id":{"type":"integer"');
  expect(full).toContain("- `expenses`: list of 24 objects with keys id, date, category, amount, employee");
  const compact = text(await client.callTool({ name: "describe_language", arguments: { compact: true } }));
  expect(compact.length).toBeLessThan(full.length / 2);
});
