// Per-run limits: time (across tool awaits and during evaluation), memory,
// nesting depth, cancellation with an AbortSignal, and the engine's own memory
// over many runs. Time passes on a fake clock where a test says when a limit
// falls (withFakeClock): no assertion depends on how fast the machine is.
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { ptcWasm, sleep, tracked, withFakeClock } = require("./helpers.cjs");

const repoRoot = path.join(__dirname, "../..");

let rt;
beforeAll(async () => {
  rt = await ptcWasm.createRuntime();
});

const call = (tool, args) => ({ program: args === undefined ? { op: "call", tool } : { op: "call", tool, args } });
const never = () => new Promise(() => {});

/** Runs a CommonJS script in a fresh node (package required by name); returns its parsed stdout. */
function runNode(code) {
  const out = execFileSync(process.execPath, ["-e", code], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 20000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out.trim().split("\n").pop());
}

async function expectRuntimeWorks(runtime = rt) {
  const r = await runtime.run(
    { program: { op: "pipe", steps: [{ op: "call", tool: "xs" }, { op: "sum" }] } },
    { tools: { xs: async () => [1, 2, 3] } },
  );
  expect(r).toMatchObject({ ok: true, result: 6 });
  expect(runtime.activeRuns).toBe(0);
}

describe("timeoutMs across tool awaits", () => {
  test("a tool that never resolves → timeout when the limit falls, not before", async () => {
    await withFakeClock(async (clock) => {
      const running = rt.run(call("hang"), { timeoutMs: 100, tools: { hang: never } });
      const state = tracked(running);
      await clock.advance(99);
      expect(state.settled).toBe(false);
      await clock.advance(1);
      const r = await running;
      expect(r.ok).toBe(false);
      expect(r.error.type).toBe("timeout");
      expect(r.error.message).toContain("hang");
    });
    // The tool never resolves: that the run ended at all proves it was abandoned.
    expect(rt.activeRuns).toBe(0);
    await expectRuntimeWorks();
  });

  test("the tool's later resolution is ignored and the runtime keeps working", async () => {
    let resolveLate;
    const r = await rt.run(
      { program: { op: "pipe", steps: [{ op: "call", tool: "slow" }, { op: "count" }] } },
      { timeoutMs: 50, tools: { slow: () => new Promise((resolve) => (resolveLate = resolve)) } },
    );
    expect(r.error?.type).toBe("timeout");
    resolveLate([1, 2, 3]);
    await sleep(10);
    expect(rt.activeRuns).toBe(0);
    await expectRuntimeWorks();
    // A following run that calls the same tool name is answered by its own tool, not the stale one.
    const again = await rt.run(call("slow"), { tools: { slow: async () => "fresh" } });
    expect(again).toMatchObject({ ok: true, result: "fresh" });
  });

  test("a late rejection after the timeout is not an unhandled rejection (separate process)", () => {
    const out = runNode(`
      const { createRuntime } = require("ptc-wasm");
      (async () => {
        const rt = await createRuntime();
        const r = await rt.run({ program: { op: "call", tool: "t" } }, {
          timeoutMs: 30,
          tools: { t: () => new Promise((_, reject) => setTimeout(() => reject(new Error("too late")), 80)) },
        });
        await new Promise((resolve) => setTimeout(resolve, 150));
        const after = await rt.run({ program: { op: "literal", value: 1 } });
        console.log(JSON.stringify({ type: r.error.type, after: after.result, active: rt.activeRuns }));
      })();
    `);
    expect(out).toEqual({ type: "timeout", after: 1, active: 0 });
  });

  test("the time limit is shared by all the tool calls of a run", async () => {
    const calls = [];
    const tool = (name) => async () => {
      calls.push(name);
      await sleep(120); // on the fake clock: exactly 120 ms
      return 1;
    };
    const program = {
      program: {
        op: "add",
        left: { op: "call", tool: "a" },
        right: { op: "add", left: { op: "call", tool: "b" }, right: { op: "call", tool: "c" } },
      },
    };
    await withFakeClock(async (clock) => {
      const running = rt.run(program, {
        timeoutMs: 200,
        maxConcurrency: 1, // one call after another: only their sum overstays the limit
        tools: { a: tool("a"), b: tool("b"), c: tool("c") },
      });
      await clock.advance(200);
      expect((await running).error?.type).toBe("timeout");
      // Each call alone fits in 200 ms, so only a shared limit stops the run:
      // "b" is cut off at 200 ms and "c" never starts.
      expect(calls).toEqual(["a", "b"]);
      const ok = rt.run(program, { timeoutMs: 361, tools: { a: tool("a"), b: tool("b"), c: tool("c") } });
      await clock.advance(360);
      expect(await ok).toMatchObject({ ok: true, result: 3 });
    });
  });

  test("the default time limit is 1000 ms", async () => {
    await withFakeClock(async (clock) => {
      const running = rt.run(call("hang"), { tools: { hang: never } });
      const state = tracked(running);
      await clock.advance(999);
      expect(state.settled).toBe(false);
      await clock.advance(1);
      const r = await running;
      expect(r.error?.type).toBe("timeout");
      expect(r.error.message).toContain("1000 ms");
    });
  });

  // JavaScript timers cannot wait longer than 2^31-1 ms (longer ones fire at
  // once), so a larger timeoutMs is refused up front rather than silently cut.
  test("a timeoutMs above 2^31-1 ms is a TypeError and no tool is called", async () => {
    let called = 0;
    await expect(rt.run(call("slow"), { timeoutMs: 2 ** 31 + 1000, tools: { slow: () => ++called } })).rejects.toThrow(
      /timeoutMs must be a positive number of at most 2147483647/,
    );
    expect(called).toBe(0);
  });

  test("a timeoutMs just below 2^31 ms works", async () => {
    const r = await rt.run(call("slow"), {
      timeoutMs: 2 ** 31 - 10000,
      tools: { slow: () => sleep(20).then(() => "done") },
    });
    expect(r).toMatchObject({ ok: true, result: "done" });
  });
});

