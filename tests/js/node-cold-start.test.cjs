// What a fresh Node process pays before its first run (issue 38 item 2, the
// cold start): importing the package loads no other file and no Node built-in
// module; createRuntime() reads and compiles the PTC-JSON engine
// (ptc-json.wasm) only, and the module with both dialects (ptc.wasm) is read
// when anything first needs step functions, synchronous methods included, so
// every method answers as it did when Node loaded ptc.wasm up front.
// Structure only: bench/run.mjs (W5) times it.
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { program, rows, workflow } = require("./helpers.cjs").dialectFixtures;

const dist = path.join(__dirname, "../../dist");

/** The package afresh: each copy compiles its modules once. */
function freshPackage() {
  let pkg;
  jest.isolateModules(() => {
    pkg = require(path.join(dist, "node.cjs"));
  });
  return pkg;
}

/** The .wasm files read while `fs.readFileSync` is spied on, by name; `fail` can make a read throw. */
function spyWasmReads(fail = () => undefined) {
  const fs = require("node:fs");
  const real = fs.readFileSync;
  const spy = jest.spyOn(fs, "readFileSync").mockImplementation((file, ...rest) => {
    const error = fail(path.basename(String(file)));
    if (error) throw error;
    return real.call(fs, file, ...rest);
  });
  return {
    reads: () => spy.mock.calls.map(([file]) => path.basename(String(file))).filter((f) => f.endsWith(".wasm")),
    restore: () => spy.mockRestore(),
  };
}

const missing = (file) =>
  Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: "ENOENT" });

test.each([false, true])(
  "worker %s, default: ptc-json.wasm before the first run, ptc.wasm when a synchronous method first needs it",
  async (worker) => {
    const spy = spyWasmReads();
    const ptc = await freshPackage().createRuntime({ worker });
    try {
      expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 7 });
      expect(spy.reads()).toEqual(["ptc-json.wasm"]);
      // Synchronous methods of the step-function dialect answer at once, as before.
      expect(ptc.validateWorkflow(workflow)).toEqual({ ok: true });
      expect(spy.reads()).toEqual(["ptc-json.wasm", "ptc.wasm"]);
      expect(ptc.workflowPrompt()).toContain("function");
      expect(ptc.describeLanguage()).toBeTruthy();
      expect(await ptc.runWorkflow(workflow)).toMatchObject({ ok: true, result: 1 });
      // Programs keep running on the PTC-JSON engine; nothing is read twice.
      expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 7 });
      expect(spy.reads()).toEqual(["ptc-json.wasm", "ptc.wasm"]);
    } finally {
      spy.restore();
      await ptc.close?.();
    }
  },
);

test("default: a step-function file's first run loads ptc.wasm itself (no synchronous method before)", async () => {
  const spy = spyWasmReads();
  const ptc = await freshPackage().createRuntime();
  try {
    expect(await ptc.runWorkflow(workflow)).toMatchObject({ ok: true, result: 1 });
    expect(spy.reads()).toEqual(["ptc-json.wasm", "ptc.wasm"]);
  } finally {
    spy.restore();
  }
});

test("default: when ptc.wasm cannot be read, the step-function entry points say so, and work once it can", async () => {
  let broken = true;
  const spy = spyWasmReads((file) => (broken && file === "ptc.wasm" ? missing(file) : undefined));
  const ptc = await freshPackage().createRuntime();
  try {
    expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 7 });
    const refused = ptc.validateWorkflow(workflow);
    expect(refused).toMatchObject({ ok: false, error: { type: "execution_error", code: "bad_host_call" } });
    expect(refused.error.message).toMatch(/ptc\.wasm\) did not load \(.*ENOENT.*\); call validateWorkflow again/);
    expect(() => ptc.workflowLanguage()).toThrow(/ptc\.wasm\) did not load/);
    const run = await ptc.runWorkflow(workflow);
    expect(run).toMatchObject({ ok: false, error: { type: "execution_error", code: "engine_crashed" } });
    expect(run.error.message).toMatch(/could not be loaded \(.*ENOENT.*\); run it again/);
    // The runtime stays usable, and a later call loads it.
    expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 7 });
    broken = false;
    expect(ptc.validateWorkflow(workflow)).toEqual({ ok: true });
    expect(await ptc.runWorkflow(workflow)).toMatchObject({ ok: true, result: 1 });
  } finally {
    spy.restore();
  }
});

test("default: a bundle that copied only ptc.wasm (no ptc-json.wasm) runs both dialects on it", async () => {
  const spy = spyWasmReads((file) => (file === "ptc-json.wasm" ? missing(file) : undefined));
  const ptc = await freshPackage().createRuntime();
  try {
    expect(await ptc.run(program, { context: { rows } })).toMatchObject({ ok: true, result: 7 });
    expect(await ptc.runWorkflow(workflow)).toMatchObject({ ok: true, result: 1 });
    expect(spy.reads()).toEqual(["ptc-json.wasm", "ptc.wasm"]);
  } finally {
    spy.restore();
  }
});

// A script in a fresh process (a file: Node's loader of ES modules is then
// started, as in any program, before the package is imported).
function freshNode(script) {
  const file = path.join(require("node:os").tmpdir(), `ptc-cold-start-${process.pid}.mjs`);
  require("node:fs").writeFileSync(file, script);
  try {
    const out = spawnSync(process.execPath, [file], { encoding: "utf8" });
    if (out.status !== 0) throw new Error(out.stderr);
    return JSON.parse(out.stdout);
  } finally {
    require("node:fs").rmSync(file, { force: true });
  }
}

test("importing dist/node.mjs loads no Node built-in module, and requiring dist/node.cjs no other file", () => {
  const builtins = (list) =>
    list.filter((m) => /^NativeModule /.test(m) && !/^NativeModule internal\/modules\//.test(m));
  const esm = freshNode(`
    const before = new Set(process.moduleLoadList);
    await import(${JSON.stringify(path.join(dist, "node.mjs"))});
    console.log(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m))));
  `);
  // Not fs/promises, module (and its source maps), worker_threads, streams: each
  // a part of a millisecond or more of a cold start, when first used instead.
  expect(builtins(esm)).toEqual([]);
  const cjs = freshNode(`
    import { createRequire } from "node:module";
    const require = createRequire(import.meta.url);
    const before = new Set(process.moduleLoadList);
    require(${JSON.stringify(path.join(dist, "node.cjs"))});
    console.log(JSON.stringify({
      files: Object.keys(require.cache).map((f) => f.split(/[\\\\/]/).pop()),
      builtins: process.moduleLoadList.filter((m) => !before.has(m)),
    }));
  `);
  // No MCP, AI SDK or extras (prompts, schemas) code until used.
  expect(cjs.files).toEqual(["node.cjs"]);
  expect(builtins(cjs.builtins)).toEqual([]);
});
