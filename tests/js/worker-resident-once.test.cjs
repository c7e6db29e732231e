// Data held once in worker mode (issue 37 point 4; js/src/runtimes/worker-core.ts):
// once a resident context is loaded, the worker packs its JSON text (gzip) and
// drops it, and the runtime on the caller's thread drops its own text on
// receiving the packed copy. What the text was for still works: a fresh engine
// instance (after a trap) and a fresh worker (after a recycle) get the data
// back, and a suspended run's context fingerprint is the same as before.
// The renderer's memory is measured in tests/browser/resident-memory.test.mjs.
const { ptcWasm } = require("./helpers.cjs");

const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, region: i % 2 ? "north" : "south", amount: i }));
const data = { rows, label: 'a "label", with {braces} and [brackets]', empty: {} };
const sumNorth = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "rows" },
      { op: "filter", where: { op: "eq", field: "region", value: "north" } },
      { op: "sum", field: "amount" },
    ],
  },
};
const NORTH = rows.filter((r) => r.region === "north").reduce((s, r) => s + r.amount, 0);

/** Resolves true once the runtime holds no text of the resident data (the packed copy arrived). */
async function dropped(resident) {
  for (let i = 0; i < 400 && resident.spec.text !== ""; i++) await new Promise((r) => setTimeout(r, 25));
  return resident.spec.text === "";
}

test("after a load in worker mode the runtime keeps no text of the data; runs read it as before", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true });
  try {
    const { resident } = await rt.load(data);
    expect(await dropped(resident)).toBe(true);
    expect(await rt.run(sumNorth, { resident })).toMatchObject({ ok: true, result: NORTH });
    expect(await rt.run({ program: { op: "load", name: "label" } }, { resident })).toMatchObject({
      result: data.label,
    });
  } finally {
    rt.close();
  }
});

test("a fresh engine instance in the worker (after a trap) unpacks the data", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true });
  try {
    const { resident } = await rt.load(data);
    expect(await dropped(resident)).toBe(true);
    rt.trapForTesting();
    expect(await rt.run(sumNorth, { resident })).toMatchObject({ ok: true, result: NORTH });
    expect(await rt.run(sumNorth, { resident })).toMatchObject({ ok: true, result: NORTH });
  } finally {
    rt.close();
  }
});

test("a fresh worker (after a recycle) is sent the packed copy and runs on it", async () => {
  const MiB = 2 ** 20;
  const rt = await ptcWasm.createRuntime({ worker: true, recycleEngineBytes: 8 * MiB });
  try {
    const { resident } = await rt.load(data);
    expect(await dropped(resident)).toBe(true);
    // A group_by of 100k rows into 100k groups grows the engine past 8 MiB: its worker is ended after it.
    const many = Array.from({ length: 100000 }, (_, i) => ({ id: i }));
    const grow = {
      program: { op: "pipe", steps: [{ op: "load", name: "many" }, { op: "group_by", field: "id" }, { op: "count" }] },
    };
    const patient = { maxHeapBytes: 256 * MiB, timeoutMs: 600000 };
    expect(await rt.run(grow, { context: { many }, ...patient })).toMatchObject({ ok: true, result: 100000 });
    expect(await rt.workerEngineBytesForTesting()).toBe(0); // no worker: it was ended
    expect(await rt.run(sumNorth, { resident, ...patient })).toMatchObject({ ok: true, result: NORTH });
    expect(rt.workersStartedForTesting).toBe(2);
  } finally {
    rt.close();
  }
});

test("a run suspended over packed data resumes with the same data given as its own context (same fingerprint)", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true });
  try {
    const { resident } = await rt.load(data);
    expect(await dropped(resident)).toBe(true);
    const program = {
      program: {
        op: "let",
        name: "n",
        value: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "count" }] },
        in: { op: "call", tool: "echo", args: { n: { op: "var", name: "n" }, label: { op: "load", name: "label" } } },
      },
    };
    const tools = { echo: (args) => args };
    const held = await rt.run(program, { resident, tools, suspend: true });
    expect(held.status).toBe("suspended");
    const results = { [held.pending[0].id]: { value: "answered" } };
    expect(await rt.resume(held.state, { results, resident, tools })).toMatchObject({ ok: true, result: "answered" });
    expect(await rt.resume(held.state, { results, context: data, tools })).toMatchObject({
      ok: true,
      result: "answered",
    });
    const changed = { ...data, label: "another" };
    expect(await rt.resume(held.state, { results, context: changed, tools })).toMatchObject({
      ok: false,
      error: { code: "bad_resume" },
    });
  } finally {
    rt.close();
  }
});

test("data closed right after a run that uses it is submitted: the run still reads it, then it is freed", async () => {
  // Once packed, the worker holds no text of the data: a close handled while the
  // run is in flight must leave the context in the engine until the run ends
  // (the engine could not load it again from text).
  const rt = await ptcWasm.createRuntime({ worker: true });
  try {
    for (let i = 0; i < 5; i++) {
      const { resident } = await rt.load(data);
      expect(await dropped(resident)).toBe(true);
      const running = rt.run(sumNorth, { resident });
      resident.close();
      expect(await running).toMatchObject({ ok: true, result: NORTH });
    }
    expect(await rt.residentBytesForTesting()).toBe(0);
  } finally {
    rt.close();
  }
});