describe("timeoutMs during evaluation", () => {
  const rows = Array.from({ length: 30000 }, (_, i) => ({ id: i, group: i % 7 }));
  // For each of 30,000 rows, filter the 30,000 rows: 900 million comparisons, far
  // past the limit however fast the engine gets (36 million took about a second).
  const runaway = {
    program: {
      op: "pipe",
      steps: [
        { op: "load", name: "rows" },
        {
          op: "map",
          expr: {
            op: "pipe",
            steps: [
              { op: "load", name: "rows" },
              // Inside `and`, which the planner (engine/ptc_json/planner.h) leaves alone: no index, every pair compared.
              {
                op: "filter",
                where: { op: "and", conditions: [{ op: "eq", field: "group", value: { op: "get", field: "group" } }] },
              },
              { op: "count" },
            ],
          },
        },
      ],
    },
  };

  // How often the engine checks its deadline inside loops and sorts is tested
  // natively with a fake clock (tests/cpp/deadline_test.cpp), not by wall time here.
  test("a CPU-bound runaway → timeout", async () => {
    const r = await rt.run(runaway, { context: { rows }, timeoutMs: 200 });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("timeout");
    expect(rt.activeRuns).toBe(0);
    await expectRuntimeWorks();
  });

  test("the same shape over a small list completes", async () => {
    const r = await rt.run(runaway, { context: { rows: rows.slice(0, 14) }, timeoutMs: 60000 });
    expect(r).toMatchObject({ ok: true, result: Array(14).fill(2) });
  });

  // That the wait counts toward the limit of the evaluation after it is shown
  // natively on a fake clock (tests/cpp/deadline_test.cpp, ToolWait).
  test("a runaway after a slow tool times out, and the tool's time is inside the run's", async () => {
    const program = { program: { op: "let", name: "w", value: { op: "call", tool: "wait" }, in: runaway.program } };
    const r = await rt.run(program, { context: { rows }, timeoutMs: 300, tools: { wait: () => sleep(150) } });
    expect(r.error?.type).toBe("timeout");
    // As measured, whatever the machine's speed (a slow one may spend the limit
    // on the payload, before the tool is called).
    expect(r.metrics.durationMs).toBeGreaterThanOrEqual(r.metrics.toolMs);
  });
});

