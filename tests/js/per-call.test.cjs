// What a warm tiny run pays at the boundary (issue 38 item 1): counted, not
// timed. A program run again on the same runtime is prepared once; each run is
// then one plain wasm export (ptcRunPrepared), its input written into a buffer
// the instance keeps (no malloc and free around it), and no Embind call
// (Embind's invoker costs about a microsecond).
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

test("a warm run crosses the boundary once: ptcRunPrepared alone, no malloc, free or Embind call", async () => {
  const ptc = await ptcWasm.createRuntime();
  expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 5 }); // prepares
  const calls = countCalls(ptc.engine.m);
  for (let i = 0; i < 20; i++) expect(await ptc.run(program, { context: { rows } })).toMatchObject({ result: 5 });
  expect(calls).toEqual({ _ptcRunPrepared: 20 });
});

test("the kept input buffer grows for a bigger input, and a huge one gets a buffer of its own", async () => {
  const ptc = await ptcWasm.createRuntime();
  const echo = JSON.stringify({ program: { op: "load", name: "text" } });
  for (const size of [10, 5000, 70_000, 5000, 200_000, 10]) {
    const text = "é".repeat(size); // not ASCII: written a second time, encoded
    const r = await ptc.run(echo, { context: { text } });
    expect(r.ok && r.result === text).toBe(true);
  }
  expect(await ptc.liveEngineRunsForTesting()).toBe(0);
});

test("a warm run reads the clock four times in JavaScript and once in the engine", async () => {
  const ptc = await ptcWasm.createRuntime();
  await ptc.run(program, { context: { rows } });
  const now = performance.now;
  let readings = 0;
  performance.now = function () {
    readings++;
    return now.call(this);
  };
  try {
    for (let i = 0; i < 20; i++) await ptc.run(program, { context: { rows } });
  } finally {
    performance.now = now;
  }
  // Its start, its payload's start and end (which is also when the engine is
  // handed the run: the time spent before counts toward its limit), its
  // duration; the engine's deadline (performance.now in wasm).
  expect(readings / 20).toBe(5);
});

test("a run that calls no tool settles within one microtask turn", async () => {
  const ptc = await ptcWasm.createRuntime();
  await ptc.run(program, { context: { rows } });
  let settled = false;
  const running = ptc.run(program, { context: { rows } }).then(() => (settled = true));
  await null;
  expect(settled).toBe(true);
  await running;
});

test("a warm run with a scalar result neither decodes nor parses its status: the engine hands the result over", async () => {
  const ptc = await ptcWasm.createRuntime();
  const scalars = [
    [program, { rows }, 5],
    ['{"program": {"op": "literal", "value": -0.0}}', {}, -0],
    [JSON.stringify({ program: { op: "literal", value: 0.1 } }), {}, 0.1],
    ['{"program": {"op": "literal", "value": 9007199254740993}}', {}, 2 ** 53], // rounded as JSON.parse rounds it
    [JSON.stringify({ program: { op: "literal", value: null } }), {}, null],
    [JSON.stringify({ program: { op: "gt", value: 1 } }), {}, undefined], // an error: read from the text
    [JSON.stringify({ program: { op: "literal", value: true } }), {}, true],
    [JSON.stringify({ program: { op: "literal", value: false } }), {}, false],
  ];
  const first = [];
  for (const [text, context] of scalars) first.push(await ptc.run(text, { context })); // prepares
  const decode = TextDecoder.prototype.decode;
  const parse = JSON.parse;
  let decodes = 0;
  let parses = 0;
  TextDecoder.prototype.decode = function (...args) {
    decodes++;
    return decode.apply(this, args);
  };
  JSON.parse = (...args) => {
    parses++;
    return parse(...args);
  };
  const again = [];
  try {
    for (const [text, context] of scalars) if (text !== scalars[5][0]) again.push(await ptc.run(text, { context }));
  } finally {
    TextDecoder.prototype.decode = decode;
    JSON.parse = parse;
  }
  expect({ decodes, parses }).toEqual({ decodes: 0, parses: 0 });
  expect(first[5]).toMatchObject({ ok: false, error: { type: "execution_error" } });
  const read = scalars.filter((_, i) => i !== 5);
  expect(again.map((r) => r.result)).toEqual(read.map(([, , result]) => result));
  expect(Object.is(again[1].result, -0)).toBe(true);
  // Run after run the same results, to the metrics (tests/cpp/conformance_test.cpp checks them against the text).
  const strip = ({ metrics: { durationMs: _d, payloadMs: _p, toolMs: _t, ...metrics }, ...rest }) => ({
    ...rest,
    metrics,
  });
  expect(again.map(strip)).toEqual(first.filter((_, i) => i !== 5).map(strip));
});

test("a run whose status the engine hands over as a scalar writes no status text (the same metrics)", async () => {
  const ptc = await ptcWasm.createRuntime();
  const first = await ptc.run(program, { context: { rows } });
  const m = ptc.engine.m;
  const textLength = () => m.HEAPU32[(m._ptcStatusSlot() >>> 2) + 1]; // StatusSlot's length (wasm/bindings.cpp)
  const again = await ptc.run(program, { context: { rows } });
  expect(again).toMatchObject({ ok: true, result: 5 });
  expect(textLength()).toBe(0);
  expect(again.metrics.memoryBytes).toBe(first.metrics.memoryBytes);
  // A scalar result with a warning (a misspelt field) says more: its status is written.
  const warned = await ptc.run(program, { context: { rows: [{ category: "travel", amont: 1 }] } });
  expect(warned).toMatchObject({ ok: true, result: 0, warnings: [{ code: "field_not_found" }] });
  expect(textLength()).toBeGreaterThan(0);
});
