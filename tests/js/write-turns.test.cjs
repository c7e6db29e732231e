// Calls of write tools never overlap, also once toolTimeoutMs abandoned one
// (issue 24 item 13): the call fails and the run goes on, but the next write
// starts only when the abandoned tool has really ended, within the run's
// timeoutMs. In-process and in worker mode (the gate is on the caller's side).
const { ptcWasm, sleep } = require("./helpers.cjs");

const tryCall = (n) => ({
  op: "try",
  expr: { op: "call", tool: "save", args: { n } },
  catch: { op: "var", name: "error", field: "message" },
});

/** A write tool that logs when each call starts and ends; `lasts(n)` is how long call n takes (Infinity: never ends). */
function recorder(lasts) {
  const log = [];
  let running = 0;
  let most = 0;
  const save = {
    effect: "write",
    execute: async ({ n }) => {
      log.push(`start ${n}`);
      most = Math.max(most, ++running);
      const ms = lasts(n);
      await (ms === Infinity ? new Promise(() => {}) : sleep(ms));
      running--;
      log.push(`end ${n}`);
      return `saved ${n}`;
    },
  };
  return { save, log, most: () => most };
}

describe.each([
  ["in-process", {}],
  ["worker", { worker: true }],
])("%s", (_mode, options) => {
  let ptc;
  beforeAll(async () => {
    ptc = await ptcWasm.createRuntime(options);
  });
  afterAll(() => ptc.close?.());

  test("a write abandoned at toolTimeoutMs keeps the next write waiting until it has really ended", async () => {
    // The first save takes 150 ms, three times toolTimeoutMs; the others answer at once.
    const w = recorder((n) => (n === 1 ? 150 : 0));
    const program = { program: { op: "list", items: [1, 2, 3].map(tryCall) } };
    const r = await ptc.run(program, { tools: { save: w.save }, toolTimeoutMs: 50, timeoutMs: 5000 });
    expect(r.ok).toBe(true);
    expect(r.result).toEqual([
      "Tool 'save' failed: no answer within 50 ms (toolTimeoutMs), so the call at /program/items/0/expr was abandoned",
      "saved 2",
      "saved 3",
    ]);
    expect(w.log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
    expect(w.most()).toBe(1);
  });

  test("a write that never ends: the next one waits to the run's deadline and is never made", async () => {
    const w = recorder((n) => (n === 1 ? Infinity : 0));
    const program = { program: { op: "list", items: [1, 2].map(tryCall) } };
    const r = await ptc.run(program, {
      tools: { save: w.save },
      toolTimeoutMs: 50,
      timeoutMs: 300,
      maxConcurrency: 1,
    });
    expect(r).toMatchObject({ ok: false, error: { type: "timeout" } });
    await sleep(50); // a call made late would have started by now
    expect(w.log).toEqual(["start 1"]);
  });
});
