// Issue 33 point 5: a session's memory you can predict. The context given with
// a call wins over a memory key of the same name (and a warning names it); an
// envelope's context is read; ptcTool reads run_program's input put inside
// "program" as run_program does; the gateway (`ptc-wasm mcp --memory-out`)
// keeps its memory across a restart. Point 6's read-only run_program in code.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { inMemoryClient, answerOf } = require("./mcp-client.cjs");
const { ptcWasm } = require("./helpers.cjs");
const { createMcpServer } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000);

const root = path.join(__dirname, "../..");
let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

async function connected(options) {
  const server = createMcpServer(ptc, options);
  const client = await inMemoryClient(server);
  const call = async (name, args) => answerOf(await client.callTool({ name, arguments: args }));
  return { server, client, call };
}

// The case: an earlier answer stored city; the model now asks with another city.
const weather = { op: "join", value: ["weather for ", "$city"], sep: "" };

describe("the context given with a call and a memory key of the same name", () => {
  test("the context given now wins; a warning names the memory key; memory keeps its value", async () => {
    const { server, client, call } = await connected({});
    await call("run_program", { program: { city: "Chicago", result: "stored" } });
    expect(server.memory.get()).toEqual({ city: "Chicago" });

    const now = await call("run_program", { program: weather, context: { city: "Boston" } });
    expect(now.isError).toBe(false);
    expect(now.texts[0]).toBe(JSON.stringify("weather for Boston"));
    expect(now.texts[1]).toMatch(/^Warning shadowed_memory: The context given with this call has the key "city"/);
    expect(now.texts[1]).toContain("which memory also holds");
    // Memory is not changed by the shadowing: a call without that context reads it.
    expect(server.memory.get()).toEqual({ city: "Chicago" });
    expect(await call("run_program", { program: weather })).toEqual({
      isError: false,
      code: undefined,
      texts: [JSON.stringify("weather for Chicago")],
    });
    await client.close();
  });

  test("a context in the program's envelope is the call's too (it was dropped before)", async () => {
    const { client, call } = await connected({ memory: { city: "Chicago" } });
    const r = await call("run_program", { program: { program: weather, context: { city: "Denver" } } });
    expect(r.texts[0]).toBe(JSON.stringify("weather for Denver"));
    expect(r.texts[1]).toContain('Warning shadowed_memory: The context given with this call has the key "city"');
    await client.close();
  });

  test("the session's own context still yields to memory: only the context given with the call wins", async () => {
    const { client, call } = await connected({ context: { city: "Paris" }, memory: { city: "Chicago" } });
    expect(await call("run_program", { program: weather })).toEqual({
      isError: false,
      code: undefined,
      texts: [JSON.stringify("weather for Chicago")],
    });
    await client.close();
  });
});

// `ai` is ESM-only: ptcTool runs in a plain Node process (as agent-ai-sdk.test.cjs does).
function runNode(source) {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", source], { cwd: root, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop());
}

test("ptcTool given run_program's input inside program runs it as run_program does, storing nothing of it", () => {
  const out = runNode(`
    import { createRuntime } from "ptc-wasm";
    import { ptcTool } from "ptc-wasm/ai-sdk";
    const rt = await createRuntime();
    const t = ptcTool(rt, { memory: { city: "Chicago" } });
    const weather = ${JSON.stringify(weather)};
    const out = {};
    out.doubled = await t.execute({ program: { program: weather, context: { city: "Boston" } } });
    out.memoryAfterDoubled = t.memory.get();
    out.doubledText = await t.execute({ program: JSON.stringify({ program: weather, context: { city: "Oslo" } }) });
    out.twice = await t.execute({ program: { program: { op: "add", left: 1, right: 2 } } });
    out.topContext = await t.execute({ program: weather, context: { city: "Rome" } });
    out.memory = t.memory.get();
    console.log(JSON.stringify(out));`);
  expect(out.doubled.ok).toBe(true);
  expect(out.doubled.result).toBe("weather for Boston");
  expect(out.doubled.warnings.join("\n")).toContain(
    'shadowed_memory: The context given with this call has the key "city"',
  );
  expect(out.memoryAfterDoubled).toEqual({ city: "Chicago" });
  expect(out.doubledText.result).toBe("weather for Oslo");
  expect(out.twice).toEqual({ ok: true, result: 3 });
  expect(out.topContext.result).toBe("weather for Rome");
  // No "program" or "context" key went to memory.
  expect(out.memory).toEqual({ city: "Chicago" });
});

