// Runs every case of tests/conformance-workflows/*.json through the npm
// package (the native suite runs the same files through the C++ engine).
// A test is named "file › case name"; a failure starts with the case's file:line.
const fs = require("node:fs");
const path = require("node:path");
const { ptcWasm, checkExpectation, mockTools, corpusOptions, loadCaseFiles, atCase } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const files = loadCaseFiles("tests/conformance-workflows");

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

function sourceOf(c) {
  if (c.sourceFile) return fs.readFileSync(path.join(root, c.sourceFile), "utf8");
  if ("source" in c) return c.source;
  return c.functions.map((f) => JSON.stringify(f)).join("\n");
}

for (const { file, path: filePath, cases } of files) {
  describe(file, () => {
    for (const c of cases) {
      test(c.name, () =>
        atCase(filePath, c, async () => {
          const calls = [];
          const controller = new AbortController();
          const tools = mockTools(c.tools, calls, controller);
          const { signal } = controller;
          const got = c.validateOnly
            ? ptc.validateWorkflow(sourceOf(c), { tools, entry: c.entry, input: c.input })
            : await ptc.runWorkflow(sourceOf(c), {
                ...corpusOptions(c),
                entry: c.entry,
                input: c.input ?? {},
                tools,
                signal,
              });
          checkExpectation(c.expect, got, calls);
        }),
      );
    }
  });
}
