// Jest's global set-up: Jest tests the built package in dist/, so a source newer
// than the build (an engine or js/src change not yet built) would have the tests
// pass or fail on the old code. `npm run test:js` and `test:quick` refuse to run
// then; Jest started otherwise (one file, `npx jest ...`) only warns, for a loop
// that edits tests alone. `npm test` builds first.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "../..");

/** The npm scripts that refuse a stale dist/ (npm names the running one). */
const STRICT = new Set(["test:js", "test:quick"]);

function newest(dir) {
  let found = { file: "", mtime: 0 };
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const candidate = entry.isDirectory() ? newest(full) : { file: full, mtime: fs.statSync(full).mtimeMs };
    if (candidate.mtime > found.mtime) found = candidate;
  }
  return found;
}

/** Throws (or warns) when dist/ under `dir` is missing or older than a source. */
function checkDist(dir, script) {
  const built = ["dist/node.cjs", "dist/ptc.wasm"].map((f) => path.join(dir, f));
  if (!built.every((f) => fs.existsSync(f)))
    throw new Error("dist/ is not built: run `npm run build` (Jest tests the built package)");
  const builtAt = Math.min(...built.map((f) => fs.statSync(f).mtimeMs));
  const source = ["engine", "wasm", "js/src"]
    .map((d) => newest(path.join(dir, d)))
    .sort((a, b) => b.mtime - a.mtime)[0];
  if (source.mtime <= builtAt) return;
  const stale = `ptc-wasm: ${path.relative(dir, source.file)} is newer than dist/: Jest tests the last build; run \`npm run build\` to test your change.`;
  if (STRICT.has(script)) throw new Error(stale);
  console.warn(`\n${stale}\n`);
}

module.exports = async function distCheck() {
  checkDist(root, process.env.npm_lifecycle_event);
};
module.exports.checkDist = checkDist;
