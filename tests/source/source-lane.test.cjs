// The source lane itself (npm run test:source, scripts/test-source.mjs): its
// checks run in a copy of the working tree without dist/ and build/, so one
// that needs the build fails on every machine, not only on a fresh clone.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.join(__dirname, "../..");

test("the lane runs where there is no dist/ and no build/ (run it with npm run test:source)", () => {
  expect({ dist: fs.existsSync(path.join(root, "dist")), build: fs.existsSync(path.join(root, "build")) }).toEqual({
    dist: false,
    build: false,
  });
});

test("a source check that needs dist/ fails the lane, even where dist/ is built", () => {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-source-lane-test-"));
  const write = (file, text) => {
    fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    fs.writeFileSync(path.join(tree, file), text);
  };
  fs.copyFileSync(path.join(root, "jest.source.config.cjs"), path.join(tree, "jest.source.config.cjs"));
  write("package.json", '{"name": "lane-test", "private": true}\n');
  write("dist/node.cjs", "module.exports = { built: true };\n");
  write("tests/source/reads-sources.test.cjs", 'test("reads a source", () => expect(1).toBe(1));\n');
  write(
    "tests/source/needs-dist.test.cjs",
    'const built = require("../../dist/node.cjs");\ntest("needs the build", () => expect(built.built).toBe(true));\n',
  );
  const r = spawnSync(process.execPath, [path.join(root, "scripts/test-source.mjs"), "--ci"], {
    env: { ...process.env, PTC_SOURCE_ROOT: tree },
    encoding: "utf8",
    timeout: 120_000,
  });
  fs.rmSync(tree, { recursive: true });
  const out = r.stdout + r.stderr;
  expect(r.status).toBe(1);
  expect(out).toMatch(/PASS tests\/source\/reads-sources\.test\.cjs/);
  expect(out).toMatch(/FAIL tests\/source\/needs-dist\.test\.cjs/);
  expect(out).toMatch(/Cannot find module '\.\.\/\.\.\/dist\/node\.cjs'/);
});
