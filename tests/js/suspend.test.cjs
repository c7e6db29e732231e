// Runs that wait and ask first (issue 16 items 2, 3, 5), in both modes:
// suspending at held calls (approvals, deferred tools, `suspend: true`),
// resuming from a JSON state on a fresh runtime, effects (write tools one at a
// time), the journal and replay. A resumed run must give what an uninterrupted
// run gives.
const { ptcWasm, sleep } = require("./helpers.cjs");

const pipe = (...steps) => ({ program: { op: "pipe", steps } });
const call = (tool, args) => ({ op: "call", tool, ...(args ? { args } : {}) });
const v = (name) => ({ op: "var", name });
const literal = (value) => ({ op: "literal", value });
const range = (n) => Array.from({ length: n }, (_, i) => i + 1);
const viaJson = (value) => JSON.parse(JSON.stringify(value));

// Refund each order over a threshold; a denied or failed refund is caught.
const refunds = pipe(
  { op: "load", name: "orders" },
  {
    op: "map",
    as: "o",
    expr: {
      op: "try",
      expr: call("refund", { id: { op: "get", field: "id" }, amount: { op: "get", field: "amount" } }),
      catch: { op: "object", fields: { id: { op: "get", field: "id" }, error: v("error") } },
    },
  },
);
const orders = [
  { id: "a", amount: 5 },
  { id: "b", amount: 500 },
  { id: "c", amount: 20 },
  { id: "d", amount: 900 },
];

function refundTool(approval) {
  const tool = {
    effect: "write",
    approval,
    executed: [],
    execute: async ({ id, amount }) => {
      tool.executed.push(id);
      await sleep(1);
      return { id, refunded: amount };
    },
  };
  return tool;
}

