// The package's manifest and bundles as installers and TypeScript read them
// (tests/package/run.mjs installs the real tarball; these are the quick checks).
const fs = require("node:fs");
const path = require("node:path");
const { ptcWasm } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

test("the core install pulls no other package: every peer is optional, and tested as a dev dependency", () => {
  expect(pkg.dependencies).toBeUndefined();
  for (const name of Object.keys(pkg.peerDependencies)) {
    expect({ name, optional: pkg.peerDependenciesMeta[name]?.optional }).toEqual({ name, optional: true });
    expect(pkg.devDependencies[name]).toBeDefined();
  }
  expect(Object.keys(pkg.peerDependencies).sort()).toEqual([
    "@modelcontextprotocol/sdk",
    "@opentelemetry/api",
    "ai",
    "zod",
  ]);
});

test("every export branch names its types first: .d.mts for import (and browsers), .d.cts for require", () => {
  const branches = [];
  const walk = (value, trail) => {
    if (!value || typeof value !== "object") return;
    if ("types" in value) branches.push({ trail: trail.join(" > "), keys: Object.keys(value), types: value.types });
    for (const [key, v] of Object.entries(value)) walk(v, [...trail, key]);
  };
  walk(pkg.exports, []);
  expect(branches.length).toBe(8); // ".": browser, node import/require, default; ./mcp and ./ai-sdk: import/require
  for (const b of branches) {
    expect({ trail: b.trail, first: b.keys[0] }).toEqual({ trail: b.trail, first: "types" });
    expect({ trail: b.trail, types: b.types }).toEqual({
      trail: b.trail,
      types: expect.stringMatching(
        b.trail.endsWith("require") ? /^\.\/dist\/types\/[\w-]+\.d\.cts$/ : /^\.\/dist\/types\/[\w-]+\.d\.mts$/,
      ),
    });
    expect(fs.existsSync(path.join(root, b.types))).toBe(true);
  }
  expect(pkg.types).toBe("./dist/types/node.d.cts");
});

test("the declarations declare createRuntime and need no DOM lib", () => {
  for (const ext of ["mts", "cts"]) {
    const node = fs.readFileSync(path.join(root, `dist/types/node.d.${ext}`), "utf8");
    expect(node).toMatch(/export declare function createRuntime\(/);
    const all = fs.readdirSync(path.join(root, "dist/types")).filter((f) => f.endsWith(`.d.${ext}`));
    for (const f of all) {
      const text = fs.readFileSync(path.join(root, "dist/types", f), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect({ f, dom: /\bWebAssembly\.|\bBufferSource\b|\bHTMLElement\b/.test(text) }).toEqual({ f, dom: false });
    }
  }
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
