// ptc-wasm in front of MCP servers (issue 28), against real servers the test
// starts: @modelcontextprotocol/server-memory and server-everything over stdio,
// and a Streamable HTTP server on localhost (the SDK's transport, here). The
// official SDK client drives the gateway (`ptc-wasm mcp --mcp-config`) as a
// model's host would; mcpTools() is used in code as a host would.
const fs = require("node:fs");
const http = require("node:http");
const os = require("node:os");
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StreamableHTTPServerTransport } = require("@modelcontextprotocol/sdk/server/streamableHttp.js");
const { ElicitRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
const { z } = require("zod");
const { countTokens } = require("gpt-tokenizer/encoding/o200k_base");
const { ptcWasm } = require("./helpers.cjs");
const { mcpTools, createMcpServer } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000); // the reference servers take seconds to start on a loaded machine

const root = path.join(__dirname, "../..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-gateway-"));

// The HTTP server: a shop's orders, with an outputSchema, a destructive tool and one that fails.
const ORDERS = {
  ada: [
    { id: "o1", total: 30 },
    { id: "o2", total: 12.5 },
  ],
  bob: [{ id: "o3", total: 99 }],
};
const cancelled = []; // the ids shop.cancel_order was called with
function shopServer() {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  server.registerTool(
    "orders",
    {
      description: "The orders of a customer. Newest first.",
      inputSchema: { customer: z.string().describe("the customer's name") },
      outputSchema: { orders: z.array(z.object({ id: z.string(), total: z.number() })) },
      annotations: { readOnlyHint: true },
    },
    async ({ customer }) => {
      const orders = ORDERS[customer] ?? [];
      return { structuredContent: { orders }, content: [{ type: "text", text: JSON.stringify({ orders }) }] };
    },
  );
  server.registerTool(
    "cancel_order",
    { description: "Cancels an order.", inputSchema: { id: z.string() }, annotations: { destructiveHint: true } },
    async ({ id }) => (cancelled.push(id), { content: [{ type: "text", text: `cancelled ${id}` }] }),
  );
  server.registerTool(
    "refund",
    { description: "Refunds an order.", inputSchema: { id: z.string() } },
    async ({ id }) => ({
      isError: true,
      content: [{ type: "text", text: `order ${id} cannot be refunded: it is not paid` }],
    }),
  );
  return server;
}

