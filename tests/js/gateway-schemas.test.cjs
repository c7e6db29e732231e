// Issue 40 items 1-3: a tool's JSON Schemas are someone else's data (an
// upstream MCP server's, or a host's descriptor). Small hostile ones must not
// hang the host (args checks, signatures) nor break other tools' runs (the
// declared results sent to the engine). The gateway is driven in front of
// tests/js/fixtures/hostile-schemas-server.cjs over stdio; the same schemas are
// also given to run() and prompt() as a host's own descriptors.
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { ptcWasm } = require("./helpers.cjs");
const { mcpTools, createMcpServer } = require("../../dist/mcp.cjs");

// Before the bounds, each of these tests took from half a minute to minutes.
jest.setTimeout(180_000);

const server = path.join(__dirname, "fixtures/hostile-schemas-server.cjs");
const N = 24; // 2^24 steps to check args, a 160 MB signature, when every $ref is followed on every path

/** $defs d0..dN, each refers twice to the next through shape(ref). */
function chain(n, shape, last) {
  const $defs = {};
  for (let i = 0; i < n; i++) $defs[`d${i}`] = shape({ $ref: `#/$defs/d${i + 1}` });
  $defs[`d${n}`] = last;
  return $defs;
}
const doublingArgs = (n) => ({
  type: "object",
  properties: { query: { type: "string" } },
  allOf: [{ $ref: "#/$defs/d0" }],
  $defs: chain(n, (ref) => ({ allOf: [ref, ref] }), { type: "object" }),
});
const unionTree = (n) => ({
  type: "object",
  properties: { tree: { $ref: "#/$defs/d0" } },
  $defs: chain(n, (ref) => ({ anyOf: [ref, { type: "array", items: ref }] }), { type: "string" }),
});
function nested(levels) {
  let value = "bottom";
  for (let i = 0; i < levels; i++) value = { deeper: value };
  return value;
}

let ptc, gateway;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  // approval: false: these tests are about schemas, not the fail-closed approvals (gateway-trust.test.cjs).
  gateway = await mcpTools({
    mcpServers: { hostile: { command: process.execPath, args: [server, String(N)], approval: false } },
  });
});
afterAll(async () => {
  await gateway?.close();
});

const call = (tool, args) => ({ program: { op: "call", tool, args } });

describe("item 1: args checks are bounded", () => {
  test("a host tool whose parameters double at each $ref is called within its timeoutMs", async () => {
    const seen = [];
    const tools = {
      search: { description: "s", parameters: doublingArgs(N), execute: async (args) => (seen.push(args), "found") },
    };
    const r = await ptc.run(call("search", { query: "x" }), { tools, timeoutMs: 2000 });
    expect(r).toMatchObject({ ok: true, result: "found" });
    expect(seen).toEqual([{ query: "x" }]);
    // An ordinary schema is still checked, naming the arg.
    const checked = {
      lookup: { parameters: { type: "object", properties: { id: { type: "string" } } }, execute: () => 1 },
    };
    const bad = await ptc.run(call("lookup", { id: 7 }), { tools: checked, timeoutMs: 2000 });
    expect(bad.ok).toBe(false);
    expect(bad.error.message).toContain("at /id: expected string, got number 7");
  });

  test("mcpTools warns at connect naming server and tool; the tool stays callable; its args go unchecked", async () => {
    expect(gateway.warnings).toContainEqual({
      server: "hostile",
      tool: "chain_args",
      message: expect.stringContaining("its inputSchema is too complex to check args against"),
    });
    const r = await ptc.run(call("hostile.chain_args", { query: "x" }), { tools: gateway.tools, timeoutMs: 2000 });
    expect(r).toMatchObject({ ok: true, result: { ok: true, query: "x" } });
    // The other tools of the server are checked as before.
    const wrong = await ptc.run(call("hostile.echo", { text: 5 }), { tools: gateway.tools, timeoutMs: 5000 });
    expect(wrong.ok).toBe(false);
    expect(wrong.error.message).toContain("at /text: expected string");
  });
});

