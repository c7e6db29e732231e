// The workflow shapes of issue 36 in PTC-JSON, through the package: for_each
// (items one after another, stopping early) and retry, in runs that suspend at
// every call (`suspend: true`) and resume from their JSON state. A resumed run
// must give what an uninterrupted run gives; for_each must never have two
// items' calls out at once, even where map would fan them out.
const { ptcWasm } = require("./helpers.cjs");

const viaJson = (value) => JSON.parse(JSON.stringify(value));
const call = (tool, args) => ({ op: "call", tool, ...(args ? { args } : {}) });

// Reserve each item in order until one is declined.
const reserveAll = {
  program: {
    op: "pipe",
    steps: [
      { op: "literal", value: ["a", "b", "c", "d"] },
      {
        op: "for_each",
        as: "sku",
        expr: call("reserve", { sku: "$sku" }),
        until: { op: "eq", field: "status", value: "declined" },
      },
    ],
  },
};
const reserve = ({ sku }) => ({ sku, status: sku === "c" ? "declined" : "ok" });

// Charge once, trying a flaky gateway again on a timeout.
const chargeOnce = {
  program: {
    op: "retry",
    expr: call("charge", { key: "order-7" }),
    max: 3,
    when: { op: "contains", field: "message", value: "timeout" },
  },
};

let rt;
beforeAll(async () => {
  rt = await ptcWasm.createRuntime();
});
afterAll(() => rt.close());

test("for_each suspends at one call at a time, in item order, and resumes to the uninterrupted result", async () => {
  const straight = await rt.run(reserveAll, { tools: { reserve }, maxConcurrency: 8 });
  expect(straight).toMatchObject({
    ok: true,
    result: [reserve({ sku: "a" }), reserve({ sku: "b" }), reserve({ sku: "c" })],
  });

  let r = await rt.run(reserveAll, { tools: { reserve }, suspend: true, maxConcurrency: 8 });
  const seen = [];
  while (r.status === "suspended") {
    expect(r.pending).toHaveLength(1); // never two items' calls out at once
    const [p] = r.pending;
    seen.push(p.args.sku);
    r = await rt.resume(viaJson(r.state), {
      results: { [p.id]: { value: reserve(p.args) } },
      suspend: true,
      tools: { reserve },
    });
  }
  expect(seen).toEqual(["a", "b", "c"]); // d is never asked for: until stopped at c
  expect(r).toMatchObject({ ok: true, result: straight.result });
});

test("map over the same items suspends with every call out at once (the contrast for_each exists for)", async () => {
  const program = viaJson(reserveAll);
  program.program.steps[1] = { op: "map", as: "sku", expr: call("reserve", { sku: "$sku" }) };
  const r = await rt.run(program, { tools: { reserve }, suspend: true, maxConcurrency: 8 });
  expect(r.status).toBe("suspended");
  expect(r.pending.map((p) => p.args.sku)).toEqual(["a", "b", "c", "d"]);
});

test("retry resumes across suspended tries: a failed answer is tried again, a success ends it", async () => {
  let r = await rt.run(chargeOnce, { tools: { charge: () => "unused" }, suspend: true });
  const answers = [{ error: "gateway timeout" }, { error: "gateway timeout" }, { value: { charged: true } }];
  let tries = 0;
  while (r.status === "suspended") {
    expect(r.pending).toHaveLength(1);
    const results = { [r.pending[0].id]: answers[tries++] };
    r = await rt.resume(viaJson(r.state), { results, suspend: true, tools: { charge: () => "unused" } });
  }
  expect(tries).toBe(3);
  expect(r).toMatchObject({ ok: true, result: { charged: true } });
});

test("retry gives up with the last error naming the tries, and when stops at an error it does not accept", async () => {
  let r = await rt.run(chargeOnce, { tools: { charge: () => "unused" }, suspend: true });
  const results = { [r.pending[0].id]: { error: "card declined" } };
  r = await rt.resume(viaJson(r.state), { results, suspend: true, tools: { charge: () => "unused" } });
  expect(r).toMatchObject({ ok: false, error: { type: "execution_error", code: "tool_failed" } });
  expect(r.error.message).toContain("card declined (retry: failed try 1 of 3; its `when` did not try again)");

  let flaky = 0;
  const exhausted = await rt.run(chargeOnce, {
    tools: {
      charge: () => {
        flaky++;
        throw new Error("gateway timeout");
      },
    },
  });
  expect(flaky).toBe(3);
  expect(exhausted.error.message).toContain("(retry: failed 3 of 3 tries)");
});
