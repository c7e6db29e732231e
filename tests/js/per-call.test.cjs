// What a warm tiny run pays at the boundary (issue 38 item 1): counted, not
// timed. A program run again on the same runtime is prepared once; each run is
// then one plain wasm export (ptcRunPrepared) between a malloc and a free of its
// input buffer, and no Embind call (Embind's invoker costs about a microsecond).
const { ptcWasm } = require("./helpers.cjs");

const program = JSON.stringify({
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "rows" },
      { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
      { op: "sum", field: "amount" },
    ],
  },
});
const rows = [
  { category: "travel", amount: 5 },
  { category: "food", amount: 3 },
];

/** Counts the calls into the instance's module functions (Embind functions and plain exports) by name. */
function countCalls(module) {
  const calls = {};
  for (const [name, value] of Object.entries(module)) {
    if (typeof value !== "function" || name === "HEAPU8") continue;
    module[name] = function (...args) {
      calls[name] = (calls[name] ?? 0) + 1;
      return value.apply(this, args);
    };
  }
  return calls;
}

test("a warm run crosses the boundary once: ptcRunPrepared, with malloc and free, and no Embind call", async () => {
  const ptc = await ptcWasm.createRuntime();
  expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 5 }); // prepares
  const calls = countCalls(ptc.engine.m);
  for (let i = 0; i < 20; i++) expect(await ptc.run(program, { context: { rows } })).toMatchObject({ result: 5 });
  expect(calls).toEqual({ _malloc: 20, _ptcRunPrepared: 20, _free: 20 });
});
