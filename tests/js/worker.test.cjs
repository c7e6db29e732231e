// Worker mode: the engine in a worker thread, tools on the caller's side, and a
// run that overstays its timeout while computing replaces the worker.
const { ptcWasm, sleep } = require("./helpers.cjs");

const pipe = (...steps) => ({ program: { op: "pipe", steps } });
const call = (tool, args) => ({ op: "call", tool, ...(args ? { args } : {}) });
// map over 6,000 rows whose expression filters the same 6,000 rows: ~36M evaluations.
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
// 30000 x 30000 comparisons: far past every limit below, however fast the engine gets.
const rows = Array.from({ length: 30000 }, (_, i) => i);

let w;
beforeAll(async () => {
  w = await ptcWasm.createRuntime({ worker: true });
});
afterAll(() => w.close());

test("runs a program with async tools that run on the caller's thread", async () => {
  const threadOfTool = [];
  const tools = {
    get: async () => [1, 2, 3],
    double: async ({ n }) => {
      threadOfTool.push(require("node:worker_threads").isMainThread);
      await sleep(2);
      return n * 2;
    },
  };
  const r = await w.run(pipe(call("get"), { op: "map", expr: call("double", { n: { op: "get", path: [] } }) }), {
    tools,
  });
  expect(r).toMatchObject({ ok: true, result: [2, 4, 6], metrics: { toolCalls: 4 } });
  expect(threadOfTool).toEqual([true, true, true]);
});

test("returns the same results and errors as the in-process runtime", async () => {
  const local = await ptcWasm.createRuntime();
  const programs = [
    [
      pipe({ op: "load", name: "xs" }, { op: "filter", where: { op: "gt", value: 1 } }, { op: "sum" }),
      { context: { xs: [1, 2, 3] } },
    ],
    [{ program: { result: 1, kept: { op: "literal", value: [1] } } }, { memory: { a: 1 } }],
    [{ program: { op: "filer" } }, {}],
    ["{bad json", {}],
    [pipe({ op: "literal", value: 1 }, { op: "div", left: 1, right: 0 }), {}],
  ];
  for (const [program, options] of programs) {
    const [a, b] = await Promise.all([w.run(program, options), local.run(program, options)]);
    delete a.metrics;
    delete b.metrics;
    expect(a).toEqual(b);
  }
});

test("validate, formatError and operations work without a run", () => {
  const v = w.validate({ program: { op: "filer" } });
  expect(w.formatError(v.error)).toBe("ValidationError at /program: Unknown operation 'filer'. Did you mean 'filter'?");
  expect(w.operations().map((o) => o.name)).toContain("filter_in");
});

test("a CPU-bound runaway times out and the runtime keeps working", async () => {
  const r = await w.run(runaway, { context: { rows }, timeoutMs: 200 });
  expect(r.error?.type).toBe("timeout");
  expect((await w.run({ program: { op: "add", left: 1, right: 2 } })).result).toBe(3);
});

test("a pending tool at the deadline is abandoned and its late result ignored", async () => {
  let resolveLate;
  const late = new Promise((resolve) => (resolveLate = resolve));
  const r = await w.run({ program: call("slow") }, { timeoutMs: 100, tools: { slow: () => late } });
  expect(r.error?.type).toBe("timeout");
  resolveLate("too late");
  await sleep(10);
  expect(w.activeRuns).toBe(0);
  expect((await w.run({ program: { op: "literal", value: "next" } })).result).toBe("next");
});

test("abort while a tool is pending ends only that run", async () => {
  const controller = new AbortController();
  let calledSoon;
  const bystanderOut = new Promise((resolve) => (calledSoon = resolve));
  const soon = () => (calledSoon(), sleep(30).then(() => "fine"));
  const aborted = w.run(
    { program: call("never") },
    {
      signal: controller.signal,
      timeoutMs: 600000,
      // aborted while it is pending, once the bystander's call is out too
      tools: {
        never: () => (bystanderOut.then(() => controller.abort(new Error("user cancelled"))), new Promise(() => {})),
      },
    },
  );
  const bystander = w.run({ program: call("soon") }, { timeoutMs: 600000, tools: { soon } });
  expect((await aborted).error).toMatchObject({
    type: "execution_error",
    message: expect.stringContaining("user cancelled"),
  });
  expect(await bystander).toMatchObject({ ok: true, result: "fine" });
});

test("abort while the engine computes terminates the worker promptly; the next run works", async () => {
  const controller = new AbortController();
  const running = w.run(runaway, { context: { rows }, timeoutMs: 10000, signal: controller.signal });
  setTimeout(() => controller.abort(new Error("stop now")), 50);
  const r = await running;
  // The abort's message, not the 10 s timeout: the worker was stopped (whatever the machine's speed).
  expect(r.error).toMatchObject({ type: "execution_error", message: expect.stringContaining("stop now") });
  expect((await w.run({ program: { op: "literal", value: "alive" } })).result).toBe("alive");
});

test("step-function files run in the worker too", async () => {
  const source = JSON.stringify({
    function: "double-all",
    input: { xs: "list number" },
    output: "list number",
    steps: [{ for: "x", in: "$input.xs", do: [{ let: "d", call: "double", args: { n: "$x" } }, { yield: "$d" }] }],
  });
  const r = await w.runWorkflow(source, {
    input: { xs: [1, 2] },
    maxConcurrency: 1, // iterations one after another: a trace in step order
    tools: { double: async ({ n }) => n * 2 },
  });
  expect(r).toMatchObject({ ok: true, result: [2, 4] });
  expect(r.trace.map((t) => t.kind)).toEqual(["for", "call", "yield", "call", "yield"]);
});

test("concurrent runs each get their own results", async () => {
  const tools = { echo: async ({ n }) => (await sleep(Math.random() * 10), n) };
  const runs = Array.from({ length: 32 }, (_, n) =>
    w.run(pipe(call("echo", { n }), { op: "mul", left: { op: "get", path: [] }, right: 10 }), { tools }),
  );
  expect((await Promise.all(runs)).map((r) => r.result)).toEqual(Array.from({ length: 32 }, (_, n) => n * 10));
});

test("more distinct programs in flight than the worker keeps prepared all answer right", async () => {
  // The payload of each run crosses threads asynchronously; meanwhile the other
  // runs push its prepared program out of the worker's bounded set.
  const runs = Array.from({ length: 300 }, (_, i) =>
    w.run(
      pipe({ op: "load", name: "xs" }, { op: "take", count: i % 5 }, { op: "count" }, { op: "add", left: i, right: 0 }),
      {
        context: { xs: [1, 2, 3, 4, 5] },
      },
    ),
  );
  expect((await Promise.all(runs)).map((r) => r.result)).toEqual(runs.map((_, i) => i));
});

test("close ends runs in flight with an error and a later run starts a new worker", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true });
  // Close once the run is surely in flight (its tool called), not after a guessed delay:
  // under load the worker may not have started the run within any fixed time.
  let called;
  const toolCalled = new Promise((resolve) => (called = resolve));
  const never = () => (called(), new Promise(() => {}));
  const pending = rt.run({ program: call("never") }, { timeoutMs: 60000, tools: { never } });
  await toolCalled;
  rt.close();
  expect((await pending).error).toMatchObject({ type: "execution_error", message: expect.stringContaining("closed") });
  expect((await rt.run({ program: { op: "literal", value: 7 } })).result).toBe(7);
  rt.close();
});
