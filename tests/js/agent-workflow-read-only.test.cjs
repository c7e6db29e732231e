// Issue 33 point 6 for step functions: where a tool writes, run_workflow is
// read-only for the host (no destructive prompt before a file that only
// reads) and refuses, before anything runs, a file that calls a tool that
// writes, pointing to run_workflow_writes, which runs it.
const { inMemoryClient, answerOf } = require("./mcp-client.cjs");
const { ptcWasm } = require("./helpers.cjs");
const { createMcpServer } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000);

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

async function connected(options) {
  const server = createMcpServer(ptc, options);
  const client = await inMemoryClient(server);
  const call = async (name, args) => answerOf(await client.callTool({ name, arguments: args }));
  return { client, call };
}

const fileCalling = (tool) => ({
  functions: [
    {
      function: "main",
      input: { id: "text" },
      output: "text",
      steps: [{ let: "r", call: tool, args: { id: "$input.id" } }, { return: "$r" }],
    },
  ],
  input: { id: "o1" },
});

describe("run_workflow read-only where a tool writes", () => {
  const called = [];
  const tools = {
    orders: { effect: "read", execute: ({ id }) => (called.push(`read ${id}`), `order ${id}`) },
    cancel: { effect: "write", execute: ({ id }) => (called.push(`cancel ${id}`), `cancelled ${id}`) },
  };

  test("tools/list: run_workflow read-only, run_workflow_writes destructive; without writes no split", async () => {
    const { client } = await connected({ tools });
    const byName = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
    expect(byName.run_workflow.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.run_workflow.description).toContain("Files that write go to run_workflow_writes.");
    expect(byName.run_workflow_writes.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.run_workflow_writes.inputSchema).toMatchObject({
      required: ["functions"],
      properties: { functions: {}, input: {}, entry: {} },
    });
    await client.close();
    const reads = await connected({ tools: { orders: tools.orders } });
    const names = (await reads.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("run_workflow");
    expect(names).not.toContain("run_workflow_writes");
    await reads.client.close();
  });

  test("a read-only file runs through run_workflow; one that writes is refused unrun, then runs in run_workflow_writes", async () => {
    called.length = 0;
    const { client, call } = await connected({ tools });
    expect(await call("run_workflow", fileCalling("orders"))).toEqual({
      isError: false,
      code: undefined,
      texts: [JSON.stringify("order o1")],
    });
    expect(called).toEqual(["read o1"]);

    const refused = await call("run_workflow", fileCalling("cancel"));
    expect(refused.isError).toBe(true);
    expect(refused.code).toBe("read_only_program");
    expect(refused.texts[0]).toContain("calls 'cancel', which writes: nothing ran");
    expect(refused.texts[0]).toContain("Send the same file to run_workflow_writes");
    expect(called).toEqual(["read o1"]); // nothing of the refused file ran
    // The request's short form is refused the same way, its pointer in the request's terms.
    const short = await call("run_workflow", { steps: [{ call: "cancel", args: { id: "o1" } }, { return: 1 }] });
    expect(short.code).toBe("read_only_program");
    expect(short.texts[0]).toMatch(/^ValidationError at \/steps\/0: /);
    expect(called).toEqual(["read o1"]);

    const ran = await call("run_workflow_writes", fileCalling("cancel"));
    expect(ran).toEqual({ isError: false, code: undefined, texts: [JSON.stringify("cancelled o1")] });
    expect(called).toEqual(["read o1", "cancel o1"]);
    await client.close();
  });

  test("a file the engine cannot verify is not refused as a write: its own error comes back", async () => {
    const { client, call } = await connected({ tools });
    const r = await call("run_workflow", { functions: [{ function: "main", steps: [{ bogus: 1 }] }] });
    expect(r.isError).toBe(true);
    expect(r.code).not.toBe("read_only_program");
    await client.close();
  });
});
