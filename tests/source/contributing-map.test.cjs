// CONTRIBUTING.md's map of the code names every file under engine/ and js/src,
// so a newcomer can find where a thing lives; a new file goes into the map in
// the same commit. A file is named by its name or by a pattern (`value.*`,
// `ops_*.cpp`) in the map's block.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "../..");

function files(dir) {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    return entry.isDirectory() ? files(rel) : [rel];
  });
}

/** The patterns the map's code block names: `value.*`, `ops_*.cpp`, `driver.ts`... */
function mapPatterns() {
  const text = fs.readFileSync(path.join(root, "CONTRIBUTING.md"), "utf8");
  const start = text.indexOf("```\nengine/");
  if (start < 0) throw new Error("CONTRIBUTING.md: no map block starting with engine/");
  const block = text.slice(start, text.indexOf("```", start + 3));
  const tokens = block.match(/[\w*-]+(?:\.[\w*]+)+|[\w-]+\*/g) ?? [];
  return tokens.map((t) => new RegExp(`^${t.replace(/\./g, "\\.").replace(/\*/g, "[\\w.-]*")}$`));
}

test("CONTRIBUTING's map names every file under engine/ and js/src", () => {
  const patterns = mapPatterns();
  const unnamed = [...files("engine"), ...files("js/src")].filter(
    (file) => !patterns.some((p) => p.test(path.basename(file))),
  );
  expect(unnamed).toEqual([]);
});

/** The map's lines under `  core/` (up to the next folder at that depth). */
function coreLines() {
  const text = fs.readFileSync(path.join(root, "CONTRIBUTING.md"), "utf8");
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith("  core/"));
  const end = lines.findIndex((l, i) => i > start && /^ {2}\w/.test(l));
  return lines.slice(start, end);
}

test("core/ files the map marks [PTC-JSON only] are included by no step_functions/ file", () => {
  const marked = coreLines()
    .filter((l) => l.includes("[PTC-JSON only]") && /^ {4}\w/.test(l))
    .map((l) => l.trim().split(/\s+/)[0].replace(".*", ""));
  expect(marked).toEqual(expect.arrayContaining(["columns", "row_block", "resident"]));
  const stepFunctions = files("engine/step_functions");
  const includes = stepFunctions.flatMap((file) =>
    [...fs.readFileSync(path.join(root, file), "utf8").matchAll(/#include "core\/(\w+)\.h"/g)]
      .filter((m) => marked.includes(m[1]))
      .map((m) => `${file} includes core/${m[1]}.h`),
  );
  expect(includes).toEqual([]);
});

test('"Add an operation" links its worked commit by full hash: on GitHub and for git show', () => {
  const text = fs.readFileSync(path.join(root, "CONTRIBUTING.md"), "utf8");
  const section = text.slice(text.indexOf("## Add an operation"), text.indexOf("## Style"));
  const repo = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).homepage.replace(/#.*$/, "");
  const link = section.match(/\]\((https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\/commit\/([0-9a-f]{40})\)/);
  expect(link?.[1]).toBe(repo);
  expect(section).toContain(`git show ${link[2]}`);
  expect(section.split("\n").filter((l) => l.startsWith("- [ ] ")).length).toBeGreaterThanOrEqual(8);
});
