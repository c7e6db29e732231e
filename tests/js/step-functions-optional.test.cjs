// createRuntime({ stepFunctions: false }): the engine without the step-function
// dialect (dist/ptc-json.wasm, CMakeLists.txt's ptc_json), the smaller download
// for a page that runs PTC-JSON programs only (issue 38 item 3). Programs run
// as on the default engine, in-process and in a worker; every step-function
// entry point says, as a typed error or a thrown Error, that this engine has no
// step functions and how to get them; the default runtime is unchanged.
const fs = require("node:fs");
const path = require("node:path");
const { gzipSync } = require("node:zlib");
const { ptcWasm, dialectFixtures } = require("./helpers.cjs");

const dist = path.join(__dirname, "../../dist");
const { program, rows, workflow } = dialectFixtures;
const noDialect = /PTC-JSON only.*stepFunctions: false.*ptc\.wasm/;

test("dist/ptc-json.wasm is the smaller download: at least 30 KB gzip less than ptc.wasm", () => {
  const gz = (f) => gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length;
  expect(gz("ptc.wasm") - gz("ptc-json.wasm")).toBeGreaterThan(30_000);
});

test.each([false, true])("worker %s: programs run as on the default engine", async (worker) => {
  const ptc = await ptcWasm.createRuntime({ stepFunctions: false, worker });
  try {
    const r = await ptc.run(program, { context: { rows } });
    expect(r).toMatchObject({ ok: true, result: 7 });
    expect(ptc.validate(program)).toEqual({ ok: true });
    expect(ptc.operations().some((op) => op.name === "group_by")).toBe(true);
    expect(ptc.prompt()).toContain("group_by");
  } finally {
    await ptc.close?.();
  }
});

test.each([false, true])("worker %s: step-function files answer a typed error naming the fix", async (worker) => {
  const ptc = await ptcWasm.createRuntime({ stepFunctions: false, worker });
  try {
    const run = await ptc.runWorkflow(workflow);
    expect(run.ok).toBe(false);
    expect(run.error).toMatchObject({ type: "execution_error", code: "bad_host_call" });
    expect(run.error.message).toMatch(noDialect);
    const valid = ptc.validateWorkflow(workflow);
    expect(valid.ok).toBe(false);
    expect(valid.error.message).toMatch(noDialect);
    expect(ptc.analyzeWorkflow(workflow).ok).toBe(false);
    for (const f of [() => ptc.workflowLanguage(), () => ptc.workflowPrompt(), () => ptc.workflowSchema()])
      expect(f).toThrow(noDialect);
    // The runtime stays usable.
    expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 7 });
  } finally {
    await ptc.close?.();
  }
});

test("the default runtime, and stepFunctions: true, run step-function files", async () => {
  for (const options of [{}, { stepFunctions: true }]) {
    const ptc = await ptcWasm.createRuntime(options);
    expect(await ptc.runWorkflow(workflow)).toMatchObject({ ok: true, result: 1 });
    expect(ptc.workflowLanguage().steps.length).toBeGreaterThan(0);
  }
});

test("stepFunctions is checked", async () => {
  await expect(ptcWasm.createRuntime({ stepFunctions: "no" })).rejects.toThrow(
    /stepFunctions must be true, false or "lazy", got no/,
  );
});