describe.each([
  ["in-process", {}],
  ["worker", { worker: true }],
])("%s", (_mode, createOptions) => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime(createOptions);
  });
  afterAll(() => rt.close());

  test("a call needing approval suspends the run with the call shown; resuming on a fresh runtime from JSON gives the uninterrupted result", async () => {
    const tool = refundTool(({ amount }) => amount > 100);
    const r = await rt.run(refunds, { context: { orders }, tools: { refund: tool } });
    expect(r).toMatchObject({ ok: false, status: "suspended", error: { type: "execution_error", code: "suspended" } });
    expect(r.pending).toEqual([
      {
        id: expect.any(String),
        tool: "refund",
        path: "/program/steps/1/expr/expr",
        args: { id: "b", amount: 500 },
        reason: "approval",
      },
      {
        id: expect.any(String),
        tool: "refund",
        path: "/program/steps/1/expr/expr",
        args: { id: "d", amount: 900 },
        reason: "approval",
      },
    ]);
    expect(tool.executed.sort()).toEqual(["a", "c"]); // the calls needing no approval ran
    expect(r.error.message).toContain("suspended at 2 tool calls");

    const state = viaJson(r.state);
    expect(state).toMatchObject({ format: "ptc-wasm/suspended-run@1", version: require("../../package.json").version });
    const fresh = await ptcWasm.createRuntime(createOptions);
    try {
      const again = refundTool(({ amount }) => amount > 100);
      const results = Object.fromEntries(r.pending.map((p) => [p.id, { approved: true }]));
      const resumed = await fresh.resume(state, { results, tools: { refund: again }, context: { orders } });
      expect(again.executed.sort()).toEqual(["b", "d"]); // earlier calls are answered from the journal
      const straight = await rt.run(refunds, { context: { orders }, tools: { refund: refundTool(false) } });
      expect(resumed).toMatchObject({ ok: true, result: straight.result });
      expect(resumed.metrics.toolCalls).toBe(4);
    } finally {
      fresh.close();
    }
  });

  test("a denial resumes as a tool failure that try catches, with the reason in the message", async () => {
    const r = await rt.run(refunds, {
      context: { orders },
      tools: { refund: refundTool(({ amount }) => amount > 100) },
    });
    const [b, d] = r.pending;
    const tool = refundTool(true);
    const resumed = await rt.resume(viaJson(r.state), {
      results: { [b.id]: { approved: false, reason: "over the limit" }, [d.id]: { approved: true } },
      tools: { refund: tool },
      context: { orders },
    });
    expect(resumed.ok).toBe(true);
    expect(resumed.result[1]).toEqual({
      id: "b",
      error: expect.objectContaining({ message: "Tool 'refund' failed: the call was denied: over the limit" }),
    });
    expect(resumed.result[3]).toEqual({ id: "d", refunded: 900 });
    expect(tool.executed).toEqual(["d"]); // approval: true asks again only for calls not decided
  });

  test("a pending call left without a result suspends the run again; each resume only adds", async () => {
    const tool = refundTool(true);
    let r = await rt.run(refunds, { context: { orders }, tools: { refund: tool } });
    const decided = [];
    while (r.status === "suspended") {
      expect(r.pending.length).toBeGreaterThan(0);
      const first = r.pending[0]; // one decision per resume
      decided.push(first.args.id);
      r = await rt.resume(viaJson(r.state), {
        results: { [first.id]: { value: { id: first.args.id, refunded: -1 } } },
        tools: { refund: tool },
        context: { orders },
      });
    }
    expect(r.ok).toBe(true);
    expect(decided.sort()).toEqual(["a", "b", "c", "d"]);
    expect(r.result.map((x) => x.refunded)).toEqual([-1, -1, -1, -1]);
    expect(tool.executed).toEqual([]); // the host gave every value
  });

  test("suspend: true stops at every call; the host runs the tools and resumes with values, then the run calls on", async () => {
    const program = pipe(
      literal(["x", "y"]),
      { op: "map", as: "k", expr: call("lookup", { k: v("k") }) },
      { op: "let", name: "found", value: { op: "get", path: [] }, in: call("summarise", { items: v("found") }) },
    );
    const host = { lookup: ({ k }) => k.toUpperCase(), summarise: ({ items }) => items.join("+") };
    let r = await rt.run(program, { suspend: true, tools: { lookup: () => 0, summarise: () => 0 } });
    let rounds = 0;
    while (r.status === "suspended") {
      rounds++;
      const results = Object.fromEntries(r.pending.map((p) => [p.id, { value: host[p.tool](p.args) }]));
      expect(r.pending.every((p) => p.reason === "suspend")).toBe(true);
      r = await rt.resume(viaJson(r.state), { results, suspend: true, tools: { lookup: () => 0, summarise: () => 0 } });
    }
    expect(r).toMatchObject({ ok: true, result: "X+Y" });
    expect(rounds).toBe(2); // both lookups at once (they fan out), then the summary
  });

  test("a deferred tool (no execute) suspends at each call; approving one is refused as it has nothing to run", async () => {
    const program = pipe(literal([1]), {
      op: "map",
      as: "n",
      expr: { op: "try", expr: call("ask_human", { n: v("n") }), catch: literal("no") },
    });
    const tools = { ask_human: { description: "a person answers", defer: true } };
    const r = await rt.run(program, { tools });
    expect(r.pending).toEqual([expect.objectContaining({ tool: "ask_human", reason: "deferred", args: { n: 1 } })]);
    const approved = await rt.resume(viaJson(r.state), { results: { [r.pending[0].id]: { approved: true } }, tools });
    expect(approved).toMatchObject({ ok: true, result: ["no"] });
    const answered = await rt.resume(viaJson(r.state), { results: { [r.pending[0].id]: { value: "yes" } }, tools });
    expect(answered).toMatchObject({ ok: true, result: ["yes"] });
  });

  test("100 runs suspended at once all resume, each to its own answer", async () => {
    const program = pipe(
      { op: "load", name: "n" },
      { op: "let", name: "n", value: { op: "get", path: [] }, in: call("double", { n: v("n") }) },
    );
    const tools = { double: { defer: true } };
    const suspended = await Promise.all(range(100).map((n) => rt.run(program, { context: { n }, tools })));
    expect(suspended.every((r) => r.status === "suspended")).toBe(true);
    const states = suspended.map((r) => JSON.stringify(r.state));
    const resumed = await Promise.all(
      suspended.map((r, i) =>
        rt.resume(JSON.parse(states[i]), {
          results: { [r.pending[0].id]: { value: r.pending[0].args.n * 2 } },
          tools,
          context: { n: i + 1 },
        }),
      ),
    );
    expect(resumed.map((r) => r.result)).toEqual(range(100).map((n) => n * 2));
    expect(rt.activeRuns).toBe(0);
    expect(await rt.liveEngineRunsForTesting()).toBe(0);
  });

  test("a state that does not fit is refused with a clear error, never a wrong answer", async () => {
    const r = await rt.run(refunds, { context: { orders }, tools: { refund: refundTool(true) } });
    const tools = { refund: refundTool(false) };
    const id = r.pending[0].id;
    const changedProgram = viaJson(r.state);
    changedProgram.source = changedProgram.source.replace('"amount"', '"total"');
    const cases = [
      [changedProgram, {}, "bad_state", "the program was changed"],
      [{ ...viaJson(r.state), version: "0.0.1" }, {}, "bad_state", "written by ptc-wasm 0.0.1"],
      [{ ...viaJson(r.state), format: "x" }, {}, "bad_state", "format"],
      ["not a state", {}, "bad_state", "not an object"],
      [viaJson(r.state), { results: { "call-999": { value: 1 } } }, "bad_resume", "names no pending call"],
      [viaJson(r.state), { results: { [id]: { approved: "yes" } } }, "bad_resume", "must be { value }"],
      [viaJson(r.state), { results: { [id]: { value: 1n } } }, "bad_resume", "not JSON data"],
      [viaJson(r.state), { results: { [id]: { value: 1, error: "x" } } }, "bad_resume", "got keys {error,value}"],
    ];
    for (const [state, extra, code, message] of cases) {
      const got = await rt.resume(state, { tools, context: { orders }, ...extra });
      expect({ code, got: got.error }).toEqual({
        code,
        got: expect.objectContaining({ code, type: "execution_error", message: expect.stringContaining(message) }),
      });
    }
    const otherContext = await rt.resume(viaJson(r.state), { tools, context: { orders: orders.slice(1) } });
    expect(otherContext.error).toMatchObject({
      code: "bad_resume",
      message: expect.stringContaining("context differs"),
    });
    await expect(rt.resume(viaJson(r.state), { results: [] })).rejects.toThrow("options.results must be an object");
  });

  test("write tools never run at the same time as each other; reads still fan out", async () => {
    let writes = 0;
    let mostWrites = 0;
    let reads = 0;
    let mostReads = 0;
    const tracked =
      (kind) =>
      async ({ x }) => {
        if (kind === "write") mostWrites = Math.max(mostWrites, ++writes);
        else mostReads = Math.max(mostReads, ++reads);
        await sleep(Math.floor(Math.random() * 8) + 2);
        if (kind === "write") writes--;
        else reads--;
        return x * 10;
      };
    const program = pipe(literal(range(10)), {
      op: "map",
      as: "x",
      expr: { op: "list", items: [call("save", { x: v("x") }), call("look", { x: v("x") })] },
    });
    const tools = {
      save: { effect: "write", execute: tracked("write") },
      look: { effect: "read", execute: tracked("read") },
    };
    const r = await rt.run(program, { tools, maxConcurrency: 8 });
    expect(r.result).toEqual(range(10).map((x) => [x * 10, x * 10]));
    expect(mostWrites).toBe(1);
    expect(mostReads).toBeGreaterThan(1);
  });

  test("journal: true records every answered call; replaying it answers the same program without its tools", async () => {
    const failing = async ({ id }) => {
      if (id === "c") throw new Error("gateway down");
      return { id, ok: true };
    };
    const live = await rt.run(refunds, { context: { orders }, tools: { refund: failing }, journal: true });
    expect(live.journal).toHaveLength(4);
    expect(live.journal).toContainEqual({
      tool: "refund",
      path: "/program/steps/1/expr/expr",
      args: { id: "c", amount: 20 },
      error: "gateway down",
    });
    const ran = [];
    const spy = async (args) => ran.push(args);
    const replayed = await rt.run(refunds, {
      context: { orders },
      replay: viaJson(live.journal),
      tools: { refund: spy },
    });
    expect(replayed).toMatchObject({ ok: true, result: live.result });
    expect(ran).toEqual([]);
  });

  test("the trace says when each call started and who answered a call no tool ran", async () => {
    const slow = async ({ x }) => (await sleep(20), x);
    const fanOut = pipe(literal([1, 2, 3]), { op: "map", as: "x", expr: call("slow", { x: v("x") }) });
    const live = await rt.run(fanOut, { tools: { slow }, trace: true, journal: true });
    const starts = live.trace.map((e) => e.startMs);
    expect(Math.max(...starts)).toBeLessThan(Math.min(...live.trace.map((e) => e.startMs + e.durationMs))); // they overlap
    expect(live.trace.every((e) => e.answeredBy === undefined)).toBe(true);
    const replayed = await rt.run(fanOut, { replay: live.journal, trace: true });
    expect(replayed.trace.map((e) => e.answeredBy)).toEqual(["recording", "recording", "recording"]);
    const held = await rt.run(refunds, { context: { orders }, tools: { refund: refundTool(true) }, trace: true });
    const resumed = await rt.resume(viaJson(held.state), {
      results: Object.fromEntries(held.pending.map((p) => [p.id, { approved: false }])),
      tools: { refund: refundTool(true) },
      context: { orders },
      trace: true,
    });
    expect(resumed.trace.map((e) => e.answeredBy)).toEqual(["host", "host", "host", "host"]);
  });

  test("a replayed program that asks what the recording does not hold ends with replay_missing at the call", async () => {
    const live = await rt.run(refunds, { context: { orders }, tools: { refund: async ({ id }) => id }, journal: true });
    // Another program over the same recording: it asks for amount 501, which was never asked.
    const other = viaJson(refunds);
    other.program.steps[1].expr.expr.args.amount = { op: "add", left: { op: "get", field: "amount" }, right: 1 };
    const r = await rt.run(other, { context: { orders }, replay: live.journal });
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({
      type: "execution_error",
      code: "replay_missing",
      path: "/program/steps/1/expr/expr",
    });
    expect(r.error.message).toContain(`with args {"id":"a","amount":6}`);
    // Fewer questions than recorded is fine: the first two orders only.
    const fewer = await rt.run(refunds, { context: { orders: orders.slice(0, 2) }, replay: live.journal });
    expect(fewer).toMatchObject({ ok: true, result: ["a", "b"] });
  });

  test("options of the new features are checked like every option", async () => {
    await expect(rt.run(refunds, { replay: [{ tool: "x" }] })).rejects.toThrow("options.replay must be a journal");
    await expect(rt.run(refunds, { suspend: 1 })).rejects.toThrow("options.suspend must be true or false");
    await expect(rt.run(refunds, { tools: { refund: { effect: "writes", execute: () => 1 } } })).rejects.toThrow(
      `options.tools entry 'refund' has effect "writes": it must be "read" or "write"`,
    );
  });

  test("an approval check that throws fails the call (caught by try), and the run goes on", async () => {
    const tools = {
      refund: {
        approval: () => {
          throw new Error("policy service down");
        },
        execute: () => 1,
      },
    };
    const r = await rt.run(refunds, { context: { orders: orders.slice(0, 1) }, tools });
    expect(r.ok).toBe(true);
    expect(r.result[0].error.message).toContain("its approval check threw (policy service down), so it was not run");
  });

  test("an approval check that never answers is bounded by the run's time limit and its signal", async () => {
    const tools = { refund: { approval: () => new Promise(() => {}), execute: () => 1 } };
    const timedOut = await rt.run(refunds, { context: { orders }, tools, timeoutMs: 100 });
    expect(timedOut.error).toMatchObject({ type: "timeout" });
    const controller = new AbortController();
    const approval = () => (controller.abort(new Error("user left")), new Promise(() => {})); // aborted while it is pending
    const aborted = await rt.run(refunds, {
      context: { orders },
      tools: { refund: { approval, execute: () => 1 } },
      signal: controller.signal,
    });
    expect(aborted.error).toMatchObject({ code: "aborted", message: expect.stringContaining("user left") });
  });

  test("step functions suspend and resume too; a denial reaches on-error", async () => {
    const source = JSON.stringify({
      function: "main",
      input: { ids: "list number" },
      output: "any",
      steps: [
        { let: "held", call: "reserve", args: { n: "$input.ids" } },
        {
          let: "paid",
          call: "charge",
          args: { r: "$held" },
          "on-error": { compensate: [{ call: "release", args: { r: "$held" } }], return: "not charged" },
        },
        { return: "$paid" },
      ],
    });
    const released = [];
    const tools = {
      reserve: { effect: "write", execute: async ({ n }) => n.length },
      charge: { effect: "write", approval: true, execute: async () => "charged" },
      release: { effect: "write", execute: async ({ r }) => released.push(r) },
    };
    const r = await rt.runWorkflow(source, { input: { ids: [1, 2] }, tools });
    expect(r).toMatchObject({ status: "suspended", pending: [{ tool: "charge", path: "/0/steps/1", args: { r: 2 } }] });
    expect(r.trace.map((e) => [e.path, e.outcome])).toEqual([
      ["/0/steps/0", "value"],
      ["/0/steps/1", "suspended"],
    ]);
    const approved = await rt.resume(viaJson(r.state), { results: { [r.pending[0].id]: { approved: true } }, tools });
    expect(approved).toMatchObject({ ok: true, result: "charged" });
    const denied = await rt.resume(viaJson(r.state), { results: { [r.pending[0].id]: { approved: false } }, tools });
    expect(denied).toMatchObject({ ok: true, result: "not charged" });
    expect(released).toEqual([2]);
  });
});

