// Issue 28: no `any` reachable from the public types. A strict TypeScript user
// gets real types for every tool shape (tests/package/fixtures/types/ checks
// that the documented shapes compile); this scans what the package ships.
const fs = require("node:fs");
const path = require("node:path");

const typesDir = path.join(__dirname, "../../dist/types");

// The declarations' code without comments and string literals, where the word
// "any" is prose.
function code(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

function anyTypes(file) {
  const lines = code(fs.readFileSync(path.join(typesDir, file), "utf8")).split("\n");
  return lines.flatMap((line, i) => (/\bany\b/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

test("no declaration the package ships uses the type any", () => {
  const files = fs.readdirSync(typesDir).filter((f) => /\.d\.[cm]ts$/.test(f));
  expect(files.length).toBeGreaterThan(10);
  expect(files.flatMap(anyTypes)).toEqual([]);
});

test("the scan sees an any in code, not in comments or strings", () => {
  const scanned = code('/** any */ type A = "any"; // any\ntype B = Record<string, any>;');
  expect(scanned.split("\n").filter((l) => /\bany\b/.test(l))).toEqual(["type B = Record<string, any>;"]);
});
