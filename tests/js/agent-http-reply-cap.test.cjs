// An upstream MCP server over Streamable HTTP is read as a stdio one is (issue
// 40, item 4): a reply over 10 MiB fails the call that asked for it, with the
// same error text, and the connection goes on serving the next calls. The
// upstream is a local HTTP MCP server this test starts, answering with JSON
// bodies or with SSE streams.
const http = require("node:http");
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StreamableHTTPServerTransport } = require("@modelcontextprotocol/sdk/server/streamableHttp.js");
const { ptcWasm } = require("./helpers.cjs");
const { mcpTools } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000);

const LIMIT = 10 * 1024 * 1024;

let ptc;
const servers = {};
let served = 0;

function upstream() {
  const server = new McpServer({ name: "big-replies", version: "1.0.0" }, { capabilities: { logging: {} } });
  server.registerTool("echo", { description: "Echoes." }, async () => ({ content: [{ type: "text", text: "echo" }] }));
  server.registerTool("huge", { description: "Answers 11 MiB." }, async () => ({
    content: [{ type: "text", text: "x".repeat(11 * 1024 * 1024) }],
  }));
  server.registerTool("progress", { description: "Sends a huge notification, then a small reply." }, async (extra) => {
    await extra.sendNotification({
      method: "notifications/message",
      params: { level: "info", data: "y".repeat(11 * 1024 * 1024) },
    });
    return { content: [{ type: "text", text: "small" }] };
  });
  return server;
}

async function start(json) {
  const httpServer = http.createServer(async (req, res) => {
    served++;
    const server = upstream();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return { httpServer, url: `http://127.0.0.1:${httpServer.address().port}/mcp` };
}

beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  servers.json = await start(true);
  servers.sse = await start(false);
});
afterAll(async () => {
  for (const { httpServer } of Object.values(servers)) {
    httpServer.closeAllConnections?.();
    await new Promise((resolve) => httpServer.close(resolve));
  }
});

const run = (gateway, tool) =>
  ptc.run({ program: { op: "call", tool, args: {} } }, { tools: gateway.tools, timeoutMs: 60_000 });

describe.each(["json", "sse"])("an HTTP upstream answering with %s", (kind) => {
  test("a reply over the size limit fails that call only, as over stdio; the next call is answered", async () => {
    const gateway = await mcpTools({ mcpServers: { h: { url: servers[kind].url, approval: false } } });
    try {
      expect(await run(gateway, "h.echo")).toMatchObject({ ok: true, result: "echo" });
      const huge = await run(gateway, "h.huge");
      expect(huge.ok).toBe(false);
      expect(huge.error.code).toBe("tool_failed");
      // The stdio path's text (gateway-trust.test.cjs): the server named, the limit and the size.
      expect(huge.error.message).toContain("MCP server 'h' sent a reply of more than 10485760 bytes");
      expect(huge.error.message).toMatch(/\(\d+ bytes\): the gateway reads at most that much of one message/);
      expect(Number(/\((\d+) bytes\)/.exec(huge.error.message)[1])).toBeGreaterThan(LIMIT);
      const before = served;
      expect(await run(gateway, "h.echo")).toMatchObject({ ok: true, result: "echo" });
      expect(served).toBe(before + 1); // the same connection: no new initialize
    } finally {
      await gateway.close();
    }
  });
});

test("over SSE, a notification over the limit is skipped; the call's own small reply still comes", async () => {
  const gateway = await mcpTools({ mcpServers: { h: { url: servers.sse.url, approval: false } } });
  try {
    const r = await run(gateway, "h.progress");
    expect(r.error?.message).toBeUndefined();
    expect(r).toMatchObject({ ok: true, result: "small" });
  } finally {
    await gateway.close();
  }
});
