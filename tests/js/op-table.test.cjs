// The operation table drives validation, the docs, the schema, the prompt and
// completion: its examples must be valid programs, the docs must match it, and
// the lists of operations the tests check come from it and the conformance
// corpus, never from a hand-kept list.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ptcWasm } = require("./helpers.cjs");

const conformanceDir = path.join(__dirname, "../conformance");

/**
 * The operations the conformance cases that run to a result evaluate: found
 * through expression positions only (the table's field kinds), so an object
 * with an "op" key inside literal data does not count.
 */
function opsRunToAResult(operations) {
  const byName = new Map(operations.map((o) => [o.name, o]));
  const names = new Set();
  const isOperation = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && "op" in v;
  const expr = (v) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return; // literal data
    if (!isOperation(v)) return Object.values(v).filter(isOperation).forEach(expr); // implicit object
    names.add(v.op);
    for (const f of byName.get(v.op)?.fields ?? []) {
      if (!(f.name in v)) continue;
      if (f.kind === "expr") expr(v[f.name]);
      if (f.kind === "expr_list" && Array.isArray(v[f.name])) v[f.name].forEach(expr);
      if (f.kind === "expr_fields") Object.values(v[f.name]).filter(isOperation).forEach(expr);
    }
  };
  for (const file of fs.readdirSync(conformanceDir).filter((f) => f.endsWith(".json")))
    for (const c of JSON.parse(fs.readFileSync(path.join(conformanceDir, file), "utf8")).cases)
      if (!c.validateOnly && !c.expect.error && "program" in c) expr(c.program.program);
  return names;
}

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

test("docs/operations.md and docs/errors.md are generated from the current tables", () => {
  const root = path.join(__dirname, "../..");
  expect(() => execFileSync("node", ["scripts/gen-docs.mjs", "--check"], { cwd: root, stdio: "pipe" })).not.toThrow();
});

test("operations are listed once each, and each runs to a result in some conformance case", () => {
  const names = ptc.operations().map((o) => o.name);
  expect(new Set(names).size).toBe(names.length);
  const exercised = opsRunToAResult(ptc.operations());
  expect(names.filter((name) => !exercised.has(name))).toEqual([]);
  expect([...exercised].filter((name) => !names.includes(name))).toEqual([]);
});

test("readsInput marks exactly the operations whose example fails without a current value", async () => {
  for (const op of ptc.operations()) {
    const r = await ptc.run({ program: op.example }, { tools: { get_expenses: () => [] } });
    const noInputHere = r.ok === false && r.error.path === "/program" && r.error.message.includes("No input available");
    expect({ op: op.name, readsInput: op.readsInput }).toEqual({ op: op.name, readsInput: noInputHere });
  }
});