let httpServer, url;
async function startHttp() {
  httpServer = http.createServer(async (req, res) => {
    const server = shopServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${httpServer.address().port}/mcp`;
}

const config = () => ({
  mcpServers: {
    // The reference servers annotate every tool: their hints count (issue 40: by default no server's do).
    memory: {
      command: bin("mcp-server-memory"),
      env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") },
      trustAnnotations: true,
    },
    everything: { command: bin("mcp-server-everything"), trustAnnotations: true },
    // The shop's hints do not count: the config says which tool is a read.
    shop: { url, tools: { orders: { effect: "read" } } },
  },
});

let client, ptc, elicited;
beforeAll(async () => {
  await startHttp();
  ptc = await ptcWasm.createRuntime();
  const file = path.join(dir, "mcp.json");
  fs.writeFileSync(file, JSON.stringify(config()));
  elicited = [];
  client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicited.push(request.params.message);
    return { action: "accept", content: { allow: !request.params.message.includes("o666") } };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["dist/cli.mjs", "mcp", "--mcp-config", file, "--timeout", "30000"],
      cwd: root,
      stderr: "pipe",
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await new Promise((resolve) => httpServer?.close(resolve));
});

const text = (result) => result.content.map((c) => c.text).join("\n");
const runAs = (name) => async (program) => {
  const result = await client.callTool({ name, arguments: { program } });
  return { isError: result.isError === true, text: text(result) };
};
// Programs that call a tool that writes go to run_program_writes (issue 33 item 6).
const run = runAs("run_program");
const runWrites = runAs("run_program_writes");

// Issue 28 item 2: upstream definitions are not dumped into tools/list.
test("tools/list names each server, not its tools; describe_tools reads them on demand", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([
    "describe_language",
    "describe_tools",
    "run_program",
    "run_program_writes",
    "run_workflow",
    "run_workflow_writes",
  ]);
  const runProgram = tools.find((t) => t.name === "run_program");
  expect(runProgram.description).toContain("memory.<tool>: 9 tools of MCP server 'memory'");
  expect(runProgram.description).toContain("shop.<tool>: 3 tools");
  expect(runProgram.description).not.toContain("search_nodes");
  expect(JSON.stringify(tools)).not.toContain("get-structured-content");
  // Issue 28 item 5, issue 33 item 6: annotations. Upstream writes make run_program_writes destructive
  // (a host may ask first); run_program stays read-only, so read-only programs need not be asked about.
  expect(runProgram.annotations).toEqual({
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  });
  expect(tools.find((t) => t.name === "run_program_writes").annotations).toEqual({
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
  expect(tools.find((t) => t.name === "describe_language").annotations.readOnlyHint).toBe(true);
  expect(tools.find((t) => t.name === "describe_tools").annotations.readOnlyHint).toBe(true);

  const listed = text(await client.callTool({ name: "describe_tools", arguments: { server: "memory" } }));
  expect(listed).toContain('- memory.read_graph (read): "Read the entire knowledge graph"');
  expect(listed).toContain(
    '- memory.delete_entities (write, asks for approval): "Delete multiple entities and their associated relations from the knowledge graph"',
  );
  expect(listed).not.toContain("everything.");

  // Issue 28 item 3: the signature shows the args and the result's fields (from outputSchema).
  const described = text(
    await client.callTool({ name: "describe_tools", arguments: { tools: ["shop.orders", "memory.search_nodes"] } }),
  );
  expect(described).toContain("shop.orders(customer: string) -> {orders: {id: string, total: number}[]}");
  expect(described).toContain(`  customer: "the customer's name"`);
  expect(described).toMatch(
    /memory\.search_nodes\(query: string\) -> \{entities: \{name: string, entityType: string, observations: string\[\]\}\[\], relations: /,
  );
});

test("the upstream servers add a few tokens to tools/list, however many tools they have", async () => {
  const { tools } = await client.listTools();
  const withServers = countTokens(JSON.stringify(tools));
  const plain = createMcpServer(ptc, {});
  const [clientSide, serverSide] =
    require("@modelcontextprotocol/sdk/inMemory.js").InMemoryTransport.createLinkedPair();
  await plain.connect(serverSide);
  const bare = new Client({ name: "host", version: "1.0.0" });
  await bare.connect(clientSide);
  const without = countTokens(JSON.stringify((await bare.listTools()).tools));
  await bare.close();
  // 25 upstream tools; their definitions alone would be thousands of tokens.
  console.log(`tools/list: ${withServers} tokens with memory, everything and shop (${without} without)`);
  // (Upstream writes also split run_program and run_workflow: run_program_writes and run_workflow_writes,
  // about 55 tokens each, are in this difference.)
  expect(withServers - without).toBeLessThan(500);
  // The token issue's budget for the whole tools/list (issue 25: 2,500).
  expect(withServers).toBeLessThanOrEqual(2500);
});

// Issue 28 item 1, and the README's program: data of two upstream servers joined in one program.
test("a program joins data from two servers: memory's people and the shop's orders", async () => {
  const created = await runWrites({
    op: "call",
    tool: "memory.create_entities",
    args: {
      entities: {
        op: "literal",
        value: [
          { name: "ada", entityType: "customer", observations: ["vip"] },
          { name: "bob", entityType: "customer", observations: [] },
        ],
      },
    },
  });
  expect(created).toMatchObject({ isError: false, text: expect.stringContaining('"name":"ada"') });
  const joined = await run({
    op: "pipe",
    steps: [
      { op: "call", tool: "memory.search_nodes", args: { query: "customer" } },
      { op: "get", field: "entities" },
      {
        op: "map",
        expr: {
          op: "object",
          fields: {
            name: { op: "get", field: "name" },
            spent: {
              op: "pipe",
              steps: [
                { op: "call", tool: "shop.orders", args: { customer: { op: "get", field: "name" } } },
                { op: "get", field: "orders" },
                { op: "sum", field: "total" },
              ],
            },
          },
        },
      },
    ],
  });
  expect(joined).toEqual({
    isError: false,
    text: JSON.stringify([
      { name: "ada", spent: 42.5 },
      { name: "bob", spent: 99 },
    ]),
  });
});

test("text content is the value (parsed when it is JSON); structuredContent wins when given", async () => {
  expect(await run({ op: "call", tool: "everything.get-sum", args: { a: 2, b: 3 } })).toEqual({
    isError: false,
    text: JSON.stringify("The sum of 2 and 3 is 5."),
  });
  const weather = await run({
    op: "call",
    tool: "everything.get-structured-content",
    args: { location: "Chicago" },
  });
  expect(Object.keys(JSON.parse(weather.text.split("\n")[0])).sort()).toEqual([
    "conditions",
    "humidity",
    "temperature",
  ]);
});

test("args are checked against the upstream inputSchema before the call, naming the arg", async () => {
  const bad = await run({ op: "call", tool: "shop.orders", args: { customer: 7 } });
  expect(bad.isError).toBe(true);
  expect(bad.text).toContain("shop.orders");
  expect(bad.text).toContain("at /customer: expected string, got number 7");
  const missing = await run({ op: "call", tool: "everything.get-sum", args: { a: 1 } });
  expect(missing.text).toContain("the required arg 'b' is missing");
});

test("an isError result is a tool failure that try catches", async () => {
  const failed = await runWrites({ op: "call", tool: "shop.refund", args: { id: "o1" } });
  expect(failed.isError).toBe(true);
  expect(failed.text).toContain("order o1 cannot be refunded: it is not paid");
  const caught = await runWrites({
    op: "try",
    expr: { op: "call", tool: "shop.refund", args: { id: "o1" } },
    catch: "no refund",
  });
  expect(caught).toEqual({ isError: false, text: JSON.stringify("no refund") });
});

test("a write that may be destructive asks the host's user first (elicitation)", async () => {
  elicited.length = 0;
  expect(await runWrites({ op: "call", tool: "shop.cancel_order", args: { id: "o1" } })).toEqual({
    isError: false,
    text: JSON.stringify("cancelled o1"),
  });
  expect(elicited).toHaveLength(1);
  expect(elicited[0]).toContain('the tool "shop.cancel_order"');
  const denied = await runWrites({ op: "call", tool: "shop.cancel_order", args: { id: "o666" } });
  expect(denied.isError).toBe(true);
  // A read (as the config says) asks nobody.
  await run({ op: "call", tool: "shop.orders", args: { customer: "ada" } });
  expect(elicited).toHaveLength(2);
});

// Issue 33 item 6: the host's prompt before a tool (from its annotations) is not asked of read-only programs.
test("run_program is read-only: a read-only program asks nobody; one that writes is refused unrun, for run_program_writes", async () => {
  elicited.length = 0;
  cancelled.length = 0;
  const orders = { op: "call", tool: "shop.orders", args: { customer: "bob" } };
  const read = await run({ op: "pipe", steps: [orders, { op: "get", field: "orders" }, { op: "count" }] });
  expect(read).toEqual({ isError: false, text: "1" });
  const program = {
    op: "pipe",
    steps: [
      { op: "call", tool: "shop.orders", args: { customer: "bob" } },
      { op: "get", field: "orders" },
      { op: "map", expr: { op: "call", tool: "shop.cancel_order", args: { id: { op: "get", field: "id" } } } },
    ],
  };
  const refused = await client.callTool({ name: "run_program", arguments: { program } });
  expect(refused.isError).toBe(true);
  expect(refused._meta).toEqual({ code: "read_only_program" });
  expect(text(refused)).toContain("calls 'shop.cancel_order', which writes: nothing ran");
  expect(text(refused)).toContain("Send the same program to run_program_writes");
  expect(elicited).toHaveLength(0); // nobody was asked: nothing ran
  expect(cancelled).toEqual([]);
  // The same program through run_program_writes: the one prompt is the call's own approval.
  expect(await runWrites(program)).toEqual({ isError: false, text: JSON.stringify(["cancelled o3"]) });
  expect(elicited).toHaveLength(1);
  expect(cancelled).toEqual(["o3"]);
});

test("step functions call upstream tools by the same names", async () => {
  const result = await client.callTool({
    name: "run_workflow",
    arguments: {
      functions: [
        {
          function: "order-count",
          input: { customer: "text" },
          output: "number",
          steps: [
            { let: "r", call: "shop.orders", args: { customer: "$input.customer" } },
            { return: { $length: ["$r.orders"] } },
          ],
        },
      ],
      input: { customer: "bob" },
    },
  });
  expect({ isError: result.isError === true, text: text(result) }).toEqual({ isError: false, text: "1" });
});

describe("mcpTools() in code", () => {
  test("descriptors for run(): names, effects, approval, returns; close() ends the connections", async () => {
    const gateway = await mcpTools({ mcpServers: { shop: { url, tools: { orders: { effect: "read" } } } } });
    expect(gateway.servers).toEqual(["shop"]);
    expect(Object.keys(gateway.tools).sort()).toEqual(["shop.cancel_order", "shop.orders", "shop.refund"]);
    expect(gateway.tools["shop.orders"]).toMatchObject({ effect: "read", returns: { type: "object" } });
    expect(gateway.tools["shop.cancel_order"]).toMatchObject({ effect: "write", approval: true });
    // No hints: a write that may be destructive (the MCP specification's defaults), so it asks.
    expect(gateway.tools["shop.refund"]).toMatchObject({ effect: "write", approval: true });
    const r = await ptc.run(
      { program: { op: "call", tool: "shop.orders", args: { customer: "bob" } } },
      { tools: gateway.tools, timeoutMs: 30000 },
    );
    expect(r.result).toEqual({ orders: [{ id: "o3", total: 99 }] });
    // The prompt shows the result's fields in the signature.
    expect(ptc.prompt({ tools: gateway.tools, compact: true })).toContain(
      "shop.orders(customer: string) -> {orders: {id: string, total: number}[]}",
    );
    await gateway.close();
  });

  test("the config's approval overrides the hints", async () => {
    const never = await mcpTools({ mcpServers: { shop: { url, approval: false } } });
    expect(never.tools["shop.cancel_order"].approval).toBeUndefined();
    await never.close();
    const always = await mcpTools({ mcpServers: { shop: { url, approval: true } } });
    expect(always.tools["shop.orders"].approval).toBe(true);
    await always.close();
  });

  test("connected clients by server name are used as they are, and left open", async () => {
    const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const own = new Client({ name: "host", version: "1.0.0" });
    await own.connect(new StreamableHTTPClientTransport(new URL(url)));
    const gateway = await mcpTools({ crm: own });
    expect(Object.keys(gateway.tools)).toContain("crm.orders");
    await gateway.close();
    expect((await own.listTools()).tools.length).toBe(3); // still open
    await own.close();
  });

  test("config errors name the server and what is wrong", async () => {
    await expect(mcpTools({ mcpServers: { "my.shop": { url } } })).rejects.toThrow(
      "the server name 'my.shop' contains a dot",
    );
    await expect(mcpTools({ mcpServers: { shop: {} } })).rejects.toThrow(
      'mcpServers.shop needs either "command" (a server to spawn) or "url"',
    );
    await expect(mcpTools({ servers: {} })).rejects.toMatchObject({ code: "ERR_PTC_MCP_CONFIG" });
    await expect(
      mcpTools({
        mcpServers: {
          gone: { command: process.execPath, args: ["-e", "console.error('no license'); process.exit(1)"] },
        },
      }),
    ).rejects.toThrow(/cannot connect to the MCP server 'gone' .*no license/);
  });
});

describe("the CLI", () => {
  const { spawnSync } = require("node:child_process");
  const cli = (args, input) =>
    spawnSync(process.execPath, ["dist/cli.mjs", ...args], { cwd: root, input, encoding: "utf8", timeout: 60_000 });

  test("run --mcp-config calls upstream tools and exits when done", () => {
    const file = path.join(dir, "shop.json");
    // spawnSync blocks this process (and its HTTP server): a stdio server here.
    fs.writeFileSync(
      file,
      JSON.stringify({ mcpServers: { everything: { command: bin("mcp-server-everything"), trustAnnotations: true } } }),
    );
    const r = cli(
      ["run", "-", "--mcp-config", file, "--timeout", "30000"],
      JSON.stringify({
        program: { op: "call", tool: "everything.echo", args: { message: "hi" } },
      }),
    );
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: `${JSON.stringify("Echo: hi")}\n`,
      stderr: "",
    });
  });

  test("a wrong --mcp-config is a usage error (exit 2) naming what is wrong", () => {
    const file = path.join(dir, "dotted.json");
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { "a.b": { command: "x" } } }));
    const r = cli(["run", "-", "--mcp-config", file], "{}");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("the server name 'a.b' contains a dot");
  });

  // Issue 28 item 5: a tools module holding a connection, and a reader that stops early.
  test("a --tools module's dispose is called at the end, and the CLI exits though it left a timer running", () => {
    const file = path.join(dir, "held.mjs");
    fs.writeFileSync(
      file,
      "const held = setInterval(() => {}, 1000);\n" +
        "export const ping = () => 'pong';\n" +
        "export function dispose() { clearInterval(held); process.stderr.write('disposed\\n'); }\n",
    );
    const r = cli(["run", "-", "--tools", file], JSON.stringify({ program: { op: "call", tool: "ping" } }));
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: '"pong"\n',
      stderr: "disposed\n",
    });
    // dispose is a hook, not a tool.
    const listed = cli(
      ["validate", "-", "--tools", file],
      JSON.stringify({ program: { op: "call", tool: "dispose" } }),
    );
    expect(listed.status).toBe(1);
    expect(listed.stderr).toContain("Unknown tool 'dispose'");
    const timer = path.join(dir, "timer.mjs");
    fs.writeFileSync(timer, "setInterval(() => {}, 1000);\nexport const ping = () => 'pong';\n");
    expect(cli(["run", "-", "--tools", timer], JSON.stringify({ program: { op: "call", tool: "ping" } })).status).toBe(
      0,
    );
  });

  test("a closed stdout ends the CLI quietly: schema | head -1", () => {
    const r = spawnSync("bash", ["-c", 'set -o pipefail; node dist/cli.mjs schema | head -c 1; echo " $?"'], {
      cwd: root,
      encoding: "utf8",
    });
    expect(r.stdout).toBe("{ 0\n");
    expect(r.stderr).toBe("");
  });
});
