// The host's run identity (the `runId` run option), in both modes: a job run
// again from the program with the same runId gives its tools the same
// { runId, callId } per call, so a write tool that dedupes by them writes once;
// a bad runId is a validation_error result, not a throw; a suspended state
// keeps its runId on resume, and resume refuses another.
const { ptcWasm } = require("./helpers.cjs");

const call = (tool, args) => ({ op: "call", tool, ...(args ? { args } : {}) });
const literal = (value) => ({ op: "literal", value });

// Read the orders, then refund each: a read and a write per item.
const refunds = {
  program: {
    op: "pipe",
    steps: [
      call("orders"),
      {
        op: "map",
        as: "o",
        expr: call("refund", { id: { op: "get", field: "id" }, amount: { op: "get", field: "amount" } }),
      },
    ],
  },
};

/** A store of writes keyed by { runId, callId }, as a database's unique key would be. */
function ledger() {
  const done = new Map();
  const seen = [];
  const effects = [];
  const tools = {
    orders: async (_args, { runId, callId }) => {
      seen.push({ tool: "orders", runId, callId });
      return [
        { id: "a", amount: 5 },
        { id: "b", amount: 7 },
      ];
    },
    refund: {
      effect: "write",
      execute: async (args, { runId, callId }) => {
        seen.push({ tool: "refund", runId, callId });
        const key = `${runId} ${callId}`;
        if (!done.has(key)) {
          effects.push(args.id);
          done.set(key, { id: args.id, refunded: args.amount });
        }
        return done.get(key);
      },
    },
  };
  return { tools, seen, effects };
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

  test("two fresh runs with the same runId give each call the same { runId, callId }: a deduping write tool writes once", async () => {
    const { tools, seen, effects } = ledger();
    const first = await rt.run(refunds, { tools, runId: "job-42" });
    const firstSeen = seen.splice(0);
    const again = await rt.run(refunds, { tools, runId: "job-42" });
    expect(first).toMatchObject({ ok: true, result: [{ id: "a" }, { id: "b" }] });
    expect(again.result).toEqual(first.result);
    expect(firstSeen.map((s) => s.runId)).toEqual(["job-42", "job-42", "job-42"]);
    expect(seen).toEqual(firstSeen); // the same ids, call by call
    expect(effects).toEqual(["a", "b"]); // each refund once, though the job ran twice

    // Without runId each run is a new identity, so the same tool writes again.
    await rt.run(refunds, { tools });
    expect(effects).toEqual(["a", "b", "a", "b"]);
  });

  test("an ungated run (no write, approval or deferred tool) uses the host's runId too", async () => {
    const ids = [];
    const tools = { ping: async (_args, { runId, callId }) => (ids.push([runId, callId]), 1) };
    const program = {
      program: { op: "list", items: [call("ping", { n: literal(1) }), call("ping", { n: literal(2) })] },
    };
    const first = await rt.run(program, { tools, runId: "queue/job:7" });
    const firstIds = ids.splice(0);
    await rt.run(program, { tools, runId: "queue/job:7" });
    expect(first).toMatchObject({ ok: true, result: [1, 1] });
    expect(firstIds.map(([runId]) => runId)).toEqual(["queue/job:7", "queue/job:7"]);
    expect(ids.sort()).toEqual(firstIds.sort());
  });

  test("runWorkflow takes runId: step functions' calls carry it, the same on a second run", async () => {
    const { tools, seen, effects } = ledger();
    const source = JSON.stringify({
      function: "main",
      input: {},
      output: "any",
      steps: [
        { let: "orders", call: "orders", args: {} },
        { let: "first", call: "refund", args: { id: "a", amount: 5 } },
        { return: "$first" },
      ],
    });
    const first = await rt.runWorkflow(source, { tools, runId: "wf-1" });
    const firstSeen = seen.splice(0);
    await rt.runWorkflow(source, { tools, runId: "wf-1" });
    expect(first).toMatchObject({ ok: true, result: { id: "a", refunded: 5 } });
    expect(firstSeen.map((s) => s.runId)).toEqual(["wf-1", "wf-1"]);
    expect(seen).toEqual(firstSeen);
    expect(effects).toEqual(["a"]);
  });

  test.each([
    ["empty", "", "is empty"],
    ["too long", "x".repeat(129), "is 129 characters long"],
    ["a space", "job 42", 'holds " " at index 3'],
    ["non-ASCII", "jöb", 'holds "ö" at index 1'],
    ["a control character", "job\n", 'holds "\\n" at index 3'],
    ["not a string", 42, "is a number"],
    ["null", null, "is a null"],
  ])(
    "a runId that is %s is refused with a validation_error naming the option; nothing runs",
    async (_what, runId, said) => {
      const { tools, seen } = ledger();
      const r = await rt.run(refunds, { tools, runId });
      expect(r).toEqual({
        ok: false,
        error: { type: "validation_error", code: "bad_run_id", message: expect.any(String) },
      });
      expect(r.error.message).toContain(`The run option runId ${said}`);
      expect(r.error.message).toContain("1 to 128 characters of printable ASCII");
      const w = await rt.runWorkflow('{"function": "main", "input": {}, "output": "any", "steps": [{"return": 1}]}', {
        runId,
      });
      expect(w).toMatchObject({ ok: false, error: { type: "validation_error", code: "bad_run_id" } });
      expect(seen).toEqual([]);
      // The runtime goes on.
      expect(await rt.run({ program: literal(1) }, { runId: "x".repeat(128) })).toMatchObject({ ok: true, result: 1 });
    },
  );

  test("a suspended state keeps the host's runId; resume keeps it, accepts the same runId and refuses another", async () => {
    const { tools, seen, effects } = ledger();
    tools.refund.approval = ({ amount }) => amount > 6;
    const r = await rt.run(refunds, { tools, runId: "job-9" });
    expect(r).toMatchObject({ status: "suspended", state: { runId: "job-9" }, pending: [{ args: { id: "b" } }] });
    const results = { [r.pending[0].id]: { approved: true } };
    const state = JSON.parse(JSON.stringify(r.state));

    const refused = await rt.resume(state, { results, tools, runId: "job-10" });
    expect(refused).toMatchObject({ ok: false, error: { type: "execution_error", code: "bad_resume" } });
    expect(refused.error.message).toContain('The runId option ("job-10") is not the state\'s ("job-9")');

    const done = await rt.resume(state, { results, tools });
    expect(done).toMatchObject({ ok: true, result: [{ id: "a" }, { id: "b", refunded: 7 }] });
    const same = await rt.resume(state, { results, tools, runId: "job-9" });
    expect(same.result).toEqual(done.result);
    expect(new Set(seen.map((s) => s.runId))).toEqual(new Set(["job-9"]));
    expect(effects).toEqual(["a", "b"]); // resumed twice: the approved refund still once
  });
});
