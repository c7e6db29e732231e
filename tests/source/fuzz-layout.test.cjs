// The fuzz targets are wired together by name in four places: CMakeLists.txt
// builds them, tests/fuzz/ holds their sources, scripts/fuzz.sh runs them and
// replays tests/fuzz/regressions/<target>/. A regression kept under a name that
// is no target would never be replayed; a target the script does not list would
// never run in npm test.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "../..");
const read = (file) => fs.readFileSync(path.join(root, file), "utf8");

const built = read("CMakeLists.txt")
  .match(/foreach\(target ([\w ]+)\)\s*add_executable\(fuzz_\$\{target\}/)?.[1]
  .split(" ");
const sources = fs
  .readdirSync(path.join(root, "tests/fuzz"))
  .filter((f) => /^fuzz_\w+\.cpp$/.test(f))
  .map((f) => f.slice(5, -4));
const scripted = read("scripts/fuzz.sh")
  .match(/^targets=\(([\w ]+)\)$/m)?.[1]
  .split(" ");

test("CMake builds, tests/fuzz/ holds and scripts/fuzz.sh runs the same targets", () => {
  expect(built).toBeDefined();
  expect([...built].sort()).toEqual([...sources].sort());
  expect([...scripted].sort()).toEqual([...sources].sort());
});

test("every regression folder is a target's, and holds only files", () => {
  const dir = path.join(root, "tests/fuzz/regressions");
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    expect(entry.isDirectory() && sources.includes(entry.name) ? entry.name : `not a target: ${entry.name}`).toBe(
      entry.name,
    );
    for (const f of fs.readdirSync(path.join(dir, entry.name), { withFileTypes: true })) expect(f.isFile()).toBe(true);
  }
});

test("npm run fuzz is the script, and npm test runs its smoke", () => {
  expect(JSON.parse(read("package.json")).scripts.fuzz).toBe("bash scripts/fuzz.sh");
  expect(read("scripts/test.sh")).toMatch(/^bash scripts\/fuzz\.sh --smoke/m);
});
