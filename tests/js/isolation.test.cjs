// One bad run must not take others down, in either mode: a value nested too
// deep is a typed error before it can make the engine trap; a trap fails only
// what it must; an abort or a runaway costs a worker restart only when the
// worker is stuck computing it; and an idle worker runtime lets Node exit.
const { spawnSync } = require("node:child_process");
const path = require("node:path");
const { ptcWasm, sleep } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const pipe = (...steps) => ({ program: { op: "pipe", steps } });
const call = (tool, args) => ({ op: "call", tool, ...(args ? { args } : {}) });
/** A program that wraps 1 in `levels` objects, one step each: {"a": {"a": ... 1}}. */
const wrapped = (levels) =>
  pipe(
    { op: "literal", value: 1 },
    ...Array.from({ length: levels }, () => ({ op: "object", fields: { a: { op: "get", path: [] } } })),
  );
const nestedValue = (levels) => {
  let v = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};
const TOO_DEEP = /more than 1000 levels deep/;

/** A tool that waits until released, and a promise of its first `n` calls having started. */
function gate(n) {
  let open;
  const opened = new Promise((resolve) => (open = resolve));
  let started = 0;
  let allStarted;
  const reached = new Promise((resolve) => (allStarted = resolve));
  const tool = async ({ i }) => {
    if (++started === n) allStarted();
    await opened;
    return i;
  };
  return { tool, reached, open };
}

const modes = [
  ["in-process", (options) => ptcWasm.createRuntime(options)],
  ["worker", (options) => ptcWasm.createRuntime({ worker: true, ...options })],
];

