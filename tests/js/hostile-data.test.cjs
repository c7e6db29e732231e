// Hostile data against the run limits (issue 11, items 5, 6 and 22): object
// operations that were quadratic in the number of keys, values used in many
// places that are small to hold but huge as JSON text, and huge program text.
// Every run must settle with the right answer or a typed limit error; how much
// work each takes is tested natively on a fake clock, not by wall time here.
const { ptcWasm } = require("./helpers.cjs");

let rt;
beforeAll(async () => {
  rt = await ptcWasm.createRuntime();
});

const wideObject = (n, prefix = "k") => {
  const o = {};
  for (let i = 0; i < n; i++) o[prefix + i] = i;
  return o;
};
const reversed = (o) => Object.fromEntries(Object.entries(o).reverse());

async function outcome(run) {
  return { r: await run() };
}

/**
 * The right result, or a timeout (both keep the limit). How much work each
 * takes (linear, not quadratic) is tested natively with a fake clock
 * (tests/cpp/limits_test.cpp): no test here depends on the machine's speed.
 */
function expectResultOrTimeout({ r }, result) {
  if (r.ok) expect(r.result).toEqual(result);
  else expect(r.error.type).toBe("timeout");
}

describe("objects with many keys", () => {
  test("merge of a 40,000-key object with itself under timeoutMs 100", async () => {
    const program = {
      op: "pipe",
      steps: [
        {
          op: "merge",
          objects: [
            { op: "load", name: "o" },
            { op: "load", name: "o" },
          ],
        },
        { op: "keys" },
        { op: "count" },
      ],
    };
    expectResultOrTimeout(
      await outcome(() => rt.run({ program }, { context: { o: wideObject(40000) }, timeoutMs: 100 })),
      40000,
    );
  }, 120000);

  test("eq of two 60,000-key objects in different key orders", async () => {
    const program = {
      op: "pipe",
      steps: [
        { op: "load", name: "a" },
        { op: "eq", value: { op: "load", name: "b" } },
      ],
    };
    const { r } = await outcome(() =>
      rt.run(
        { program },
        { context: { a: wideObject(60000), b: reversed(wideObject(60000)) }, timeoutMs: 60000, maxHeapBytes: 64 << 20 },
      ),
    );
    expect(r).toMatchObject({ ok: true, result: true });
  }, 120000);

  test("distinct over 200 references to one 5,000-key object under timeoutMs 100", async () => {
    const program = {
      op: "let",
      name: "o",
      value: { op: "load", name: "o" },
      in: {
        op: "pipe",
        steps: [
          { op: "literal", value: [...Array(200).keys()] },
          { op: "map", expr: { op: "var", name: "o" } },
          { op: "distinct" },
          { op: "count" },
        ],
      },
    };
    expectResultOrTimeout(
      await outcome(() => rt.run({ program }, { context: { o: wideObject(5000) }, timeoutMs: 100 })),
      1,
    );
  }, 120000);

  test("the memory contract merges a 40,000-key memory with a 40,000-key result", async () => {
    const { r } = await outcome(() =>
      rt.run(
        { program: { op: "load", name: "o" } },
        {
          context: { o: wideObject(40000, "m") },
          memory: wideObject(40000, "m"),
          timeoutMs: 60000,
          maxHeapBytes: 64 << 20,
        },
      ),
    );
    expect(r.ok).toBe(true);
    expect(Object.keys(r.memory)).toHaveLength(40000);
  }, 120000);

  test("$merge of a 40,000-key object in a step function under timeoutMs 100", async () => {
    const source = JSON.stringify({
      function: "main",
      input: { o: "any" },
      output: "number",
      steps: [{ let: "m", expr: { $merge: ["$input.o", "$input.o"] } }, { return: 1 }],
    });
    expectResultOrTimeout(
      await outcome(() => rt.runWorkflow(source, { input: { o: wideObject(40000) }, timeoutMs: 100 })),
      1,
    );
  }, 120000);
});

// s0 = [a 10 KB string]; s(i+1) = concat [s(i), s(i)]: 2^times references to one string.
function doubled(times, use) {
  let body = use;
  for (let i = times; i >= 1; i--) {
    const prev = { op: "var", name: `s${i - 1}` };
    body = { op: "let", name: `s${i}`, value: { op: "concat", lists: [prev, prev] }, in: body };
  }
  return { program: { op: "let", name: "s0", value: { op: "literal", value: ["x".repeat(10240)] }, in: body } };
}

