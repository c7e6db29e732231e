// Parallel tool calls (maxConcurrency), the tool limits (maxToolCalls,
// toolTimeoutMs) and the tool-call trace, in both modes: in-process and worker.
const { TRY_HINT, ptcWasm, sleep, withFakeClock } = require("./helpers.cjs");

const pipe = (...steps) => ({ program: { op: "pipe", steps } });
const call = (tool, args) => ({ op: "call", tool, ...(args ? { args } : {}) });
const v = (name) => ({ op: "var", name });
const literal = (value) => ({ op: "literal", value });
const mapCalls = (items, tool = "t") => pipe(literal(items), { op: "map", as: "x", expr: call(tool, { x: v("x") }) });
const range = (n) => Array.from({ length: n }, (_, i) => i);

/** A tool that counts how many of its calls are out at once. */
function counting(delay = () => 5, answer = ({ x }) => ({ x })) {
  const tool = async (args) => {
    tool.started.push(args.x);
    tool.inFlight++;
    tool.maxInFlight = Math.max(tool.maxInFlight, tool.inFlight);
    try {
      await sleep(delay(args));
      return answer(args);
    } finally {
      tool.inFlight--;
    }
  };
  Object.assign(tool, { started: [], inFlight: 0, maxInFlight: 0 });
  return tool;
}

const randomDelay = () => Math.floor(Math.random() * 15);

