// Worker mode gives memory back (issue 24, item 15): wasm memory never
// shrinks, so a worker whose engine grew past recycleEngineBytes (beyond its
// resident data) is ended once no run or answer is waiting on it, and the next
// run starts a fresh one. Checked by what the worker reports and how many
// workers the runtime started, never by timing.
const { ptcWasm } = require("./helpers.cjs");

const MiB = 2 ** 20;
// A group_by of 100k rows into 100k groups grows the engine by tens of MiB.
const rows = Array.from({ length: 100000 }, (_, i) => ({ id: i, name: `row ${i}` }));
const grouped = (load) => ({
  program: { op: "pipe", steps: [load, { op: "group_by", field: "id" }, { op: "count" }] },
});
// Limits no loaded machine reaches (a fresh worker's start counts toward a run's time).
const big = { context: { rows }, maxHeapBytes: 256 * MiB, timeoutMs: 600000 };
const small = { program: { op: "literal", value: 1 } };
const patient = { timeoutMs: 600000 };

test("a worker whose engine grew past recycleEngineBytes is ended when its last run ends", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true, recycleEngineBytes: 8 * MiB });
  try {
    expect(await rt.run(grouped({ op: "load", name: "rows" }), big)).toMatchObject({ ok: true, result: 100000 });
    expect(rt.workersStartedForTesting).toBe(1);
    expect(await rt.workerEngineBytesForTesting()).toBe(0); // no worker: it was ended
    expect(await rt.run(small, patient)).toMatchObject({ ok: true, result: 1 });
    expect(rt.workersStartedForTesting).toBe(2);
    expect(await rt.workerEngineBytesForTesting()).toBeLessThan(24 * MiB); // a fresh engine
  } finally {
    rt.close();
  }
});

test("below the threshold (default 256 MiB) the worker and its grown engine are kept for the next run", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true });
  try {
    expect(await rt.run(grouped({ op: "load", name: "rows" }), big)).toMatchObject({ ok: true, result: 100000 });
    expect(await rt.workerEngineBytesForTesting()).toBeGreaterThan(24 * MiB);
    expect(await rt.run(small, patient)).toMatchObject({ ok: true, result: 1 });
    expect(rt.workersStartedForTesting).toBe(1);
  } finally {
    rt.close();
  }
});

test("resident data survives a recycle: the fresh worker is sent it again by the next run that needs it", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true, recycleEngineBytes: 8 * MiB });
  try {
    const loaded = await rt.load({ rows }, { maxResidentBytes: 256 * MiB });
    expect(loaded.ok).toBe(true);
    const options = { resident: loaded.resident, maxHeapBytes: 256 * MiB, timeoutMs: 600000 };
    const program = grouped({ op: "load", name: "rows" });
    expect(await rt.run(program, options)).toMatchObject({ ok: true, result: 100000 });
    expect(await rt.workerEngineBytesForTesting()).toBe(0);
    expect(await rt.run(program, options)).toMatchObject({ ok: true, result: 100000 });
    expect(rt.workersStartedForTesting).toBe(2);
    loaded.resident.close();
    const closed = await rt.run(program, options);
    expect(closed).toMatchObject({ ok: false, error: { code: "resident_closed" } });
  } finally {
    rt.close();
  }
});

test("no run is lost: the recycle waits until the last run on the worker has ended", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true, recycleEngineBytes: 8 * MiB });
  try {
    let answer;
    const waiting = rt.run(
      { program: { op: "call", tool: "later" } },
      { tools: { later: () => new Promise((resolve) => (answer = resolve)) }, timeoutMs: 600000 },
    );
    expect(await rt.run(grouped({ op: "load", name: "rows" }), big)).toMatchObject({ ok: true, result: 100000 });
    expect(await rt.workerEngineBytesForTesting()).toBeGreaterThan(24 * MiB); // kept: a run waits on a tool
    answer("done");
    expect(await waiting).toMatchObject({ ok: true, result: "done" });
    expect(await rt.workerEngineBytesForTesting()).toBe(0); // ended with the last run
    expect(rt.workersStartedForTesting).toBe(1);
  } finally {
    rt.close();
  }
});

test("a recycleEngineBytes that is not a number of bytes is refused", async () => {
  await expect(ptcWasm.createRuntime({ worker: true, recycleEngineBytes: -1 })).rejects.toThrow(
    /recycleEngineBytes must be a number of bytes/,
  );
  await expect(ptcWasm.createRuntime({ recycleEngineBytes: "big" })).rejects.toThrow(/recycleEngineBytes/);
});
