// Runs every case of tests/conformance/*.json through the npm package (the
// same files the native GoogleTest suite runs through the C++ engine).
const fs = require("node:fs");
const path = require("node:path");
const { ptcWasm, checkExpectation, mockTools } = require("./helpers.cjs");

const dir = path.join(__dirname, "../conformance");
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort();

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

async function runCase(c, calls) {
  const program = "source" in c ? c.source : c.program;
  if (c.validateOnly) return ptc.validate(program, c.options ?? {});
  const controller = new AbortController();
  return ptc.run(program, {
    ...(c.options ?? {}),
    context: c.context ?? {},
    memory: c.memory ?? {},
    tools: mockTools(c.tools, calls, controller),
    signal: controller.signal,
  });
}

for (const file of files) {
  const { cases } = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  describe(file, () => {
    for (const c of cases) {
      test(c.name, async () => {
        const calls = [];
        checkExpectation(c.expect, await runCase(c, calls), calls);
      });
    }
  });
}

test("the conformance files hold enough cases to mean something", () => {
  const total = files.reduce((n, f) => n + JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).cases.length, 0);
  expect(total).toBeGreaterThan(100);
});
