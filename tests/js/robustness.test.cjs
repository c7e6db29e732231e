// The runtime stays usable whatever happens: a trapped engine instance is
// replaced, unreadable tool data is a typed error, counters stay honest.
const { ptcWasm, sleep, withFakeClock } = require("./helpers.cjs");

let rt;
beforeAll(async () => {
  rt = await ptcWasm.createRuntime();
});

test("after the engine traps, the next run works on a fresh instance", async () => {
  expect((await rt.run({ program: { op: "literal", value: 1 } })).result).toBe(1);
  expect(() => rt.trapForTesting()).toThrow(/engine instance failed/);
  expect((await rt.run({ program: { op: "add", left: 1, right: 2 } })).result).toBe(3);
  expect(rt.validate({ program: { op: "count" } })).toEqual({ ok: true });
});

test("a tool returning a Map or Set is an execution_error naming the tool, not silent {}", async () => {
  for (const value of [new Map([["a", 1]]), new Set([1])]) {
    const r = await rt.run({ program: { op: "call", tool: "weird" } }, { tools: { weird: () => value } });
    expect(r.error).toMatchObject({ type: "execution_error", message: expect.stringContaining("'weird'") });
    expect(r.error.message).toMatch(/Map|Set/);
  }
});

test("a tool result nested too deeply is an execution_error naming the tool", async () => {
  let deep = [];
  for (let i = 0; i < 1200; i++) deep = [deep];
  const r = await rt.run({ program: { op: "call", tool: "deep" } }, { tools: { deep: () => deep } });
  expect(r.error).toMatchObject({ type: "execution_error", path: "/program" });
  expect(r.error.message).toContain("Tool 'deep' returned data the engine cannot read");
});

test("a tool call that times out still counts in metrics.toolCalls", async () => {
  const r = await rt.run(
    { program: { op: "call", tool: "hang" } },
    { timeoutMs: 50, tools: { hang: () => new Promise(() => {}) } },
  );
  expect(r.error.type).toBe("timeout");
  expect(r.metrics.toolCalls).toBe(1);
});

test("operations() cannot be changed by a caller", () => {
  const ops = rt.operations();
  expect(Object.isFrozen(ops) && Object.isFrozen(ops[0]) && Object.isFrozen(ops[0].fields)).toBe(true);
  expect(() => {
    "use strict";
    ops.push({});
  }).toThrow(TypeError);
  expect(rt.operations().length).toBe(ops.length);
});

test("validate checks its options like run does", () => {
  expect(() => rt.validate({ program: { op: "count" } }, { maxDepth: -1 })).toThrow(TypeError);
  expect(() => rt.validate({ program: { op: "count" } }, { tools: 3 })).toThrow(TypeError);
});

test("bad options are reported before the program is looked at", async () => {
  await expect(rt.run("not json", { context: 3 })).rejects.toThrow(TypeError);
  await sleep(0);
});

test("the deadline holds while a huge context is serialised and parsed", async () => {
  const rows = Array.from({ length: 400000 }, (_, i) => ({ id: i, name: `row ${i}`, amount: i * 1.5 }));
  const r = await rt.run(
    { program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "count" }] } },
    { context: { rows }, timeoutMs: 30, maxHeapBytes: 1 << 30 },
  );
  // Serialising 400k rows alone takes longer than 30 ms (a loaded machine only
  // takes longer). That parsing checks the deadline as it goes is tested
  // natively with a fake clock (tests/cpp/limits_test.cpp), not by wall time.
  expect(r.error?.type).toBe("timeout");
  expect((await rt.run({ program: { op: "literal", value: 1 } })).result).toBe(1);
});

// A context whose toJSON takes `ms` on the fake clock (withFakeClock).
const slowContext = (clock, ms) => ({
  toJSON: () => {
    clock.jump(ms);
    return [1];
  },
});

test("time spent turning the context into JSON counts toward timeoutMs, even for little data", async () => {
  const program = { program: { op: "pipe", steps: [{ op: "load", name: "xs" }, { op: "count" }] } };
  await withFakeClock(async (clock) => {
    const late = await rt.run(program, { context: { xs: slowContext(clock, 21) }, timeoutMs: 20 });
    expect(late.error?.type).toBe("timeout");
    const inTime = await rt.run(program, { context: { xs: slowContext(clock, 19) }, timeoutMs: 20 });
    expect(inTime.result).toBe(1);
  });
});

test("metrics.payloadMs is the time spent turning the context into what crosses, in both modes", async () => {
  const program = { program: { op: "pipe", steps: [{ op: "load", name: "xs" }, { op: "count" }] } };
  const w = await ptcWasm.createRuntime({ worker: true });
  try {
    for (const runtime of [rt, w]) {
      // The worker's engine keeps real time: a limit no machine reaches.
      const r = await withFakeClock((clock) =>
        runtime.run(program, { context: { xs: slowContext(clock, 30) }, timeoutMs: 600000 }),
      );
      expect(r.result).toBe(1);
      expect(r.metrics.payloadMs).toBe(30);
      expect(r.metrics.durationMs).toBeGreaterThanOrEqual(r.metrics.payloadMs);
      const quick = await runtime.run(program, { context: { xs: [1] } });
      expect(quick.metrics.payloadMs).toBeLessThanOrEqual(quick.metrics.durationMs);
    }
  } finally {
    w.close();
  }
});

test("non-ASCII context, memory and tool results cross intact", async () => {
  const words = ["café", "naïve", "日本語", "emoji 😀", "lone \ud800 surrogate"];
  const program = {
    program: {
      op: "object",
      fields: {
        result: { op: "load", name: "words" },
        seen: { op: "var", name: "prior" },
        echoed: { op: "call", tool: "echo" },
      },
    },
  };
  const r = await rt.run(program, {
    context: { words },
    memory: { prior: "señor" },
    tools: { echo: () => "ünïcödé ✓" },
  });
  // A lone surrogate is not UTF-8: it crosses as U+FFFD, as TextEncoder and JSON tools write it.
  expect(r.result).toEqual(["café", "naïve", "日本語", "emoji 😀", "lone \ufffd surrogate"]);
  expect(r.memory).toEqual({ prior: "señor", seen: "señor", echoed: "ünïcödé ✓" });
});

test("more distinct programs than an instance keeps prepared all run right, again and again", async () => {
  const programs = Array.from({ length: 300 }, (_, i) => ({
    program: {
      op: "pipe",
      steps: [
        { op: "load", name: "xs" },
        { op: "take", count: i % 7 },
        { op: "sum" },
        { op: "add", left: { op: "literal", value: i }, right: 0 },
      ],
    },
  }));
  for (let round = 0; round < 2; round++)
    for (let i = 0; i < programs.length; i++)
      expect((await rt.run(programs[i], { context: { xs: [1, 2, 3, 4, 5, 6, 7] } })).result).toBe(i);
});

test("a prepared program run again with other data sees the new data", async () => {
  const program = { program: { op: "pipe", steps: [{ op: "load", name: "xs" }, { op: "sum" }] } };
  expect((await rt.run(program, { context: { xs: [1, 2] } })).result).toBe(3);
  expect((await rt.run(program, { context: { xs: [10] } })).result).toBe(10);
  expect((await rt.run(program, { context: {} })).error).toMatchObject({ type: "execution_error" });
  expect((await rt.run(program, { context: { xs: [5] }, memory: { m: 1 } })).memory).toEqual({ m: 1 });
  // Errors on the short path are the same as on the long one.
  const bad = await rt.run(program, { context: { xs: ["a"] } });
  expect(bad.error).toMatchObject({ type: "execution_error", path: "/program/steps/1" });
});
