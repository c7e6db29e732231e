// Resident context (runtime.load, js/src/engine/resident.ts): context data loaded into
// the engine once, which runs then load by name without it crossing again; in
// both runtimes, bounded by its own limit, released on close, and automatic for
// the sessions of the MCP server and the AI SDK tool.
const { ptcWasm } = require("./helpers.cjs");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { createMcpServer } = require("../../dist/mcp.cjs");

const rows = [
  { category: "travel", amount: 2, note: "a" },
  { category: "food", amount: 4, note: "b" },
  { category: "travel", amount: 5, note: "c" },
];
const sumTravel = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "rows" },
      { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
      { op: "sum", field: "amount" },
    ],
  },
};
const loadLabel = { program: { op: "load", name: "label" } };

describe.each([
  ["in-process", {}],
  ["worker", { worker: true }],
])("%s runtime", (_mode, options) => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime(options);
  });
  afterAll(() => rt.close());

  test("runs load the resident keys; the data is not read again", async () => {
    let reads = 0;
    const context = {
      get rows() {
        reads++;
        return rows;
      },
      label: "resident",
    };
    Object.defineProperty(context, "rows", { enumerable: true });
    const loaded = await rt.load(context);
    expect(loaded.ok).toBe(true);
    const data = loaded.resident;
    expect([...data.keys]).toEqual(["rows", "label"]);
    expect(data.memoryBytes).toBeGreaterThan(0);
    expect(reads).toBe(1);
    for (let i = 0; i < 3; i++) {
      const r = await rt.run(sumTravel, { resident: data });
      expect(r).toMatchObject({ ok: true, result: 7 });
    }
    expect(reads).toBe(1);
    data.close();
  });

  test("a key of the run's own context wins over the resident one", async () => {
    const { resident } = await rt.load({ label: "resident" });
    expect((await rt.run(loadLabel, { resident, context: { label: "own" } })).result).toBe("own");
    expect((await rt.run(loadLabel, { resident, context: { other: 1 } })).result).toBe("resident");
    resident.close();
  });

  test("past maxResidentBytes the load fails with memory_exceeded", async () => {
    const r = await rt.load({ rows }, { maxResidentBytes: 64 });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("memory_exceeded");
    expect(r.error.message).toContain("maxResidentBytes");
  });

  test("after close, a run with it is an execution_error", async () => {
    const { resident } = await rt.load({ rows });
    resident.close();
    expect(resident.closed).toBe(true);
    const r = await rt.run(sumTravel, { resident });
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ type: "execution_error", code: "resident_closed" });
    expect(r.error.message).toContain("closed");
  });

  test("a resident context of another runtime is refused", async () => {
    const other = await ptcWasm.createRuntime();
    const { resident } = await other.load({ rows });
    await expect(rt.run(sumTravel, { resident })).rejects.toThrow(TypeError);
    await expect(rt.load([1, 2])).rejects.toThrow(TypeError);
    other.close();
  });

  // Issue 40 items 7 and 8: big resident data must not break a run's limits.
  test("a run over 300,000 resident keys is charged for what it reads, and a typo names the nearest few", async () => {
    const many = { target: 42 };
    for (let i = 0; i < 300_000; i++) many["key" + i] = i;
    const big = await rt.load(many, { timeoutMs: 600_000 });
    const small = await rt.load({ target: 42 });
    expect(big.ok && small.ok).toBe(true);
    const loadTarget = { program: { op: "load", name: "target" } };
    const overMany = await rt.run(loadTarget, { resident: big.resident });
    const overOne = await rt.run(loadTarget, { resident: small.resident });
    expect(overMany).toMatchObject({ ok: true, result: 42 });
    expect(overMany.metrics.memoryBytes).toBe(overOne.metrics.memoryBytes);
    const warned = await rt.run({ program: { op: "load", name: "targte" } }, { resident: big.resident });
    expect(warned.ok).toBe(true);
    expect(warned.warnings[0].message).toBe(
      "'load' reads context key 'targte', which the context does not have, so it is null. Did you mean 'target'? " +
        "The context keys nearest 'targte' are: target, key0, key1, key10, key100 and 299,996 more.",
    );
    const failed = await rt.run({ program: "$targte" }, { resident: big.resident });
    expect(failed.error.code).toBe("unknown_variable");
    expect(failed.error.message).toContain("The names nearest 'targte' are: target, key0, key1, key10, key100 and");
    expect(failed.error.message.length).toBeLessThan(400);
    big.resident.close();
    small.resident.close();
  }, 120_000);

  test("a context that is not JSON data is a parse_error", async () => {
    const r = await rt.load({ n: 1n });
    expect(r).toMatchObject({ ok: false, error: { type: "parse_error" } });
  });
});

test("in-process: the resident bytes are reported and released on close", async () => {
  const rt = await ptcWasm.createRuntime();
  const { resident } = await rt.load({ rows });
  expect(rt.residentBytes).toBe(resident.memoryBytes);
  resident.close();
  expect(rt.residentBytes).toBe(0);
});

test("in-process: a fresh engine instance after a trap gets the resident context back", async () => {
  const rt = await ptcWasm.createRuntime();
  const { resident } = await rt.load({ rows });
  expect(() => rt.trapForTesting()).toThrow();
  expect((await rt.run(sumTravel, { resident })).result).toBe(7);
});

test("worker: a fresh worker gets the resident context back", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true });
  const { resident } = await rt.load({ rows });
  rt.trapForTesting();
  expect((await rt.run(sumTravel, { resident })).result).toBe(7);
  rt.close();
});

// The MCP server and the AI SDK tool share one session (js/src/agents/session.ts);
// the MCP server is driven here (the AI SDK is an ES module Jest cannot load).
async function connected(rt, options) {
  const server = createMcpServer(rt, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  const call = async () =>
    (await client.callTool({ name: "run_program", arguments: sumTravel })).content.map((c) => c.text).join("\n");
  return { client, call };
}

describe("a session's context is loaded once", () => {
  test("it crosses once, whatever the number of programs", async () => {
    const rt = await ptcWasm.createRuntime();
    let reads = 0;
    const context = Object.defineProperty({}, "rows", {
      enumerable: true,
      get() {
        reads++;
        return rows;
      },
    });
    const loads = jest.spyOn(rt, "load");
    const { client, call } = await connected(rt, { context });
    const described = reads; // the tool's description shows the context's shape
    for (let i = 0; i < 3; i++) expect(await call()).toBe("7");
    expect(loads).toHaveBeenCalledTimes(1);
    expect(reads - described).toBe(1);
    await client.close();
  });

  test("a context past maxResidentBytes is sent with each run instead", async () => {
    const rt = await ptcWasm.createRuntime();
    const { client, call } = await connected(rt, { context: { rows }, maxResidentBytes: 64 });
    expect(await call()).toBe("7");
    expect(rt.residentBytes).toBe(0);
    await client.close();
  });

  test("the MCP server releases it when it closes", async () => {
    const rt = await ptcWasm.createRuntime();
    const { client, call } = await connected(rt, { context: { rows } });
    expect(await call()).toBe("7");
    expect(rt.residentBytes).toBeGreaterThan(0);
    await client.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(rt.residentBytes).toBe(0);
  });
});