describe.each(modes)("%s", (_mode, create) => {
  let rt;
  beforeAll(async () => {
    rt = await create();
  });
  afterAll(() => rt.close());

  test("a 2,000-step program (the review's 20,000 steps are over the 1 MiB program limit) building a value too deep gets a typed error; a run waiting on a tool is unaffected", async () => {
    const g = gate(1);
    const bystander = rt.run(pipe(call("wait", { i: 7 }), { op: "add", left: { op: "get", path: [] }, right: 1 }), {
      tools: { wait: g.tool },
      timeoutMs: 20000,
    });
    await g.reached;
    // The typed error, not the 10 s timeout it used to be in worker mode (no bound on wall time).
    const r = await rt.run(wrapped(2000), { timeoutMs: 10000 });
    expect(r.error).toMatchObject({
      type: "execution_error",
      path: "/program/steps/1001",
      message: expect.stringMatching(TOO_DEEP),
    });
    g.open();
    expect(await bystander).toMatchObject({ ok: true, result: 8 });
    expect(rt.activeRuns).toBe(0);
  });

  test("results and tool args nested to the limit cross whole; one level more fails the same way in both modes", async () => {
    const deepest = await rt.run(wrapped(1000));
    expect(deepest.ok).toBe(true);
    expect(deepest.result).toEqual(nestedValue(1000));

    let seen;
    const echo = (args) => ((seen = args), args);
    // The args object is the one level more around a value nested 999 deep.
    const r = await rt.run(
      pipe(wrapped(999).program, call("echo", { x: { op: "get", path: [] } }), { op: "get", path: ["x"] }),
      { tools: { echo } },
    );
    expect(r.ok).toBe(true);
    expect(seen).toEqual({ x: nestedValue(999) });
    expect(r.result).toEqual(nestedValue(999));

    const tooDeep = await rt.run(pipe(wrapped(1000).program, call("echo", { x: { op: "get", path: [] } })), {
      tools: { echo },
    });
    expect(tooDeep.error).toMatchObject({
      type: "execution_error",
      path: "/program/steps/1",
      message: expect.stringMatching(TOO_DEEP),
    });
    expect((await rt.run(wrapped(2000))).error).toMatchObject({ type: "execution_error", path: "/program/steps/1001" });
  });

  test("JSON nested past the limit is a typed error naming it, wherever it comes from", async () => {
    const hostile = `{"program": {"op": "literal", "value": ${"[".repeat(100000)}${"]".repeat(100000)}}}`;
    expect((await rt.run(hostile)).error).toMatchObject({
      type: "parse_error",
      message: "JSON nested deeper than 1000 levels in program",
    });
    const deep = nestedValue(2000);
    const load = { program: { op: "load", name: "v" } };
    expect((await rt.run(load, { context: { v: deep } })).error).toMatchObject({
      type: "parse_error",
      message: "JSON nested deeper than 1000 levels in context",
    });
    expect((await rt.run(load, { memory: { v: deep } })).error).toMatchObject({
      type: "parse_error",
      message: "JSON nested deeper than 1000 levels in memory",
    });
    expect((await rt.run({ program: call("deep") }, { tools: { deep: () => deep } })).error).toMatchObject({
      type: "execution_error",
      message:
        "Tool 'deep' returned data the engine cannot read: JSON nested deeper than 1000 levels in the result of tool 'deep'",
    });
    const source = JSON.stringify({ function: "f", input: { v: "any" }, output: "number", steps: [{ return: 1 }] });
    expect((await rt.runWorkflow(source, { input: { v: deep } })).error).toMatchObject({
      type: "parse_error",
      message: "JSON nested deeper than 1000 levels in input",
    });
    expect((await rt.run({ program: { op: "literal", value: 1 } })).result).toBe(1);
  });

  test("after a trap, runs waiting on a tool fail saying their progress is lost; a run not yet in the engine runs on a fresh instance", async () => {
    const g = gate(3);
    const tools = { wait: g.tool };
    const waiting = [1, 2, 3].map((i) =>
      rt.run({ program: { op: "add", left: call("wait", { i }), right: 10 } }, { tools }),
    );
    await g.reached;
    // The engine traps while this run's context is turned into JSON: the run
    // has not entered the instance yet, so it starts over on a fresh one.
    let traps = 0;
    const trapOnce = {
      toJSON() {
        if (traps++ === 0) {
          try {
            rt.trapForTesting();
          } catch {
            // in-process, the trap surfaces here
          }
        }
        return [1, 2, 3];
      },
    };
    const restarted = await rt.run(pipe({ op: "load", name: "xs" }, { op: "sum" }), { context: { xs: trapOnce } });
    expect(restarted).toMatchObject({ ok: true, result: 6 });
    expect(traps).toBe(2);
    g.open();
    for (const r of await Promise.all(waiting)) {
      expect(r.error.type).toBe("execution_error");
      expect(r.error.code).toBe("engine_crashed");
      expect(r.error.message).toContain("while this run waited on a tool");
      expect(r.error.message).toContain("its 1 tool call has already run");
      expect(r.error.message).toContain("run the program again");
    }
    expect((await rt.run({ program: { op: "add", left: 1, right: 2 } })).result).toBe(3);
    expect(rt.activeRuns).toBe(0);
  });

  test("after a trap, a step-function run waiting on a tool fails the same way", async () => {
    // One instance for both dialects, the one trapForTesting traps (by default
    // step-function files run on an instance of their own, loaded on first use).
    const rt = await create({ stepFunctions: true });
    const g = gate(1);
    const source = JSON.stringify({
      function: "f",
      output: "number",
      steps: [{ let: "x", call: "wait", args: { i: 1 } }, { return: "$x" }],
    });
    const waiting = rt.runWorkflow(source, { tools: { wait: g.tool } });
    await g.reached;
    try {
      rt.trapForTesting();
    } catch {
      // in-process, the trap surfaces here
    }
    await sleep(20); // worker mode: the trap message reaches the worker
    g.open();
    const r = await waiting;
    expect(r.error).toMatchObject({
      type: "execution_error",
      message: expect.stringContaining("its progress is lost"),
    });
    expect((await rt.runWorkflow(source, { tools: { wait: async ({ i }) => i } })).result).toBe(1);
    rt.close();
  });
});

