// Runs every case of tests/conformance-workflows/*.json through the npm
// package (the native suite runs the same files through the C++ engine).
const fs = require("node:fs");
const path = require("node:path");
const { ptcWasm, sameJson } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const dir = path.join(root, "tests/conformance-workflows");
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort();

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

function sourceOf(c) {
  if (c.sourceFile) return fs.readFileSync(path.join(root, c.sourceFile), "utf8");
  if ("source" in c) return c.source;
  return c.functions.map((f) => JSON.stringify(f)).join("\n");
}

// Mocks: returns / throws / echo, or a sequence of those (the last repeats).
function mockTools(spec, calls) {
  const tools = {};
  for (const [name, mock] of Object.entries(spec ?? {})) {
    let n = 0;
    tools[name] = async (args) => {
      calls.push({ tool: name, args });
      const step = mock.sequence ? mock.sequence[Math.min(n++, mock.sequence.length - 1)] : mock;
      if ("throws" in step) throw new Error(step.throws);
      if (step.echo) return args;
      return step.returns;
    };
  }
  return tools;
}

function check(c, got, calls) {
  const want = c.expect;
  const shown = JSON.stringify(got).slice(0, 2000);
  if ("toolCalls" in want && !sameJson(calls, want.toolCalls)) expect(calls).toEqual(want.toolCalls);
  if (want.error) {
    expect({ ok: got.ok, shown }).toEqual({ ok: false, shown });
    expect(got.error.type).toBe(want.error.type);
    if ("path" in want.error) expect(got.error.path ?? null).toBe(want.error.path);
    if ("position" in want.error) expect(got.error.position).toBe(want.error.position);
    if ("message" in want.error) expect(got.error.message).toContain(want.error.message);
  } else {
    expect({ ok: got.ok, shown }).toEqual({ ok: true, shown });
  }
  if ("result" in want && !sameJson(got.result, want.result)) expect(got.result).toEqual(want.result);
  if (want.trace) {
    expect(got.trace.length).toBe(want.trace.length);
    want.trace.forEach((entry, i) => {
      for (const [key, value] of Object.entries(entry))
        if (!sameJson(got.trace[i][key], value)) expect({ i, key, value: got.trace[i][key] }).toEqual({ i, key, value });
    });
  }
}

for (const file of files) {
  const { cases } = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  describe(file, () => {
    for (const c of cases) {
      test(c.name, async () => {
        const calls = [];
        const tools = mockTools(c.tools, calls);
        const got = c.validateOnly
          ? ptc.validateWorkflow(sourceOf(c), { tools, entry: c.entry, input: c.input })
          : await ptc.runWorkflow(sourceOf(c), { ...(c.options ?? {}), entry: c.entry, input: c.input ?? {}, tools });
        check(c, got, calls);
      });
    }
  });
}
