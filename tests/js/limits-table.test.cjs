// The run limits of the engine's table (engine/core/limits.h), in the built
// package: a value the engine cannot honour is the caller's TypeError (it used
// to run with another limit: maxDepth 1000 ran as 500). The table's generated
// copy and README's rows need no build: tests/source/limits-table.test.cjs.
const { createRuntime } = require("../../dist/node.cjs");
const tables = require("../../scripts/gen-tables.cjs");

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
