// Runs every case of tests/conformance/*.json through the npm package (the
// same files the native GoogleTest suite runs through the C++ engine).
const fs = require("node:fs");
const path = require("node:path");
const { ptcWasm, sameJson } = require("./helpers.cjs");

const dir = path.join(__dirname, "../conformance");
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort();

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

function mockTools(spec, calls) {
  const tools = {};
  for (const [name, mock] of Object.entries(spec ?? {})) {
    tools[name] = async (args) => {
      calls.push({ tool: name, args });
      if ("throws" in mock) throw new Error(mock.throws);
      if (mock.echo) return args;
      return mock.returns;
    };
  }
  return tools;
}

async function runCase(c, calls) {
  const program = "source" in c ? c.source : c.program;
  if (c.validateOnly) return ptc.validate(program, c.options ?? {});
  return ptc.run(program, {
    ...(c.options ?? {}),
    context: c.context ?? {},
    memory: c.memory ?? {},
    tools: mockTools(c.tools, calls),
  });
}

function check(c, got, calls) {
  const want = c.expect;
  const shown = JSON.stringify(got);
  if ("toolCalls" in want && !sameJson(calls, want.toolCalls)) expect(calls).toEqual(want.toolCalls);
  if (want.error) {
    expect({ ok: got.ok, shown }).toEqual({ ok: false, shown });
    expect(got.error.type).toBe(want.error.type);
    if ("path" in want.error) expect(got.error.path ?? null).toBe(want.error.path);
    if ("position" in want.error) expect(got.error.position).toBe(want.error.position);
    if ("message" in want.error) expect(got.error.message).toContain(want.error.message);
    return;
  }
  expect({ ok: got.ok, shown }).toEqual({ ok: true, shown });
  for (const key of ["result", "memoryDelta", "memory"]) {
    if (key in want && !sameJson(got[key], want[key])) expect(got[key]).toEqual(want[key]);
  }
}

for (const file of files) {
  const { cases } = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  describe(file, () => {
    for (const c of cases) {
      test(c.name, async () => {
        const calls = [];
        check(c, await runCase(c, calls), calls);
      });
    }
  });
}

test("the conformance files hold enough cases to mean something", () => {
  const total = files.reduce((n, f) => n + JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).cases.length, 0);
  expect(total).toBeGreaterThan(100);
});
