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
