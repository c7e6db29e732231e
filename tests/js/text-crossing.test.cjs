// Text crossing into the engine: a lone surrogate (half of a UTF-16 pair, which
// JS strings may hold and UTF-8 cannot) becomes U+FFFD at every entry point, as
// TextEncoder makes it for context data, and never swallows the next character
// (Emscripten's encoder read "a\uD800b" as "a\u{10062}").
const { TRY_HINT, ptcWasm } = require("./helpers.cjs");

const LONE = ["a\uD800b", "a\uDC00b", "a\uD800"];
const REPLACED = ["a\uFFFDb", "a\uFFFDb", "a\uFFFD"];

const workflow = (ret) => JSON.stringify({ function: "f", output: "text", steps: [{ return: ret }] });
const catching = JSON.stringify({
  function: "f",
  output: "text",
  steps: [{ call: "boom", "on-error": { return: "$error" } }, { return: "unreachable" }],
});

for (const worker of [false, true]) {
  describe(worker ? "worker mode" : "in-process", () => {
    let rt;
    beforeAll(async () => {
      rt = await ptcWasm.createRuntime({ worker });
    });
    afterAll(() => rt.close());

    test.each(LONE.map((text, i) => [text, REPLACED[i]]))("program text %j", async (text, want) => {
      const program = `{"program": {"op": "literal", "value": "${text}"}}`;
      expect((await rt.run(program)).result).toBe(want);
      expect((await rt.run({ program: { op: "literal", value: text } })).result).toBe(want);
      const v = rt.validate(`{"program": {"op": "${text}"}}`);
      expect(v.error.message).toContain(`Unknown operation '${want}'`);
    });

    test.each(LONE.map((text, i) => [text, REPLACED[i]]))("step-function source %j", async (text, want) => {
      expect(
        await rt.runWorkflow(workflow(text).replace(/\\u[0-9a-f]{4}/gi, (e) => JSON.parse(`"${e}"`))),
      ).toMatchObject({
        ok: true,
        result: want,
      });
      // The same source with the surrogate written as a JSON escape reads the same.
      expect(await rt.runWorkflow(workflow(text))).toMatchObject({ ok: true, result: want });
      const v = rt.validateWorkflow(`{"function": "${text}", "output": "text", "steps": [{"return": "x"}]}`);
      expect(v.error.message).toContain(`got "${want}"`);
    });

    test.each(LONE.map((text, i) => [text, REPLACED[i]]))("a tool's error message %j", async (text, want) => {
      const tools = { boom: () => Promise.reject(new Error(text)) };
      expect(await rt.runWorkflow(catching, { tools })).toMatchObject({ ok: true, result: want });
      const r = await rt.run({ program: { op: "call", tool: "boom" } }, { tools });
      expect(r.error.message).toBe(`Tool 'boom' failed: ${want}${TRY_HINT}`);
      const thrown = await rt.run(
        { program: { op: "call", tool: "boom" } },
        {
          tools: {
            boom: () => {
              throw text;
            },
          },
        },
      );
      expect(thrown.error.message).toBe(`Tool 'boom' failed: ${want}${TRY_HINT}`);
    });

    test.each(LONE.map((text, i) => [text, REPLACED[i]]))("an abort reason %j", async (text, want) => {
      const controller = new AbortController();
      const tools = { wait: () => (controller.abort(text), new Promise(() => {})) }; // aborted while it is pending
      const pending = rt.run({ program: { op: "call", tool: "wait" } }, { tools, signal: controller.signal });
      expect((await pending).error.message).toBe(`The run was aborted by the caller: ${want}`);
    });

    if (!worker)
      test("without String.prototype.isWellFormed (before ES2024) the same", async () => {
        const native = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed");
        delete String.prototype.isWellFormed;
        try {
          for (const [i, text] of LONE.entries())
            expect((await rt.run(`{"program": {"op": "literal", "value": "${text}"}}`)).result).toBe(REPLACED[i]);
          const pair = "\uD83D\uDE00";
          expect((await rt.run(`{"program": {"op": "literal", "value": "${pair}\uDC00${pair}"}}`)).result).toBe(
            `${pair}\uFFFD${pair}`,
          );
        } finally {
          Object.defineProperty(String.prototype, "isWellFormed", native);
        }
      });

    test.each(LONE.map((text, i) => [text, REPLACED[i]]))(
      "tool results, context, input, options and formatError %j",
      async (text, want) => {
        const echo = { op: "call", tool: "echo" };
        expect((await rt.run({ program: echo }, { tools: { echo: () => text } })).result).toBe(want);
        expect((await rt.run({ program: { op: "load", name: "t" } }, { context: { t: text } })).result).toBe(want);
        const withInput = JSON.stringify({
          function: "f",
          input: { t: "text" },
          output: "text",
          steps: [{ return: "$input.t" }],
        });
        expect((await rt.runWorkflow(withInput, { input: { t: text } })).result).toBe(want);
        expect(rt.formatError({ type: "execution_error", message: text })).toBe(`ExecutionError: ${want}`);
        expect((await rt.runWorkflow(workflow("x"), { entry: text })).error.message).toContain(`'${want}'`);
      },
    );
  });
}

