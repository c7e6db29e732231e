// Issue 28 item 5: sessions for real agents. A session's default time limit
// suits real tools (30 s, tool awaits included); `remember: false` keeps
// object results out of memory; the memory can be read, set and cleared
// (ptcTool's `memory`, the MCP server's `memory`).
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { inMemoryClient } = require("./mcp-client.cjs");
const { ptcWasm } = require("./helpers.cjs");
const { createMcpServer } = require("../../dist/mcp.cjs");

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

async function connected(options) {
  const server = createMcpServer(ptc, options);
  const client = await inMemoryClient(server);
  const run = async (program) => {
    const r = await client.callTool({ name: "run_program", arguments: { program } });
    return r.content.map((c) => c.text);
  };
  return { server, client, run };
}

const obj = (fields) => ({ op: "object", fields });

test("the MCP server's memory: read after a program, set by the host, cleared", async () => {
  const { server, client, run } = await connected({});
  await run(obj({ seen: { op: "literal", value: [1, 2] } }));
  expect(server.memory.get()).toEqual({ seen: [1, 2] });
  server.memory.set({ user: "ada" });
  expect(await run({ op: "var", name: "user" })).toEqual(['"ada"']);
  server.memory.clear();
  expect(server.memory.get()).toEqual({});
  // What get returns is a copy.
  server.memory.set({ n: 1 });
  server.memory.get().n = 2;
  expect(server.memory.get()).toEqual({ n: 1 });
  expect(() => server.memory.set([1])).toThrow(new TypeError("ptc-wasm: memory must be an object"));
  await client.close();
});

test("remember: false returns object results without storing them", async () => {
  const { server, client, run } = await connected({ remember: false, memory: { kept: true } });
  expect(await run(obj({ city: { op: "literal", value: 5 } }))).toEqual(['{"city":5}']); // no "Stored in memory" note
  expect(server.memory.get()).toEqual({ kept: true });
  expect(() => createMcpServer(ptc, { remember: "no" })).toThrow(
    new TypeError("ptc-wasm: options.remember must be true or false"),
  );
  await client.close();
});

test("a session's programs may wait on tools past run()'s 1 s default (30 s in a session)", async () => {
  const slow = () => new Promise((resolve) => setTimeout(() => resolve("late"), 1200));
  const { client, run } = await connected({ tools: { slow } });
  expect(await run({ op: "call", tool: "slow" })).toEqual(['"late"']);
  await client.close();
  const r = await ptc.run({ program: { op: "call", tool: "slow" } }, { tools: { slow } });
  expect(r.error.type).toBe("timeout");
});

test("ptcTool's memory: read, set, cleared between calls", () => {
  const source = `
    import { createRuntime } from "ptc-wasm";
    import { ptcTool } from "ptc-wasm/ai-sdk";
    const t = ptcTool(await createRuntime(), { remember: true });
    await t.execute({ program: { op: "object", fields: { a: 1 } } });
    const after = t.memory.get();
    t.memory.set({ b: 2 });
    const read = await t.execute({ program: { op: "var", name: "b" } });
    t.memory.clear();
    console.log(JSON.stringify([after, read, t.memory.get()]));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: path.join(__dirname, "../.."),
    encoding: "utf8",
  });
  expect(JSON.parse(out.trim().split("\n").pop())).toEqual([{ a: 1 }, { ok: true, result: 2 }, {}]);
});

test("run_program's annotations follow the tools' effects: read-only with reads only", async () => {
  const { client } = await connected({ tools: { get: { effect: "read", execute: () => 1 } } });
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === "run_program").annotations).toEqual({
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  });
  await client.close();
  const bare = await connected({});
  const listed = (await bare.client.listTools()).tools;
  expect(listed.find((t) => t.name === "run_workflow").annotations).toMatchObject({
    readOnlyHint: true,
    openWorldHint: false,
  });
  await bare.client.close();
});