describe("worker mode: aborts and restarts", () => {
  let w;
  beforeAll(async () => {
    w = await ptcWasm.createRuntime({ worker: true });
  });
  afterAll(() => w.close());

  // map over 6,000 rows whose expression filters the same 6,000 rows: ~36M evaluations.
  // 30000 x 30000 comparisons: far past every limit below, however fast the engine gets.
  const rows = Array.from({ length: 30000 }, (_, i) => i);
  // The filter is inside `and`, which the planner (engine/ptc_json/planner.h) leaves alone: every pair is compared.
  const runaway = pipe(
    { op: "load", name: "rows" },
    {
      op: "map",
      expr: {
        op: "pipe",
        steps: [
          { op: "load", name: "rows" },
          { op: "filter", where: { op: "and", conditions: [{ op: "gt", value: 3 }] } },
          { op: "count" },
        ],
      },
    },
  );

  test("aborting a run that is not waiting on a tool leaves the worker and 10 concurrent runs alone", async () => {
    const tools = { echo: async ({ i }) => (await sleep(5 + (i % 4) * 5), i) };
    const runs = Array.from({ length: 10 }, (_, i) =>
      w.run(pipe(call("echo", { i }), { op: "mul", left: { op: "get", path: [] }, right: 2 }), { tools }),
    );
    const worker = w.port;
    const controller = new AbortController();
    const aborted = w.run({ program: { op: "literal", value: "never seen" } }, { signal: controller.signal });
    controller.abort(new Error("changed my mind"));
    expect((await aborted).error).toMatchObject({
      type: "execution_error",
      message: expect.stringContaining("changed my mind"),
    });
    expect((await Promise.all(runs)).map((r) => r.result)).toEqual(Array.from({ length: 10 }, (_, i) => i * 2));
    expect(w.port).toBe(worker); // not restarted
    expect(w.activeRuns).toBe(0);
  });

  test("a run queued behind a long computation times out at its own deadline, without a worker restart", async () => {
    const long = w.run(runaway, { context: { rows }, timeoutMs: 1500 }); // the engine stops it at 1.5 s
    await sleep(50);
    const worker = w.port;
    const queued = await w.run({ program: { op: "literal", value: "late" } }, { timeoutMs: 300 });
    expect(queued.error?.type).toBe("timeout"); // its time in the queue counted
    expect((await long).error?.type).toBe("timeout");
    expect(w.port).toBe(worker);
    expect((await w.run({ program: { op: "literal", value: "next" } })).result).toBe("next");
  });

  test("aborting a run the worker keeps computing restarts it: runs that called no tool start again, the others fail saying why", async () => {
    const g = gate(5);
    const calling = Array.from({ length: 5 }, (_, i) =>
      w.run({ program: call("wait", { i }) }, { tools: { wait: g.tool } }),
    );
    await g.reached;
    const controller = new AbortController();
    const computing = w.run(runaway, { context: { rows }, timeoutMs: 20000, signal: controller.signal });
    await sleep(50); // the worker is computing the runaway
    const queued = Array.from({ length: 5 }, (_, i) => w.run({ program: { op: "add", left: i, right: 100 } }));
    await sleep(20);
    controller.abort(new Error("stop"));
    expect((await computing).error).toMatchObject({
      type: "execution_error",
      message: expect.stringContaining("stop"),
    });
    // Queued behind the runaway, they had called no tool: they ran on the fresh worker.
    expect((await Promise.all(queued)).map((r) => r.result)).toEqual([100, 101, 102, 103, 104]);
    for (const r of await Promise.all(calling)) {
      expect(r.error.type).toBe("execution_error");
      expect(r.error.message).toContain(
        "was restarted (another run on it was aborted while computing and did not stop)",
      );
      expect(r.error.message).toContain("had already called 1 tool, so it was not started again");
    }
    g.open();
    expect((await w.run({ program: { op: "literal", value: "alive" } })).result).toBe("alive");
    expect(w.activeRuns).toBe(0);
  });
});

test("a script that never closes its worker runtime exits by itself", () => {
  const script = `
    const { createRuntime } = require(${JSON.stringify(path.join(root, "dist/node.cjs"))});
    (async () => {
      const rt = await createRuntime({ worker: true });
      const r = await rt.run({ program: { op: "add", left: { op: "call", tool: "two" }, right: 1 } }, { tools: { two: async () => 2 } });
      console.log(JSON.stringify(r.result));
    })();`;
  // Before the fix it never exited: the bound only has to tell "exits" from "hangs".
  const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30000 });
  expect({ status: child.status, signal: child.signal, stdout: child.stdout.trim() }).toEqual({
    status: 0,
    signal: null,
    stdout: "3",
  });
});
