// Jest's global set-up: Jest tests the built package in dist/, so say so when a
// source is newer than the build (an engine or js/src change needs `npm run build`
// first, or the tests pass or fail on the old code).
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "../..");

function newest(dir) {
  let found = { file: "", mtime: 0 };
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const candidate = entry.isDirectory() ? newest(full) : { file: full, mtime: fs.statSync(full).mtimeMs };
    if (candidate.mtime > found.mtime) found = candidate;
  }
  return found;
}

module.exports = async function distCheck() {
  const built = ["dist/node.cjs", "dist/ptc.wasm"].map((f) => path.join(root, f));
  if (!built.every((f) => fs.existsSync(f)))
    throw new Error("dist/ is not built: run `npm run build` (Jest tests the built package)");
  const builtAt = Math.min(...built.map((f) => fs.statSync(f).mtimeMs));
  const source = ["engine", "wasm", "js/src"]
    .map((d) => newest(path.join(root, d)))
    .sort((a, b) => b.mtime - a.mtime)[0];
  if (source.mtime > builtAt)
    console.warn(
      `\nptc-wasm: ${path.relative(root, source.file)} is newer than dist/: Jest tests the last build; run \`npm run build\` to test your change.\n`,
    );
};