describe("maxHeapBytes", () => {
  const rows = Array.from({ length: 20000 }, (_, i) => ({ id: i, ok: i % 2 === 0 }));
  const fifty = {
    program: {
      op: "pipe",
      steps: [
        { op: "concat", lists: Array.from({ length: 50 }, () => ({ op: "load", name: "rows" })) },
        { op: "count" },
      ],
    },
  };

  test("a concat of fifty 20,000-row lists under 1 MiB → memory_exceeded", async () => {
    const r = await rt.run(fifty, { context: { rows }, maxHeapBytes: 1024 * 1024 });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("memory_exceeded");
    expect(r.error.message).toMatch(/1048576|maxHeapBytes/);
    await expectRuntimeWorks();
  });

  test("the default limit (10 MiB) also stops it, while a small list passes under 1 MiB", async () => {
    const big = await rt.run(fifty, { context: { rows } });
    expect(big.error?.type).toBe("memory_exceeded");
    const small = await rt.run(fifty, { context: { rows: rows.slice(0, 40) }, maxHeapBytes: 1024 * 1024 });
    expect(small).toMatchObject({ ok: true, result: 2000 });
  });

  test("loaded context data counts toward the limit", async () => {
    const r = await rt.run(
      { program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "count" }] } },
      {
        context: { rows },
        maxHeapBytes: 64 * 1024,
      },
    );
    expect(r.error?.type).toBe("memory_exceeded");
    const ok = await rt.run(
      { program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "count" }] } },
      {
        context: { rows },
      },
    );
    expect(ok).toMatchObject({ ok: true, result: 20000 });
  });

  test("metrics.memoryBytes is a positive peak, not the size of the final value", async () => {
    const countOf = (n) =>
      rt.run(
        { program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "count" }] } },
        {
          context: { rows: rows.slice(0, n) },
        },
      );
    const tiny = await rt.run({ program: { op: "literal", value: 1 } });
    const r1000 = await countOf(1000);
    const r4000 = await countOf(4000);
    expect(tiny.metrics.memoryBytes).toBeGreaterThan(0);
    expect(r1000.result).toBe(1000);
    // The result is one integer, but the run held 1,000 rows on the way.
    expect(r1000.metrics.memoryBytes).toBeGreaterThan(JSON.stringify(rows.slice(0, 1000)).length);
    expect(r1000.metrics.memoryBytes).toBeGreaterThan(10 * tiny.metrics.memoryBytes);
    expect(r4000.metrics.memoryBytes).toBeGreaterThan(2 * r1000.metrics.memoryBytes);
  });
});