describe("values used in many places are charged as the text they become", () => {
  test("a result holding one 10 KB string 16,384 times (164 MB of JSON) is a typed limit error", async () => {
    for (const timeoutMs of [100, 10000]) {
      const { r } = await outcome(() => rt.run(doubled(14, { op: "var", name: "s14" }), { timeoutMs }));
      expect(r.ok).toBe(false);
      expect(["memory_exceeded", "timeout"]).toContain(r.error.type);
      if (timeoutMs === 10000) {
        expect(r.error.type).toBe("memory_exceeded");
        expect(r.error.message).toContain("while writing the result and memory as JSON");
      }
      expect(r.metrics.memoryBytes).toBeLessThanOrEqual(10 * 1024 * 1024);
    }
  });

  test("a memoryDelta repeating it is charged too", async () => {
    // 1,024 references: 10 MB of text wherever the list is written.
    const once = await rt.run(doubled(10, { result: 1, a: { op: "var", name: "s10" } }), {
      timeoutMs: 10000,
      maxHeapBytes: 30e6,
    });
    expect(once.ok).toBe(true); // memoryDelta and memory: 20 MB
    const program = doubled(10, { result: 1, a: { op: "var", name: "s10" }, b: { op: "var", name: "s10" } });
    const r = await rt.run(program, { timeoutMs: 10000, maxHeapBytes: 30e6 }); // 40 MB
    expect(r.error).toMatchObject({
      type: "memory_exceeded",
      message: expect.stringContaining("while writing the result and memory"),
    });
  });

  test("concat of one list given 500 times is refused before the copy is built", async () => {
    const fresh = await ptcWasm.createRuntime();
    const lists = Array(500).fill({ op: "var", name: "a" });
    const program = {
      program: {
        op: "let",
        name: "a",
        value: { op: "load", name: "xs" },
        in: { op: "pipe", steps: [{ op: "concat", lists }, { op: "count" }] },
      },
    };
    const r = await fresh.run(program, { context: { xs: [...Array(100000).keys()] }, timeoutMs: 10000 });
    expect(r.error).toMatchObject({
      type: "memory_exceeded",
      message: expect.stringContaining("Memory limit of 10485760 bytes"),
    });
    expect(fresh.engineMemoryBytes).toBeLessThan(200 * 1024 * 1024); // 50M references would take 800 MB
    await fresh.close?.();
  });

  test("a step function joining one text 500 times is refused before the text is built", async () => {
    const fresh = await ptcWasm.createRuntime();
    const source = JSON.stringify({
      function: "main",
      input: { s: "text" },
      output: "number",
      steps: [{ let: "t", expr: { "+": Array(500).fill("$input.s") } }, { return: 1 }],
    });
    const r = await fresh.runWorkflow(source, { input: { s: "x".repeat(1 << 20) }, timeoutMs: 10000 });
    expect(r.error).toMatchObject({
      type: "memory_exceeded",
      message: expect.stringContaining("Memory limit of 10485760 bytes"),
    });
    expect(fresh.engineMemoryBytes).toBeLessThan(200 * 1024 * 1024); // the text would be 500 MB
    await fresh.close?.();
  });

  test("tool args holding it never reach the tool", async () => {
    let called = false;
    const program = doubled(14, { op: "call", tool: "t", args: { x: { op: "var", name: "s14" } } });
    const r = await rt.run(program, { timeoutMs: 10000, tools: { t: () => (called = true) } });
    expect(r.error).toMatchObject({
      type: "memory_exceeded",
      message: expect.stringContaining("the args of tool 't'"),
    });
    expect(called).toBe(false);
  });

  test("a step-function trace of 2,000 steps re-binding a 10,000-item list", async () => {
    const steps = [];
    for (let i = 0; i < 2000; i++) steps.push({ let: "xs", expr: "$input.xs" });
    steps.push({ return: 1 });
    const source = JSON.stringify({ function: "main", input: { xs: "list number" }, output: "number", steps });
    const { r } = await outcome(() =>
      rt.runWorkflow(source, { input: { xs: [...Array(10000).keys()] }, timeoutMs: 2000 }),
    );
    expect(r.ok).toBe(false);
    expect(["memory_exceeded", "timeout"]).toContain(r.error.type);
    expect(r.error.message).toContain("the trace leaves out the steps' values and args");
    expect(r.trace).toHaveLength(2001);
    expect(r.trace[0]).toMatchObject({ kind: "let", outcome: "value" });
    expect(r.trace[0]).not.toHaveProperty("value");
  });
});

describe("program text", () => {
  const programOfBytes = (bytes) => {
    const head = '{"program":{"op":"literal","value":"';
    return head + "x".repeat(bytes - head.length - 3) + '"}}';
  };

  test("a 50 MB program is a validation_error, promptly, under timeoutMs 1000", async () => {
    const text = programOfBytes(50 * 1024 * 1024);
    const { r } = await outcome(() => rt.run(text, { timeoutMs: 1000 }));
    expect(r.error).toMatchObject({
      type: "validation_error",
      message: expect.stringContaining("over the limit of 1048576 bytes"),
    });
    expect(r.error.message).toContain("context");
    expect(rt.validate(text)).toMatchObject({ ok: false, error: { type: "validation_error" } });
  });

  test("1 MiB of program text is allowed, one byte more is not", async () => {
    expect((await rt.run(programOfBytes(1024 * 1024))).ok).toBe(true);
    expect((await rt.run(programOfBytes(1024 * 1024 + 1))).error.type).toBe("validation_error");
  });

  test("a step-function file over 1 MiB is a validation_error", async () => {
    const source = JSON.stringify({ function: "main", output: "text", steps: [{ return: "x".repeat(1024 * 1024) }] });
    const r = await rt.runWorkflow(source);
    expect(r.error).toMatchObject({ type: "validation_error", message: expect.stringContaining("input") });
    expect(rt.validateWorkflow(source)).toMatchObject({ ok: false, error: { type: "validation_error" } });
  });

  test("reading the program counts toward timeoutMs", async () => {
    const numbers = Array(140000).fill(123456).join(",");
    const text = `{"program":{"op":"pipe","steps":[{"op":"literal","value":[${numbers}]},{"op":"count"}]}}`;
    const r = await rt.run(text, { timeoutMs: 1 });
    expect(r.error).toMatchObject({ type: "timeout", message: expect.stringContaining("Reading the program") });
    expect((await rt.run(text, { timeoutMs: 5000 })).result).toBe(140000);
  });
});
