// The package's manifest and bundles as installers and TypeScript read them
// (tests/package/run.mjs installs the real tarball; these are the quick checks;
// the manifest alone, with no build: tests/source/manifest.test.cjs).
const fs = require("node:fs");
const path = require("node:path");
const { ptcWasm } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");

test("every file the manifest points at is built: entries, declarations, the wasm, the CLI", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const targets = [];
  const walk = (value) => {
    if (typeof value === "string") targets.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk([pkg.exports, pkg.main, pkg.module, pkg.browser, pkg.types, pkg.bin]);
  const built = targets.filter((t) => t.startsWith("./dist/") || t.startsWith("dist/"));
  expect(built.length).toBeGreaterThan(20);
  expect(built.filter((t) => !fs.existsSync(path.join(root, t)))).toEqual([]);
});

// ptc-wasm/editor mounts into an HTMLElement: its declarations (and only they) name the DOM.
const EDITOR_ONLY = ["editor", "mount", "styles"];

test("the declarations declare createRuntime and need no DOM lib (but ptc-wasm/editor's)", () => {
  for (const ext of ["mts", "cts"]) {
    const node = fs.readFileSync(path.join(root, `dist/types/node.d.${ext}`), "utf8");
    expect(node).toMatch(/export declare function createRuntime\(/);
    const all = fs
      .readdirSync(path.join(root, "dist/types"))
      .filter((f) => f.endsWith(`.d.${ext}`) && !EDITOR_ONLY.includes(f.replace(/\.d\.[cm]ts$/, "")));
    for (const f of all) {
      const text = fs.readFileSync(path.join(root, "dist/types", f), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect({ f, dom: /\bWebAssembly\.|\bBufferSource\b|\bHTMLElement\b/.test(text) }).toEqual({ f, dom: false });
    }
  }
  // No other declaration imports the editor's, so a project without the DOM lib never reads them.
  const importers = fs
    .readdirSync(path.join(root, "dist/types"))
    .filter((f) => !EDITOR_ONLY.includes(f.replace(/\.d\.[cm]ts$/, "")))
    .filter((f) =>
      /from "\.\/(editor|mount|styles)\.[cm]js"/.test(fs.readFileSync(path.join(root, "dist/types", f), "utf8")),
    );
  expect(importers).toEqual([]);
});

test("public classes keep their names in the minified bundles", async () => {
  expect(ptcWasm.Runtime.name).toBe("Runtime");
  expect(ptcWasm.WorkerRuntime.name).toBe("WorkerRuntime");
  expect(ptcWasm.ResidentContext.name).toBe("ResidentContext");
  const ptc = await ptcWasm.createRuntime();
  expect(ptc.constructor.name).toBe("Runtime");
  const inWorker = await ptcWasm.createRuntime({ worker: true });
  expect(inWorker.constructor.name).toBe("WorkerRuntime");
  inWorker.close();
});

// The prompts, schemas and tool-args validator are dist/extras.cjs, which the
// Node bundles require on first use (js/src/extras/extras.ts); a browser page fetches
// one script, so browser.mjs keeps them.
describe("the extras", () => {
  const { spawnSync } = require("node:child_process");
  const os = require("node:os");
  const dist = path.join(root, "dist");
  const DIALECT = "json-schema.org/draft/2020-12/schema";
  const read = (f) => fs.readFileSync(path.join(dist, f), "utf8");

  /** Runs `script` in a fresh node with `entry` as `ptc`; its stdout, parsed. */
  function inFreshNode(entry, script) {
    const code = `const ptc = require(${JSON.stringify(entry)});\n(async () => {\n${script}\n})().catch((e) => { console.error(e); process.exit(1); });`;
    const out = spawnSync(process.execPath, ["-e", code], { encoding: "utf8" });
    expect(out.stderr).toBe("");
    return JSON.parse(out.stdout);
  }

  test("are their own file for Node and for browsers, which browser.mjs imports on first use", () => {
    for (const f of ["node.mjs", "node.cjs", "browser.mjs"])
      expect({ f, has: read(f).includes(DIALECT) }).toEqual({ f, has: false });
    expect(read("extras.cjs")).toContain(DIALECT);
    expect(read("extras.browser.mjs")).toContain(DIALECT);
    expect(read("browser.mjs")).toContain('import("./extras.browser.mjs")');
  });

  test("are loaded by the first prompt, schema or tool with parameters, not by a run", () => {
    const seen = inFreshNode(
      path.join(dist, "node.cjs"),
      `const loaded = () => Object.keys(require.cache).some((f) => f.endsWith("extras.cjs"));
       const rt = await ptc.createRuntime();
       const run = await rt.run({ program: { op: "call", tool: "t", args: { x: 1 } } }, { tools: { t: () => 2 } });
       const afterRun = loaded();
       const checked = await rt.run({ program: { op: "call", tool: "t", args: { x: "a" } } },
         { tools: { t: { parameters: { type: "object", properties: { x: { type: "number" } } }, execute: () => 2 } } });
       console.log(JSON.stringify({ result: run.result, afterRun, code: checked.error.code, afterCheck: loaded(),
         prompt: rt.prompt().length > 1000, schema: rt.schema().$schema }));`,
    );
    expect(seen).toEqual({
      result: 2,
      afterRun: false,
      code: "tool_failed",
      afterCheck: true,
      prompt: true,
      schema: `https://${DIALECT}`,
    });
  });

  test("missing beside a bundle: runs still work, and what needs them says which file to copy", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-no-extras-"));
    for (const f of ["node.cjs", "ptc.wasm"]) fs.copyFileSync(path.join(dist, f), path.join(dir, f));
    const seen = inFreshNode(
      path.join(dir, "node.cjs"),
      `const rt = await ptc.createRuntime();
       const run = await rt.run({ program: { op: "literal", value: [1, 2] } });
       let prompt; try { rt.prompt(); } catch (e) { prompt = e.message; }
       const tool = await rt.run({ program: { op: "call", tool: "t", args: {} } },
         { tools: { t: { parameters: { type: "object" }, execute: () => 2 } } });
       console.log(JSON.stringify({ result: run.result, prompt, tool: tool.error.message }));`,
    );
    fs.rmSync(dir, { recursive: true });
    const fix = "must copy node_modules/ptc-wasm/dist/extras.cjs next to it";
    expect(seen.result).toEqual([1, 2]);
    expect(seen.prompt).toContain(`cannot load ${path.join(dir, "extras.cjs")}`);
    expect(seen.prompt).toContain("(it is missing)");
    expect(seen.prompt).toContain(fix);
    expect(seen.tool).toMatch(/^Tool 't' failed: its parameters schema could not be used \(ptc-wasm: cannot load /);
    expect(seen.tool).toContain(fix);
  });
});
