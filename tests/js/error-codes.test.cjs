// Error codes in the built package: it exports the source's table (whose
// checks against the engine and the corpus need no build: tests/source/error-codes.test.cjs),
// and the wrapper's own errors carry their codes.
const { ptcWasm } = require("./helpers.cjs");
const { loadTypeScript } = require("../source/sources.cjs");

const { ERROR_CODES } = ptcWasm;

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

test("the package exports the table of js/src/types/error-codes.ts", () => {
  expect(ERROR_CODES).toEqual(loadTypeScript("js/src/types/error-codes.ts").ERROR_CODES);
});

test("the package's own errors carry codes: data it cannot send, no program", async () => {
  const cyclic = { program: { op: "literal", value: 1 } };
  cyclic.program.self = cyclic;
  expect((await ptc.run(cyclic)).error).toMatchObject({ type: "parse_error", code: "not_json" });
  const big = await ptc.run({ program: { op: "load", name: "x" } }, { context: { x: 10n } });
  expect(big.error).toMatchObject({ type: "execution_error", code: "not_json" });
  expect((await ptc.run(undefined)).error).toMatchObject({ type: "parse_error", code: "missing_program" });
  const workflow = await ptc.runWorkflow(
    '{"function": "f", "input": {"x": "number"}, "output": "number", "steps": [{"return": "$input.x"}]}',
    {
      input: { x: 1n },
    },
  );
  expect(workflow.error).toMatchObject({ code: "not_json" });
});

test("an aborted run's error is aborted, from the wrapper as from the engine", async () => {
  const controller = new AbortController();
  controller.abort("stop");
  const r = await ptc.run({ program: { op: "literal", value: 1 } }, { signal: controller.signal });
  expect(r.error).toMatchObject({ type: "execution_error", code: "aborted" });
});