describe("item 2: signatures are bounded", () => {
  test("describe_tools writes a shared definition once, by name, and a ping is not kept waiting", async () => {
    const mcp = createMcpServer(ptc, { tools: gateway.tools });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(b);
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(a);
    const described = client.callTool({ name: "describe_tools", arguments: { tools: ["hostile.chain_types"] } });
    const [result] = await Promise.all([described, client.ping()]);
    const text = result.content.map((c) => c.text).join("\n");
    expect(text.length).toBeLessThan(5000);
    expect(text).toContain("hostile.chain_types(tree?: d1|d1[]) where d1 = d2|d2[]; d2 = d3|d3[];");
    expect(text).toContain(`d${N - 1} = string|string[]`);
    await client.close();
  });

  test("prompt() shows a host tool's doubling returns schema in a bounded signature", () => {
    const tools = { tree: { description: "a tree", returns: unionTree(N), execute: () => null } };
    for (const compact of [true, false]) {
      const prompt = ptc.prompt({ tools, compact });
      expect(prompt.length).toBeLessThan(60_000);
      expect(prompt).toContain("{tree?: d1|d1[]} where d1 = d2|d2[];");
    }
  });

  test("a recursive schema names itself; a signature too long is cut with a marker saying so", () => {
    const node = {
      type: "object",
      properties: { id: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["id"],
    };
    expect(ptc.prompt({ tools: { tree: { returns: node, execute: () => null } }, compact: true })).toContain(
      "- tree -> Self where Self = {id: string, children?: Self[]}",
    );
    // 300 distinct definitions, each used twice: each written once, until the budget cuts the rest.
    const $defs = {};
    const props = {};
    for (let i = 0; i < 300; i++) {
      $defs[`t${i}`] = {
        type: "object",
        properties: Object.fromEntries([...Array(12)].map((_, k) => [`field_${k}`, { type: "string" }])),
      };
      props[`a${i}`] = { $ref: `#/$defs/t${i}` };
      props[`b${i}`] = { $ref: `#/$defs/t${i}` };
    }
    const wide = { type: "object", properties: { all: { anyOf: Object.values(props) } }, $defs };
    const prompt = ptc.prompt({ tools: { wide: { returns: wide, execute: () => null } }, compact: true });
    const line = prompt.split("\n").find((l) => l.startsWith("- wide"));
    expect(line.length).toBeLessThan(4200);
    expect(line).toMatch(/\[signature cut .*: the JSON Schema has the rest\]/);
  });
});

describe("item 3: one tool's declared result does not break other runs", () => {
  const deep = { type: "object", properties: { name: { type: "string" } }, examples: [nested(1100)] };

  test("a host tool's outputSchema nested 1100 levels deep: add 1 2, other tools and validate() still work", async () => {
    const tools = {
      deep: { outputSchema: deep, execute: () => ({ name: "x" }) },
      other: { returns: { type: "object", properties: { n: { type: "number" } } }, execute: () => ({ n: 1 }) },
    };
    expect(await ptc.run({ program: { op: "add", left: 1, right: 2 } }, { tools })).toMatchObject({
      ok: true,
      result: 3,
    });
    expect(await ptc.run(call("other", {}), { tools })).toMatchObject({ ok: true, result: { n: 1 } });
    expect(ptc.validate({ program: { op: "add", left: 1, right: 2 } }, { tools })).toEqual({ ok: true });
    // Simplified (its examples left out), the schema still declares the result's fields.
    const misread = { program: { op: "pipe", steps: [call("deep", {}).program, { op: "get", field: "nmae" }] } };
    const { warnings } = ptc.validate(misread, { tools });
    expect(warnings).toEqual([expect.objectContaining({ code: "unknown_result_field" })]);
  });

  test("the gateway simplifies deep_result's outputSchema, says so, and every program runs", async () => {
    expect(gateway.warnings).toContainEqual({
      server: "hostile",
      tool: "deep_result",
      message: expect.stringContaining("its outputSchema is used without its annotations"),
    });
    expect(gateway.tools["hostile.deep_result"].returns).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
    });
    const tools = gateway.tools;
    expect(await ptc.run({ program: { op: "add", left: 1, right: 2 } }, { tools })).toMatchObject({ result: 3 });
    const echoed = await ptc.run(call("hostile.echo", { text: "hi" }), { tools, timeoutMs: 5000 });
    expect(echoed).toMatchObject({ ok: true, result: { text: "hi" } });
    const named = await ptc.run(call("hostile.deep_result", {}), { tools, timeoutMs: 5000 });
    expect(named).toMatchObject({ ok: true, result: { name: "deep" } });
  });

  test("an outputSchema that stays over the bounds is dropped with a warning; the tool stays callable", async () => {
    expect(gateway.warnings).toContainEqual({
      server: "hostile",
      tool: "chain_types",
      message: expect.stringContaining("its outputSchema is not used"),
    });
    expect(gateway.tools["hostile.chain_types"].returns).toBeUndefined();
    const r = await ptc.run(call("hostile.chain_types", { tree: "leaf" }), { tools: gateway.tools, timeoutMs: 5000 });
    expect(r).toMatchObject({ ok: true, result: { tree: "leaf" } });
  });
});
