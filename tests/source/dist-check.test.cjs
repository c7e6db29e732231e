// The global set-up's check of dist/ (tests/js/dist-check.cjs), on a made-up tree: the
// quick loops refuse a build older than its sources instead of testing it.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { checkDist } = require("../js/dist-check.cjs");

function tree(sourceAfterBuild) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-dist-check-"));
  for (const f of ["dist/node.cjs", "dist/ptc.wasm", "engine/core/run.cpp", "wasm/bindings.cpp", "js/src/index.ts"]) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), "");
  }
  const built = new Date(2026, 0, 1);
  for (const f of ["dist/node.cjs", "dist/ptc.wasm"]) fs.utimesSync(path.join(dir, f), built, built);
  const source = new Date(built.getTime() + (sourceAfterBuild ? 1000 : -1000));
  for (const f of ["engine/core/run.cpp", "wasm/bindings.cpp", "js/src/index.ts"])
    fs.utimesSync(path.join(dir, f), source, source);
  return dir;
}

test("test:js and test:quick refuse a dist/ older than a source, naming it and the fix", () => {
  const dir = tree(true);
  for (const script of ["test:js", "test:quick"])
    expect(() => checkDist(dir, script)).toThrow(/is newer than dist\/.*run `npm run build`/);
  fs.rmSync(dir, { recursive: true });
});

test("a fresh dist/ passes; Jest started otherwise only warns", () => {
  const fresh = tree(false);
  const stale = tree(true);
  expect(() => checkDist(fresh, "test:js")).not.toThrow();
  const warn = jest.spyOn(console, "warn").mockImplementation(() => {});
  expect(() => checkDist(stale, undefined)).not.toThrow();
  expect(warn).toHaveBeenCalledWith(expect.stringMatching(/run `npm run build`/));
  warn.mockRestore();
  for (const dir of [fresh, stale]) fs.rmSync(dir, { recursive: true });
});
