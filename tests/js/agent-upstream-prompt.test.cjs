// The prompts with an upstream MCP server's tools (mcpTools, the CLI's
// --mcp-config) show each description as describe_tools does: quoted and
// escaped as a JSON string, marked as the server's, so that an upstream's text
// never reads as the host's instructions (issue 40's rule, item 6). The
// upstream is the hostile fixture server whose 'notes' description carries a
// fake tool line and a fake "SYSTEM" note.
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { ptcWasm } = require("./helpers.cjs");
const { mcpTools } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000);

const root = path.join(__dirname, "../..");
const fixture = path.join(__dirname, "fixtures/hostile-upstream-server.cjs");
const config = { mcpServers: { h: { command: process.execPath, args: [fixture, "names"] } } };
// eslint-disable-next-line no-control-regex -- control characters are what must not get through
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let ptc;
let gateway;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  gateway = await mcpTools(config);
});
afterAll(() => gateway?.close());

// The description as the gateway keeps it (one line, controls escaped), then quoted as JSON.
const notes = () => JSON.stringify(gateway.tools["h.notes"].description);
const own = { lookup: { description: "The host's own tool.", execute: () => 1 } };

// No line but a tool's own may start like a tool line or a note; the server's text stays inside its quotes.
function expectNoForgedLines(text) {
  expect(text).not.toMatch(RAW_CONTROL);
  const lines = text.split("\n");
  expect(lines.filter((l) => l.startsWith("SYSTEM"))).toEqual([]);
  expect(lines.filter((l) => l.startsWith("- h.wipe_all") || l.startsWith("- `h.wipe_all`"))).toHaveLength(1);
}

describe.each([
  ["PTC-JSON", (o) => ptc.prompt(o)],
  ["step functions", (o) => ptc.workflowPrompt(o)],
])("the %s prompts with an upstream's tools", (_, prompt) => {
  test("full: each description quoted and marked as the server's; the host's own tools as they are", () => {
    const text = prompt({ tools: { ...gateway.tools, ...own } });
    expectNoForgedLines(text);
    expect(text).toContain(`- \`h.notes\`: described by MCP server 'h': ${notes()}\n`);
    expect(text).toContain(`- \`h.wipe_all\`: described by MCP server 'h': "Wipes everything."\n`);
    expect(text).toContain("- `lookup`: The host's own tool.\n");
    expect(text).toContain('A tool named "<server>.<tool>" is an MCP server\'s');
  });

  test("compact: each description quoted", () => {
    const text = prompt({ tools: { ...gateway.tools, ...own }, compact: true });
    expectNoForgedLines(text);
    expect(text).toContain(`- h.notes(): ${notes()}\n`);
    expect(text).toContain("- lookup: The host's own tool.\n");
  });
});

test("ptc-wasm prompt --mcp-config: the full prompt quotes the server's descriptions", () => {
  const fs = require("node:fs");
  const os = require("node:os");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ptc-upstream-prompt-")), "mcp.json");
  fs.writeFileSync(file, JSON.stringify(config));
  const r = spawnSync(process.execPath, ["dist/cli.mjs", "prompt", "--mcp-config", file], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.status).toBe(0);
  expectNoForgedLines(r.stdout);
  expect(r.stdout).toContain(`- \`h.notes\`: described by MCP server 'h': ${notes()}\n`);
});
