// examples/agent-loop runs as documented: three turns, memory carried from turn
// 1 to turn 2, and the typo of turn 3 repaired from formatError's message alone.
const { execFileSync } = require("node:child_process");
const path = require("node:path");

test("node examples/agent-loop/agent.mjs", () => {
  const root = path.join(__dirname, "../..");
  const out = execFileSync(process.execPath, ["examples/agent-loop/agent.mjs"], { cwd: root, encoding: "utf8" });
  expect(out).toMatch(/^system prompt: \d+ characters\nfunction: run_program\(program\)\n/);
  expect(out).toContain('host: {"result":{"total":2204,"count":11},"stored":["travel_expenses"]}');
  expect(out).toContain("assistant: Travel came to 2204 over 11 expenses (kept in memory: travel_expenses).");
  expect(out).toContain("assistant: ben: 391 on 2024-02-08.");
  expect(out).toContain(
    "host: error: ValidationError at /program/steps/1: Unknown operation 'filer'. Did you mean 'filter'?",
  );
  expect(out).toContain("assistant: 2 orders: #1016 (101.99, Ada Lovelace), #1004 (157.99, Ada Lovelace).");
  expect(out).toContain("memory at the end: travel_expenses\n");
  expect(out).not.toContain("could not repair");
});