describe("maxDepth", () => {
  /** A program whose root is depth 1 and that is `depth` operations deep. */
  const chain = (depth) => {
    let node = { op: "literal", value: true };
    for (let i = 1; i < depth; i++) node = { op: "not", condition: node };
    return { program: node };
  };

  // chain(d) is d - 1 nots around true.
  const value = (depth) => depth % 2 === 1;

  test("deeper than the default 50 → validation_error before anything runs", async () => {
    expect(await rt.run(chain(50))).toMatchObject({ ok: true, result: value(50) });
    const r = await rt.run(chain(51));
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("validation_error");
    expect(r.error.path.startsWith("/program/condition")).toBe(true);
    expect(r.error.message).toMatch(/maxDepth|deep/);
  });

  test("maxDepth is configurable both ways", async () => {
    expect(await rt.run(chain(60), { maxDepth: 60 })).toMatchObject({ ok: true, result: value(60) });
    expect((await rt.run(chain(61), { maxDepth: 60 })).error?.type).toBe("validation_error");
    expect(await rt.run(chain(5), { maxDepth: 5 })).toMatchObject({ ok: true, result: value(5) });
    expect((await rt.run(chain(6), { maxDepth: 5 })).error?.type).toBe("validation_error");
  });

  test("a program too deep calls no tool", async () => {
    let node = { op: "call", tool: "t" };
    for (let i = 0; i < 10; i++) node = { op: "pipe", steps: [node] };
    let called = 0;
    const r = await rt.run({ program: node }, { maxDepth: 5, tools: { t: () => ++called } });
    expect(r.error?.type).toBe("validation_error");
    expect(called).toBe(0);
  });

  test("implicit objects count as nesting like object does; literal data does not", async () => {
    // k times: pipe → (implicit object | object) → ..., around a literal: depth 2k + 1.
    const nest = (k, implicit) => {
      let node = { op: "literal", value: 1 };
      for (let i = 0; i < k; i++) {
        node = implicit ? { w: node } : { op: "object", fields: { w: node } };
        node = { op: "pipe", steps: [node] };
      }
      return { program: node };
    };
    for (const implicit of [true, false]) {
      const r = await rt.run(nest(5, implicit), { maxDepth: 11 });
      expect(r).toMatchObject({ ok: true, result: { w: { w: { w: { w: { w: 1 } } } } } });
      expect((await rt.run(nest(5, implicit), { maxDepth: 10 })).error?.type).toBe("validation_error");
    }
    let data = 1;
    for (let i = 0; i < 200; i++) data = [data];
    expect(await rt.run({ program: { op: "literal", value: data } }, { maxDepth: 2 })).toMatchObject({ ok: true });
    expect(await rt.run({ program: { nested: { a: { b: { c: { d: 1 } } } } } }, { maxDepth: 1 })).toMatchObject({
      ok: true,
    });
  });
});

describe("AbortSignal", () => {
  test("aborting while a tool is pending → execution_error promptly, mentioning abort", async () => {
    const controller = new AbortController();
    let resolveLate;
    const pending = rt.run(call("slow"), {
      timeoutMs: 5000,
      signal: controller.signal,
      tools: { slow: () => new Promise((resolve) => (resolveLate = resolve)) },
    });
    await sleep(50);
    expect(rt.activeRuns).toBe(1);
    controller.abort();
    const r = await pending;
    expect(r.ok).toBe(false);
    // The abort, not the 5 s limit, ended it: the error says so whatever the machine's speed.
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toMatch(/abort/i);
    expect(rt.activeRuns).toBe(0);
    resolveLate("ignored");
    await sleep(5);
    await expectRuntimeWorks();
  });

  test("the abort reason is in the message", async () => {
    const controller = new AbortController();
    // Aborted while the tool is pending (not after some time, which a loaded machine may stretch past the limit).
    const t = () => (controller.abort(new Error("user pressed stop")), never());
    const r = await rt.run(call("t"), { signal: controller.signal, tools: { t } });
    expect(r.error?.type).toBe("execution_error");
    expect(r.error.message).toMatch(/abort/i);
    expect(r.error.message).toContain("user pressed stop");
  });

  test("an already-aborted signal → error without calling any tool", async () => {
    const controller = new AbortController();
    controller.abort();
    let called = 0;
    const r = await rt.run(call("t"), { signal: controller.signal, tools: { t: () => ++called } });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toMatch(/abort/i);
    expect(called).toBe(0);
    expect(rt.activeRuns).toBe(0);
  });

  test("aborting between tool calls: the calls after it are not made", async () => {
    const controller = new AbortController();
    const calls = [];
    const r = await rt.run(
      {
        program: {
          op: "concat",
          lists: [
            { op: "call", tool: "a" },
            { op: "call", tool: "b" },
            { op: "call", tool: "c" },
          ],
        },
      },
      {
        signal: controller.signal,
        maxConcurrency: 1, // calls in program order, one at a time
        tools: {
          a: async () => (calls.push("a"), [1]),
          b: () => {
            calls.push("b");
            setTimeout(() => controller.abort(), 10);
            return never();
          },
          c: () => (calls.push("c"), [3]),
        },
      },
    );
    expect(r.error?.type).toBe("execution_error");
    expect(r.error.message).toMatch(/abort/i);
    expect(calls).toEqual(["a", "b"]);
  });

  test("aborting after the run has finished changes nothing", async () => {
    const controller = new AbortController();
    const r = await rt.run(call("t"), { signal: controller.signal, tools: { t: async () => 5 } });
    controller.abort();
    expect(r).toMatchObject({ ok: true, result: 5 });
    await expectRuntimeWorks();
  });

  // Every other bad option is a TypeError before anything runs. A signal that is
  // not an AbortSignal gets past the checks: awaitTool arms the timeout timer,
  // then signal.addEventListener throws, so run() rejects with a TypeError but
  // the run stays live in the engine (activeRuns 1), and when the timer fires
  // settle() calls signal.removeEventListener and the uncaught TypeError
  // crashes the host process.
  test("a signal that is not an AbortSignal is a TypeError and does not crash the process later", () => {
    const out = runNode(`
      const { createRuntime } = require("ptc-wasm");
      (async () => {
        const rt = await createRuntime();
        let called = 0, threw = null;
        try {
          await rt.run({ program: { op: "call", tool: "t" } },
            { signal: {}, timeoutMs: 50, tools: { t: () => ++called } });
        } catch (e) { threw = e.name; }
        await new Promise((resolve) => setTimeout(resolve, 200));
        console.log(JSON.stringify({ threw, called, active: rt.activeRuns }));
      })();
    `);
    expect(out).toEqual({ threw: "TypeError", called: 0, active: 0 });
  });
});

