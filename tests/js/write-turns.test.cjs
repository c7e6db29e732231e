// Calls of write tools never overlap, also once toolTimeoutMs abandoned one
// (issue 24 item 13). A write abandoned while it runs may have completed (issue
// 33 point 3): it is not a failure a `try` may catch and retry, but the run's
// end (write_unconfirmed), and the writes waiting their turn are never made.
// In-process and in worker mode (the gate is on the caller's side).
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

  test("a write abandoned at toolTimeoutMs ends the run as may have completed; the writes after it are never made", async () => {
    // The first save takes 150 ms, three times toolTimeoutMs; the others would answer at once.
    const w = recorder((n) => (n === 1 ? 150 : 0));
    const program = { program: { op: "list", items: [1, 2, 3].map(tryCall) } };
    const r = await ptc.run(program, { tools: { save: w.save }, toolTimeoutMs: 50, timeoutMs: 5000 });
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ code: "write_unconfirmed", path: "/program/items/0/expr" });
    expect(r.error.message).toContain("may have completed");
    await sleep(300); // the abandoned save ends in its own time; a write made late would have started by now
    expect(w.log).toEqual(["start 1", "end 1"]);
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
    expect(r).toMatchObject({ ok: false, error: { code: "write_unconfirmed" } });
    await sleep(50); // a call made late would have started by now
    expect(w.log).toEqual(["start 1"]);
  });
});
