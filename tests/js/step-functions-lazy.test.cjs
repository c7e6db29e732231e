// createRuntime({ stepFunctions: "lazy" }), a page's default (issue 38 item 3):
// the engine without the step-function dialect (ptc-json.wasm) before the first
// run, the module with both dialects (ptc.wasm) read when a step-function file
// first runs (or on runtime.preload()). The synchronous step-function methods
// cannot wait for it: until then each says to await runtime.preload().
// tests/browser/lazy-loading.test.mjs checks what a page fetches.
const path = require("node:path");

/** The package afresh: each compiles its modules once per copy. */
function freshPackage() {
  let pkg;
  jest.isolateModules(() => {
    pkg = require(path.join(__dirname, "../../dist/node.cjs"));
  });
  return pkg;
}

const { program, rows, workflow } = require("./helpers.cjs").dialectFixtures;
const lazyRefusal = /loads the step-function dialect on first use.*await runtime\.preload\(\)/;

test.each([false, true])(
  "worker %s, lazy: ptc.wasm is read only when a step-function file first runs",
  async (worker) => {
    const read = jest.spyOn(require("node:fs"), "readFileSync");
    const wasmRead = () =>
      read.mock.calls.map(([file]) => path.basename(String(file))).filter((f) => f.endsWith(".wasm"));
    const ptc = await freshPackage().createRuntime({ stepFunctions: "lazy", worker });
    try {
      expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 7 });
      expect(wasmRead()).toEqual(["ptc-json.wasm"]);
      // The synchronous entry points cannot wait for it: each says how to.
      expect(ptc.validateWorkflow(workflow)).toMatchObject({ ok: false, error: { code: "bad_host_call" } });
      expect(ptc.validateWorkflow(workflow).error.message).toMatch(lazyRefusal);
      expect(ptc.analyzeWorkflow(workflow).error.message).toMatch(lazyRefusal);
      expect(() => ptc.workflowLanguage()).toThrow(lazyRefusal);
      expect(wasmRead()).not.toContain("ptc.wasm");

      const input = JSON.stringify({
        function: "main",
        input: { n: "number" },
        output: "number",
        steps: [{ return: "$input.n" }],
      });
      expect(await ptc.runWorkflow(input, { input: { n: 5 } })).toMatchObject({ ok: true, result: 5 });
      expect(wasmRead().filter((f) => f === "ptc.wasm")).toHaveLength(1);
      expect(ptc.validateWorkflow(workflow)).toEqual({ ok: true });
      expect(ptc.workflowLanguage().steps.length).toBeGreaterThan(0);
      // Programs keep running on the PTC-JSON engine, resident data included.
      const loaded = await ptc.load({ rows });
      expect(await ptc.run(program, { resident: loaded.resident })).toMatchObject({ ok: true, result: 7 });
      expect(await ptc.runWorkflow(workflow)).toMatchObject({ ok: true, result: 1 });
    } finally {
      read.mockRestore();
      await ptc.close?.();
    }
  },
);

test("lazy: preload() makes the synchronous step-function methods answer before any run", async () => {
  const ptc = await freshPackage().createRuntime({ stepFunctions: "lazy" });
  await ptc.preload();
  expect(ptc.validateWorkflow(workflow)).toEqual({ ok: true });
  expect(ptc.workflowPrompt()).toContain("function");
  expect(ptc.describeLanguage()).toBeTruthy();
});