describe("effects before running", () => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime();
  });

  const tools = {
    reserve: { effect: "write", execute: () => 1 },
    charge: { effect: "write", approval: true, execute: () => 1 },
    lookup: { effect: "read", execute: () => 1 },
    notify: () => 1,
    ask: { defer: true },
  };

  test("analyze reports each tool's effect, approval and deferral", () => {
    const a = rt.analyze(pipe(call("lookup"), call("charge"), call("ask"), call("notify")), { tools });
    expect(a.ok).toBe(true);
    const byName = Object.fromEntries(a.analysis.tools.map((t) => [t.name, t]));
    expect(byName.charge).toMatchObject({ effect: "write", approval: true });
    expect(byName.lookup.effect).toBe("read");
    expect(byName.notify.effect).toBe("read");
    expect(byName.ask).toMatchObject({ effect: "read", deferred: true });
    expect(rt.analyze(pipe(call("lookup")), { tools: ["lookup"] }).analysis.tools[0].effect).toBeUndefined();
  });

  test("validateWorkflow warns of each write step that a later step may leave standing", () => {
    const source = JSON.stringify({
      function: "main",
      output: "any",
      steps: [
        { let: "r", call: "reserve" },
        { call: "charge", "on-error": { compensate: [{ call: "reserve" }], return: 0 } },
        { call: "lookup" },
        { return: 1 },
      ],
    });
    const v1 = rt.validateWorkflow(source, { tools });
    expect(v1.ok).toBe(true);
    expect(v1.warnings.map((w) => [w.code, w.path, w.tool])).toEqual([
      ["write_not_compensated", "/0/steps/0", "reserve"],
      ["write_not_compensated", "/0/steps/1", "charge"],
    ]);
    expect(v1.warnings[0].message).toContain("the call at /0/steps/2 may fail after it without rolling anything back");
    // Reads need no compensation; with the lookup guarded, nothing is left to warn of.
    const guarded = source.replace(
      '{"call":"lookup"}',
      '{"call":"lookup","on-error":{"compensate":[{"call":"reserve"}],"return":0}}',
    );
    expect(rt.validateWorkflow(guarded, { tools })).toEqual({ ok: true });
    expect(rt.validateWorkflow(source, { tools: Object.keys(tools) })).toEqual({ ok: true }); // names say no effect
  });
});