// Text crossing out: a run's status is read from wasm memory as UTF-8 (not
// through Embind); one over 64 KB is released in the engine once read, and the
// next run's status is whole.
test("run statuses come back whole: non-ASCII text, one over 64 KB, then a small one", async () => {
  const rt = await ptcWasm.createRuntime();
  try {
    const big = "é€😀x".repeat(30_000);
    const literal = (value) => ({ program: { op: "literal", value } });
    expect((await rt.run(literal(big))).result).toBe(big);
    expect((await rt.run(literal("ü"))).result).toBe("ü");
    expect((await rt.run(literal([1, "a"]))).result).toEqual([1, "a"]);
  } finally {
    rt.close();
  }
});

// The done status of a run that keeps no memory is read without parsing all of
// it (driver.ts): a result that holds the status's own wording stays a result.
test("a result holding the text of a done status is read as the result", async () => {
  const rt = await ptcWasm.createRuntime();
  try {
    const tail = ',"memoryDelta":{},"memory":{},"metrics":{"memoryBytes":1,"toolCalls":0}}';
    for (const value of [tail, `{"state":"done","ok":true,"result":${tail}`, [tail, { x: tail }], 0, -1.5e300, null]) {
      const r = await rt.run({ program: { op: "literal", value } });
      expect(r).toMatchObject({ ok: true, result: value, memoryDelta: {}, memory: {} });
      expect(r.metrics.memoryBytes).toBeGreaterThan(0);
    }
    const kept = await rt.run({ program: { op: "literal", value: { result: 1, n: tail } } });
    expect(kept).toMatchObject({ ok: true, result: 1, memoryDelta: { n: tail }, memory: { n: tail } });
  } finally {
    rt.close();
  }
});

// Issue 40 item 10, the package's half: a text the package cuts short for a
// message (an arg's value in an args error, a description's summary) keeps
// whole characters. An emoji is two UTF-16 units; cut between them, the lone
// half became U+FFFD on its way through the engine.
const LONE_HALF = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
test("a text the package cuts short for a message keeps whole characters", async () => {
  const rt = await ptcWasm.createRuntime();
  try {
    const tools = {
      t: {
        description: `${"a".repeat(116)}\u{1F600} and more.`,
        parameters: { type: "object", properties: { n: { type: "number" } } },
        execute: () => 1,
      },
    };
    // The arg's value is shown as JSON cut to 40 characters: the emoji's first half is the 37th.
    const r = await rt.run(
      { program: { op: "call", tool: "t", args: { n: `${"a".repeat(35)}\u{1F600}bbbb` } } },
      { tools },
    );
    expect(r.ok).toBe(false);
    expect(r.error.message).toContain(`got string "${"a".repeat(35)}...`);
    expect(r.error.message).not.toMatch(LONE_HALF);
    expect(r.error.message).not.toContain("\uFFFD");
    // A description's summary (describe_tools' list) is cut to 120 characters: the emoji's first half is the 117th.
    const { createMcpServer } = require("../../dist/mcp.cjs");
    const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
    const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(rt, { tools: { "shop.t": tools.t } }).connect(serverSide);
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(clientSide);
    const answer = await client.callTool({ name: "describe_tools", arguments: { server: "shop" } });
    await client.close();
    const list = answer.content[0].text;
    expect(list).toContain(`"${"a".repeat(116)}..."`);
    expect(list).not.toMatch(LONE_HALF);
  } finally {
    rt.close();
  }
});