describe.each([
  ["in-process", {}],
  ["worker", { worker: true }],
])("%s", (_mode, createOptions) => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime(createOptions);
  });
  afterAll(() => rt.close());

  test("calls with random delays give the same results in parallel as one at a time", async () => {
    const programs = [
      mapCalls(range(20)),
      // nested fan-outs, a filter over calls, a list of calls, a call in a flat_map
      pipe(literal([[1, 2], [3], [4, 5, 6]]), { op: "map", as: "xs", expr: mapCalls(range(3)).program }),
      pipe(literal(range(12)), {
        op: "filter",
        as: "x",
        where: { op: "pipe", steps: [call("t", { x: v("x") }), { op: "get", field: "even" }] },
      }),
      { program: { op: "list", items: range(6).map((x) => call("t", { x })) } },
      pipe(literal(range(5)), {
        op: "flat_map",
        as: "x",
        expr: { op: "list", items: [call("t", { x: v("x") }), v("x")] },
      }),
    ];
    const answer = ({ x }) => ({ x, even: x % 2 === 0 });
    // What is compared is the results: a time limit no loaded machine reaches
    // (20 calls one at a time, each up to 15 ms, passed 1000 ms on one).
    const timeoutMs = 600000;
    for (const program of programs) {
      const sequential = await rt.run(program, {
        maxConcurrency: 1,
        timeoutMs,
        tools: { t: counting(randomDelay, answer) },
      });
      expect(sequential.ok).toBe(true);
      for (let round = 0; round < 3; round++) {
        const parallel = await rt.run(program, {
          maxConcurrency: 8,
          timeoutMs,
          tools: { t: counting(randomDelay, answer) },
        });
        expect(parallel).toMatchObject({ ok: true, result: sequential.result });
        expect(parallel.metrics.toolCalls).toBe(sequential.metrics.toolCalls);
      }
    }
  });

  test.each([
    [1, 5],
    [3, 2],
    [3, 10],
    [8, 20],
    [8, 50],
  ])(
    "maxConcurrency %i over %i items: at most min(maxConcurrency, items) calls are out at once",
    async (max, items) => {
      const t = counting();
      const r = await rt.run(mapCalls(range(items)), { maxConcurrency: max, tools: { t } });
      expect(r).toMatchObject({ ok: true, result: range(items).map((x) => ({ x })) });
      expect(t.maxInFlight).toBe(Math.min(max, items));
      expect(t.started).toHaveLength(items);
    },
  );

  test("nested fan-outs still keep at most maxConcurrency calls out", async () => {
    const t = counting();
    const program = pipe(literal(range(6)), { op: "map", as: "y", expr: mapCalls(range(6)).program });
    const r = await rt.run(program, { maxConcurrency: 4, tools: { t } });
    expect(r.ok).toBe(true);
    expect(t.maxInFlight).toBe(4);
    expect(t.started).toHaveLength(36);
  });

  test("the first failing item in ITEM order is the error, however the calls finish", async () => {
    // Item 2 fails late, item 5 fails at once: a sequential run fails at item 2.
    const t = counting(
      ({ x }) => (x === 2 ? 40 : 1),
      ({ x }) => {
        if (x === 2 || x === 5) throw new Error(`item ${x} is down`);
        return x;
      },
    );
    const r = await rt.run(mapCalls(range(8)), { maxConcurrency: 8, tools: { t } });
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ type: "execution_error", path: "/program/steps/1/expr" });
    expect(r.error.message).toBe(`Tool 't' failed: item 2 is down${TRY_HINT}`);
  });

  test("after a failure no later item starts; the items already out run to their end", async () => {
    const t = counting(
      ({ x }) => (x === 0 ? 30 : 1),
      ({ x }) => {
        if (x === 1) throw new Error("down");
        return x;
      },
    );
    const r = await rt.run(mapCalls(range(10)), { maxConcurrency: 2, tools: { t } });
    expect(r.error.message).toContain("Tool 't' failed: down");
    expect(t.started).toEqual([0, 1]);
  });

  test("try inside the fan-out catches per item, in order", async () => {
    const t = counting(randomDelay, ({ x }) => {
      if (x % 3 === 0) throw new Error(`no ${x}`);
      return x;
    });
    const program = pipe(literal(range(7)), {
      op: "map",
      as: "x",
      expr: { op: "try", expr: call("t", { x: v("x") }), catch: "failed" },
    });
    const r = await rt.run(program, { tools: { t } });
    expect(r).toMatchObject({ ok: true, result: ["failed", 1, 2, "failed", 4, 5, "failed"] });
  });

  test("an abort mid fan-out ends the run with the calls out abandoned", async () => {
    const controller = new AbortController();
    // Aborted once the fourth call is out (all maxConcurrency slots taken), not
    // after some time: a loaded machine may not have started any call by then.
    const t = counting(({ x }) => {
      if (x === 3) controller.abort(new Error("user cancelled"));
      return 1000;
    });
    const r = await rt.run(mapCalls(range(20)), { maxConcurrency: 4, signal: controller.signal, tools: { t } });
    expect(r.error).toMatchObject({ type: "execution_error" });
    expect(r.error.message).toContain("user cancelled");
    expect(t.started).toEqual([0, 1, 2, 3]);
    expect(await rt.liveEngineRunsForTesting()).toBe(0);
  });

  test("the run's time limit mid fan-out is a timeout", async () => {
    // The limit falls on a fake clock once the eight calls of the first round
    // are out (a worker's engine keeps real time: a limit no machine reaches).
    await withFakeClock(async (clock) => {
      let roundOut;
      const out = new Promise((resolve) => (roundOut = resolve));
      const t = counting(() => {
        if (t.started.length === 8) roundOut();
        return 10 * 60000;
      });
      const running = rt.run(mapCalls(range(20)), { timeoutMs: 60000, tools: { t } });
      await out;
      await clock.advance(60000);
      const r = await running;
      expect(r.error.type).toBe("timeout");
      expect(t.started).toHaveLength(8);
    });
  });

  test("toolTimeoutMs: a call that overstays fails naming the tool, its path and the limit; try catches it", async () => {
    const slow = async ({ x }) => (await sleep(x === 1 ? 600 : 1), x);
    const failed = await rt.run(mapCalls([0, 1, 2], "slow"), { toolTimeoutMs: 50, tools: { slow } });
    expect(failed.error).toMatchObject({ type: "execution_error", path: "/program/steps/1/expr" });
    expect(failed.error.message).toBe(
      "Tool 'slow' failed: no answer within 50 ms (toolTimeoutMs), so the call at /program/steps/1/expr was abandoned" +
        TRY_HINT,
    );
    const caught = await rt.run(
      pipe(literal([0, 1, 2]), {
        op: "map",
        as: "x",
        expr: {
          op: "try",
          expr: call("slow", { x: v("x") }),
          catch: { op: "pipe", steps: [v("error"), { op: "get", field: "message" }] },
        },
      }),
      { toolTimeoutMs: 50, tools: { slow } },
    );
    expect(caught.ok).toBe(true);
    expect(caught.result[0]).toBe(0);
    expect(caught.result[1]).toContain("toolTimeoutMs");
    expect(caught.result[2]).toBe(2);
  });

  test("maxToolCalls: the call past the limit ends the run, and try does not catch it", async () => {
    const t = counting(() => 0);
    const program = { program: { op: "try", expr: mapCalls(range(10)).program, catch: "caught" } };
    const r = await rt.run(program, { maxToolCalls: 4, maxConcurrency: 1, tools: { t } });
    expect(r.error).toMatchObject({ type: "execution_error", path: "/program/expr/steps/1/expr" });
    expect(r.error.message).toContain("limit of 4 tool calls (maxToolCalls)");
    expect(t.started).toEqual([0, 1, 2, 3]);
    expect(r.metrics.toolCalls).toBe(5); // the call refused counts
  });

  test("maxToolCalls defaults to 1000", async () => {
    const t = async () => 1;
    const r = await rt.run(mapCalls(range(1001)), { timeoutMs: 20_000, tools: { t } });
    expect(r.error.message).toContain("limit of 1000 tool calls (maxToolCalls)");
    const fits = await rt.run(mapCalls(range(1000)), { timeoutMs: 20_000, tools: { t } });
    expect(fits.ok).toBe(true);
  });

  test("step functions: maxToolCalls ends the run; toolTimeoutMs is a failure on-error catches", async () => {
    const source = `{"function": "f", "input": {"xs": "list number"}, "output": "list any",
      "steps": [{"for": "x", "in": "$input.xs", "do": [
        {"let": "y", "call": "slow", "args": {"x": "$x"}, "on-error": {"continue": true}},
        {"yield": "$y"}]}]}`;
    const slow = async ({ x }) => (await sleep(x === 1 ? 600 : 1), x);
    const caught = await rt.runWorkflow(source, { input: { xs: [0, 1, 2] }, toolTimeoutMs: 50, tools: { slow } });
    expect(caught).toMatchObject({ ok: true, result: [0, 2] });
    expect(caught.trace.find((e) => e.outcome === "failure").error).toContain("toolTimeoutMs");
    const limited = await rt.runWorkflow(source, { input: { xs: [0, 2, 3] }, maxToolCalls: 2, tools: { slow } });
    expect(limited.error).toMatchObject({ type: "execution_error", path: "/0/steps/0/do/0" });
    expect(limited.error.message).toContain("limit of 2 tool calls (maxToolCalls)");
  });

  test("step functions: a parallel for loop's iterations run concurrently, with the same results as one at a time", async () => {
    const source = `{"function": "f", "input": {"xs": "list number"}, "output": "list any",
      "steps": [{"for": "x", "in": "$input.xs", "parallel": true, "do": [
        {"let": "y", "call": "t", "args": {"x": "$x"}, "on-error": {"continue": true}},
        {"for": "z", "in": [1, 2], "do": [{"let": "w", "call": "t", "args": {"x": {"+": [100, "$x", "$z"]}}}, {"yield": "$w"}], "let": "inner"},
        {"yield": {"$merge": [{"y": "$y"}, {"inner": "$inner"}]}}]}]}`;
    const answer = ({ x }) => {
      if (x === 7) throw new Error("seven");
      return x * 10;
    };
    const input = { xs: range(12) };
    const sequential = await rt.runWorkflow(source, {
      input,
      maxConcurrency: 1,
      tools: { t: counting(randomDelay, answer) },
    });
    expect(sequential.ok).toBe(true);
    for (const max of [2, 8]) {
      const t = counting(randomDelay, answer);
      const parallel = await rt.runWorkflow(source, { input, maxConcurrency: max, tools: { t } });
      expect(parallel).toMatchObject({ ok: true, result: sequential.result });
      expect(t.maxInFlight).toBe(max);
    }
  });

  test("trace: true returns each call with its path, args, outcome, duration and result size", async () => {
    const t = async ({ x }) => {
      if (x === 2) throw new Error("two is down");
      return { x };
    };
    const program = pipe(literal([0, 1, 2]), {
      op: "map",
      as: "x",
      expr: { op: "try", expr: call("t", { x: v("x") }), catch: null },
    });
    const r = await rt.run(program, { trace: true, tools: { t } });
    expect(r.ok).toBe(true);
    expect(r.trace.map(({ durationMs: _, startMs: __, ...rest }) => rest)).toEqual([
      { id: 1, tool: "t", path: "/program/steps/1/expr/expr", args: { x: 0 }, outcome: "value", resultSize: 7 },
      { id: 2, tool: "t", path: "/program/steps/1/expr/expr", args: { x: 1 }, outcome: "value", resultSize: 7 },
      {
        id: 3,
        tool: "t",
        path: "/program/steps/1/expr/expr",
        args: { x: 2 },
        outcome: "failure",
        error: "two is down",
      },
    ]);
    for (const entry of r.trace) expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    for (const entry of r.trace) expect(entry.startMs).toBeGreaterThanOrEqual(0);
    const untraced = await rt.run(program, { tools: { t } });
    expect(untraced.trace).toBeUndefined();
  });

  test("trace comes with a failed run too", async () => {
    const r = await rt.run(mapCalls([0]), { trace: true, tools: { t: () => Promise.reject(new Error("no")) } });
    expect(r.ok).toBe(false);
    expect(r.trace).toMatchObject([{ id: 1, tool: "t", outcome: "failure", error: "no" }]);
  });
});

describe("options are checked", () => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime();
  });

  test.each([
    ["maxConcurrency", 0, "must be a positive integer of at most 1024, got 0"],
    ["maxConcurrency", 1.5, "must be a positive integer of at most 1024, got 1.5"],
    ["maxConcurrency", 2000, "must be a positive integer of at most 1024, got 2000"],
    ["maxToolCalls", -1, "must be a positive integer of at most 1073741824, got -1"],
    ["toolTimeoutMs", "5", "must be a positive number of at most 2147483647, got a string"],
    ["trace", 1, "must be true or false"],
  ])("options.%s = %p is a TypeError", async (name, value, message) => {
    await expect(rt.run({ program: 1 }, { [name]: value })).rejects.toThrow(`ptc-wasm: options.${name} ${message}`);
  });

  test("runWorkflow checks them too", async () => {
    await expect(rt.runWorkflow("", { maxToolCalls: 0 })).rejects.toThrow("options.maxToolCalls must be");
    await expect(rt.runWorkflow("", { toolTimeoutMs: -5 })).rejects.toThrow("options.toolTimeoutMs must be");
  });
});
