// The run limits have one source, the engine's table (engine/core/limits.h):
// the package's generated copy matches it, README states its defaults and
// maxima, and a value the engine cannot honour is the caller's TypeError (it
// used to run with another limit: maxDepth 1000 ran as 500).
const fs = require("node:fs");
const path = require("node:path");
const { createRuntime } = require("../../dist/node.cjs");
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

describe("a limit past the engine's maximum is refused, not capped", () => {
  let rt;
  beforeAll(async () => {
    rt = await createRuntime();
  });
  const max = () => tables.limitRows().find((row) => row.name === "maxDepth").max;

  test("maxDepth 1000 is a TypeError naming the option and its maximum", async () => {
    await expect(rt.run({ program: { op: "literal", value: 1 } }, { maxDepth: 1000 })).rejects.toThrow(
      new TypeError(`ptc-wasm: options.maxDepth must be a positive number of at most ${max()}, got 1000`),
    );
    expect(() => rt.validate({ program: { op: "literal", value: 1 } }, { maxDepth: 1000 })).toThrow(TypeError);
  });

  test("maxDepth at the maximum runs a program that deep", async () => {
    let node = { op: "literal", value: true };
    for (let i = 1; i < max(); i++) node = { op: "not", condition: node };
    const result = (max() - 1) % 2 === 0;
    expect(await rt.run({ program: node }, { maxDepth: max() })).toMatchObject({ ok: true, result });
  });
});
