// Runs every case of tests/conformance/*.json through the npm package (the
// same files the native GoogleTest suite runs through the C++ engine).
// A test is named "file › case name"; a failure starts with the case's file:line.
const fs = require("node:fs");
const {
  ptcWasm,
  checkExpectation,
  mockTools,
  corpusOptions,
  caseLines,
  loadCaseFiles,
  atCase,
} = require("./helpers.cjs");

const files = loadCaseFiles("tests/conformance");

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

async function runCase(c, calls) {
  const program = "source" in c ? c.source : c.program;
  // A case whose mock tools declare results (returnsSchema) validates with them.
  const declared = Object.values(c.tools ?? {}).some((mock) => mock.returnsSchema);
  if (c.validateOnly)
    return ptc.validate(program, { ...(c.options ?? {}), ...(declared ? { tools: mockTools(c.tools, calls) } : {}) });
  const controller = new AbortController();
  return ptc.run(program, {
    ...corpusOptions(c),
    context: c.context ?? {},
    memory: c.memory ?? {},
    tools: mockTools(c.tools, calls, controller),
    signal: controller.signal,
  });
}

for (const { file, path, cases } of files) {
  describe(file, () => {
    for (const c of cases) {
      test(c.name, () =>
        atCase(path, c, async () => {
          // Twice on the one runtime: the second run finds its program compiled
          // (the package's prepared programs, the engine's cache by text), and
          // must answer as the first did, which compiled it.
          for (const round of ["compiled", "cached"]) {
            const calls = [];
            const result = await runCase(c, calls);
            try {
              checkExpectation(c.expect, result, calls);
            } catch (e) {
              e.message = `(${round} run) ${e.message}`;
              throw e;
            }
          }
        }),
      );
    }
  });
}

test("the conformance files hold enough cases to mean something", () => {
  const total = files.reduce((n, f) => n + f.cases.length, 0);
  expect(total).toBeGreaterThan(100);
});

describe("case files (both dialects)", () => {
  const all = [...files, ...loadCaseFiles("tests/conformance-workflows")];

  test("a case name is unique within its file (it names the test: file › case name)", () => {
    const repeated = all.flatMap(({ path, cases }) =>
      cases.filter((c, i) => cases.findIndex((d) => d.name === c.name) !== i).map((c) => `${path}: ${c.name}`),
    );
    expect(repeated).toEqual([]);
  });

  test("every case knows the line of its opening brace", () => {
    const lost = all.flatMap(({ path, cases }) => {
      const lines = fs.readFileSync(`${__dirname}/../../${path}`, "utf8").split("\n");
      return cases
        .filter((c) => !(c.line > 0) || !lines[c.line - 1].trimStart().startsWith("{"))
        .map((c) => `${path}: ${c.name}`);
    });
    expect(lost).toEqual([]);
  });

  test("case lines skip braces and brackets in strings, escaped quotes and nesting", () => {
    const text = `{"area": "x", "note": "a [note] with {braces} and \\"cases\\"",
  "cases": [
    {"name": "one", "program": {"steps": [{"a": [1, {"b": 2}]}]}},
    {"name": "two \\" [", "expect": {"result": ["{"]}}, {"name": "three"}
  ],
  "after": [{"x": 1}]
}`;
    expect(JSON.parse(text).cases).toHaveLength(3);
    expect(caseLines(text)).toEqual([3, 4, 4]);
  });
});
