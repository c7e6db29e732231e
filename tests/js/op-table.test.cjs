// The operation table drives validation, the docs and (later) schema, prompt and
// completion: its examples must be valid programs and the docs must match it.
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { ptcWasm } = require("./helpers.cjs");

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

test("every operation's example validates as a program", () => {
  for (const op of ptc.operations()) {
    expect([op.name, ptc.validate({ program: op.example })]).toEqual([op.name, { ok: true }]);
    expect(op.example.op).toBe(op.name);
  }
});

test("a missing required field names the op's shape from the table", () => {
  const r = ptc.validate({ program: { op: "take" } });
  expect(r.ok).toBe(false);
  expect(r.error.message).toContain("Shape: " + ptc.operations().find((o) => o.name === "take").shape);
});

test("docs/operations.md is generated from the current table", () => {
  const root = path.join(__dirname, "../..");
  expect(() => execFileSync("node", ["scripts/gen-docs.mjs", "--check"], { cwd: root, stdio: "pipe" })).not.toThrow();
});
