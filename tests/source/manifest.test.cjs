// The package's manifest as installers and TypeScript read it: no build needed.
// The bundles and declarations it points at: tests/js/package-shape.test.cjs
// (and tests/package/run.mjs installs the real tarball).
const fs = require("node:fs");
const path = require("node:path");

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
  // ".": browser, node import/require, default; ./mcp and ./ai-sdk: import/require; ./editor (browsers, ESM only)
  expect(branches.length).toBe(9);
  for (const b of branches) {
    expect({ trail: b.trail, first: b.keys[0] }).toEqual({ trail: b.trail, first: "types" });
    expect({ trail: b.trail, types: b.types }).toEqual({
      trail: b.trail,
      types: expect.stringMatching(
        b.trail.endsWith("require") ? /^\.\/dist\/types\/[\w-]+\.d\.cts$/ : /^\.\/dist\/types\/[\w-]+\.d\.mts$/,
      ),
    });
  }
  expect(pkg.types).toBe("./dist/types/node.d.cts");
});
