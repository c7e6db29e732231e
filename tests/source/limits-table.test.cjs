// The run limits have one source, the engine's table (engine/core/limits.h):
// the package's generated copy matches it and README states its defaults and
// maxima. Reads the sources: no build. That the package refuses a value past a
// maximum: tests/js/limits-table.test.cjs.
const fs = require("node:fs");
const path = require("node:path");
const tables = require("../../scripts/gen-tables.cjs");

const root = path.join(__dirname, "../..");

test("js/src/types/engine-tables.ts is generated from the engine's tables", () => {
  expect(fs.readFileSync(path.join(root, tables.OUT), "utf8")).toBe(tables.render());
});

// How README may write a number: 1000, 10 MiB, 2^30, Number.MAX_SAFE_INTEGER.
function spellings(n) {
  const out = [String(n)];
  if (n % (1024 * 1024) === 0) out.push(`${n / (1024 * 1024)} MiB`);
  if (Number.isInteger(Math.log2(n))) out.push(`2^${Math.log2(n)}`);
  if (n === Number.MAX_SAFE_INTEGER) out.push("Number.MAX_SAFE_INTEGER");
  return out;
}

test.each(tables.limitRows().map((row) => [row.name, row]))(
  "README's row of %s states its default and maximum",
  (name, row) => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const line = readme.split("\n").find((l) => l.startsWith(`| \`${name}\` |`));
    expect(line).toBeDefined();
    const [, byDefault, meaning] = line.split(" | ").map((cell) => cell.trim());
    expect(spellings(row.default)).toContain(byDefault);
    expect(spellings(row.max).some((s) => meaning.includes(s))).toBe(true);
  },
);
