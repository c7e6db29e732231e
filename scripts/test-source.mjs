// The source lane (`npm run test:source`): the checks that read the repository's
// sources and need no build (tests/source/: op behaviour, layers, CONTRIBUTING's
// map, error codes, the limits table, the manifest, file sizes). It runs them
// with Jest (jest.source.config.cjs) in a copy of the working tree that has no
// dist/ and no build/, node_modules linked: a check that needs the build fails
// here, on every machine, instead of passing on one that happened to build.
// Arguments go to Jest: `npm run test:source -- -t 'layers'`.
// PTC_SOURCE_ROOT=<dir> copies <dir> instead of this repository (the lane's own test).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(process.env.PTC_SOURCE_ROOT ?? repo);

/** Never copied: the build's outputs (what the lane must not need) and what is linked or not source. */
const SKIP = new Set(["dist", "build", "node_modules", ".git", "test-artifacts"]);

/** The working tree's files (tracked and new, not ignored), relative to `dir`; a plain walk without git. */
function workingTree(dir) {
  const git = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (git.status === 0 && fs.existsSync(path.join(dir, ".git")))
    return git.stdout.split("\0").filter((f) => f && fs.existsSync(path.join(dir, f)));
  const walk = (rel) =>
    fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
      const file = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) return SKIP.has(file) ? [] : walk(file);
      return e.isFile() ? [file] : [];
    });
  return walk("");
}

const copy = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-source-lane-"));
let status;
try {
  const files = workingTree(root).filter((f) => !SKIP.has(f.split("/")[0]));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(copy, file));
  }
  fs.symlinkSync(path.join(repo, "node_modules"), path.join(copy, "node_modules"), "dir");
  console.error(`source lane: ${files.length} files of ${root}, without dist/ and build/, in ${copy}`);
  const jest = path.join(repo, "node_modules/jest/bin/jest.js");
  const run = spawnSync(
    process.execPath,
    [jest, "-c", path.join(copy, "jest.source.config.cjs"), ...process.argv.slice(2)],
    {
      cwd: copy,
      stdio: "inherit",
      env: { ...process.env, PTC_SOURCE_LANE: "1" },
    },
  );
  status = run.status ?? 1;
} finally {
  fs.rmSync(copy, { recursive: true, force: true });
}
process.exit(status);