describe("engine memory over many runs", () => {
  test("engineMemoryBytes does not keep growing over 2,000 sequential runs", async () => {
    const runtime = await ptcWasm.createRuntime();
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, group: i % 5, name: `name-${i}` }));
    const programs = [
      {
        program: {
          op: "pipe",
          steps: [
            { op: "load", name: "rows" },
            { op: "filter", where: { op: "gt", field: "group", value: 2 } },
            { op: "map", expr: { id: { op: "get", field: "id" }, label: { op: "get", field: "name" } } },
            { op: "take", count: 50 },
          ],
        },
      },
      {
        program: {
          result: { op: "pipe", steps: [{ op: "call", tool: "fetch", args: { n: 3 } }, { op: "sum" }] },
          stored: { op: "call", tool: "fetch", args: { n: 20 } },
        },
      },
      { program: { op: "call", tool: "fail" } },
      {
        program: {
          op: "pipe",
          steps: [
            { op: "load", name: "rows" },
            { op: "sum", field: "name" },
          ],
        },
      },
      { program: { op: "filer" } },
      '{"program": {"op": ',
      { program: { op: "call", tool: "hang" } },
      { program: { op: "call", tool: "abort_me" } },
    ];
    const tools = (controller) => ({
      fetch: async ({ n }) => Array.from({ length: n }, (_, i) => i),
      fail: async () => {
        throw new Error("no");
      },
      hang: never,
      abort_me: () => {
        controller.abort();
        return never();
      },
    });
    const expectedType = [
      null,
      null,
      "execution_error",
      "execution_error",
      "validation_error",
      "parse_error",
      "timeout",
      "execution_error",
    ];

    let after200 = 0;
    for (let i = 1; i <= 2000; i++) {
      const k = i % programs.length;
      const controller = new AbortController();
      const r = await runtime.run(programs[k], {
        context: { rows },
        memory: { turn: i },
        tools: tools(controller),
        signal: controller.signal,
        timeoutMs: k === 6 ? 1 : 1000,
      });
      if ((r.ok ? null : r.error.type) !== expectedType[k])
        expect({ i, k, r }).toEqual({ i, k, type: expectedType[k] });
      if (i === 200) after200 = runtime.engineMemoryBytes;
    }
    const after2000 = runtime.engineMemoryBytes;
    expect(runtime.activeRuns).toBe(0);
    expect(after200).toBeGreaterThan(0);
    expect(after2000 - after200).toBeLessThanOrEqual(1024 * 1024);
    expect(after2000).toBeLessThan(64 * 1024 * 1024);
  }, 60000);
});