describe("ptc-wasm mcp --memory-out", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-memory-"));
  const file = path.join(dir, "memory.json");

  async function gateway(args) {
    const client = new Client({ name: "host", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["dist/cli.mjs", "mcp", ...args],
      cwd: root,
      stderr: "pipe",
    });
    await client.connect(transport);
    return client;
  }
  const read = () => JSON.parse(fs.readFileSync(file, "utf8"));
  // The file is written after the answer is sent: wait for it (a bound of 50 s, not a timing).
  async function until(check) {
    for (let i = 0; i < 2500; i++) {
      try {
        if (check(read())) return;
      } catch {
        // not written yet
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the memory file never passed the check: ${fs.readFileSync(file, "utf8")}`);
  }

  test("writes the memory at start and after each program that stores; a restart with --memory goes on from it", async () => {
    const first = await gateway(["--memory-out", file]);
    expect(read()).toEqual({});
    await first.callTool({ name: "run_program", arguments: { program: { city: "Chicago", result: "stored" } } });
    await until((m) => m.city === "Chicago");
    await first.callTool({ name: "run_program", arguments: { program: { unit: "C", result: "stored" } } });
    await until((m) => m.unit === "C");
    expect(read()).toEqual({ city: "Chicago", unit: "C" });
    await first.close();

    const second = await gateway(["--memory", file, "--memory-out", file]);
    const r = await second.callTool({ name: "run_program", arguments: { program: weather } });
    expect(r.content[0].text).toBe(JSON.stringify("weather for Chicago"));
    await second.close();
    expect(fs.readdirSync(dir)).toEqual(["memory.json"]); // no temporary file left
  });

  test("a --memory-out that cannot be written is a usage error before the server starts", () => {
    const r = require("node:child_process").spawnSync(
      process.execPath,
      ["dist/cli.mjs", "mcp", "--memory-out", path.join(dir, "no-such-dir", "m.json")],
      { cwd: root, encoding: "utf8", input: "" },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("ptc-wasm: --memory-out cannot write");
  });
});

describe("run_program read-only where a tool writes (issue 33 point 6)", () => {
  const tools = {
    orders: { effect: "read", execute: () => [{ id: "o1" }] },
    cancel: { effect: "write", execute: ({ id }) => `cancelled ${id}` },
  };

  test("tools/list: run_program read-only, run_program_writes for the writes; without writes one tool", async () => {
    const { client } = await connected({ tools });
    const listed = (await client.listTools()).tools;
    const byName = Object.fromEntries(listed.map((t) => [t.name, t]));
    expect(byName.run_program.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.run_program.description).toContain("Programs that call a tool that writes go to run_program_writes.");
    expect(byName.run_program_writes.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    // run_program's input, without the descriptions the model read there.
    expect(byName.run_program_writes.inputSchema).toMatchObject({
      required: ["program"],
      properties: { program: { type: "object" }, context: { type: "object" } },
    });
    await client.close();
    const reads = await connected({ tools: { orders: tools.orders } });
    const names = (await reads.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("run_program_writes");
    await reads.client.close();
  });

  test("a write in run_program is refused before anything runs; run_program_writes runs it with the same memory", async () => {
    const called = [];
    const { client, call, server } = await connected({
      tools: { ...tools, cancel: { effect: "write", execute: ({ id }) => (called.push(id), `cancelled ${id}`) } },
    });
    const program = {
      result: { op: "call", tool: "cancel", args: { id: "o1" } },
      seen: { op: "call", tool: "orders" },
    };
    const refused = await call("run_program", { program });
    expect(refused).toMatchObject({ isError: true, code: "read_only_program" });
    expect(refused.texts[0]).toContain("calls 'cancel', which writes: nothing ran");
    expect(called).toEqual([]);
    expect(server.memory.get()).toEqual({});
    const ran = await call("run_program_writes", { program });
    expect(ran.texts[0]).toBe(JSON.stringify("cancelled o1"));
    expect(called).toEqual(["o1"]);
    expect(server.memory.get()).toEqual({ seen: [{ id: "o1" }] });
    await client.close();
  });
});
