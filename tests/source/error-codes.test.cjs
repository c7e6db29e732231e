// Error codes, from the sources (no build): the package's table
// (js/src/types/error-codes.ts, docs/errors.md) names exactly the engine's codes
// (engine/core/error.h) plus the package's own, and every code is expected by some
// conformance case or is listed with where it is checked. That the built package
// exports this table, and that its own errors carry their codes:
// tests/js/error-codes.test.cjs.
const fs = require("node:fs");
const path = require("node:path");
const { root, loadCaseFiles, loadTypeScript } = require("./sources.cjs");

const { ERROR_CODES } = loadTypeScript("js/src/types/error-codes.ts");

function engineCodes() {
  const header = fs.readFileSync(path.join(root, "engine/core/error.h"), "utf8");
  return [...header.matchAll(/case ErrorCode::\w+: return "([a-z_]+)";/g)].map((m) => m[1]);
}

// Codes no conformance case can reach, and where each is checked instead.
const NOT_FROM_A_CASE = {
  bad_option: "the package checks options itself first; tests/cpp/error_codes_test.cpp",
  too_large: "a program text over 1 MiB; tests/cpp/error_codes_test.cpp",
  bad_host_call: "a host using a handle it does not hold; tests/cpp/error_codes_test.cpp",
  bad_row_block: "a malformed row block from the host; tests/cpp/row_block_test.cpp",
  internal: "a bug in the engine, never a program's doing",
  not_json: "data the package cannot send: below",
  engine_crashed: "a trapped engine instance: isolation.test.cjs",
  resident_closed: "a run given a closed resident context: resident.test.cjs",
  suspended: "a run stopped at held calls: suspend.test.cjs",
  write_unconfirmed: "a write abandoned while it ran: cancellation.test.cjs, write-turns.test.cjs",
  replay_missing: "a replayed run asking what was not recorded: suspend.test.cjs",
  bad_state: "resume given a state that does not fit: suspend.test.cjs",
  bad_resume: "resume given results or context that do not fit: suspend.test.cjs",
  bad_run_id: "run or runWorkflow given a runId that cannot name a run: run-id.test.cjs",
  shadowed_memory: "a session's call whose context has a memory key: agent-memory.test.cjs",
  read_only_program: "MCP run_program given a program that writes: agent-gateway.test.cjs, agent-memory.test.cjs",
  held_for_approval: "a second round of held calls: agent-held-rounds.test.cjs, agent-mcp-resume.test.cjs",
  write_not_compensated: "validateWorkflow given write tools: suspend.test.cjs",
};

test("the table names the engine's codes, in the engine's order, then the package's", () => {
  const fromEngine = ERROR_CODES.filter((e) => e.source === "engine").map((e) => e.code);
  expect(fromEngine).toEqual(engineCodes());
  expect(ERROR_CODES.filter((e) => e.source === "package").map((e) => e.code)).toEqual([
    "not_json",
    "engine_crashed",
    "resident_closed",
    "suspended",
    "write_unconfirmed",
    "replay_missing",
    "bad_state",
    "bad_resume",
    "bad_run_id",
    "shadowed_memory",
    "read_only_program",
    "held_for_approval",
    "write_not_compensated",
  ]);
  for (const e of ERROR_CODES) {
    expect(e.code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(e.types.length).toBeGreaterThan(0);
    expect(e.when.length * e.fix.length).toBeGreaterThan(0);
  }
});

test("every code is expected by a conformance case, or is listed with where it is checked", () => {
  const reached = new Set();
  for (const dir of ["tests/conformance", "tests/conformance-workflows"])
    for (const { cases } of loadCaseFiles(dir))
      for (const c of cases) {
        if (c.expect?.error) reached.add(c.expect.error.code);
        for (const w of c.expect?.warnings ?? []) reached.add(w.code);
      }
  for (const { code } of ERROR_CODES) {
    const listed = code in NOT_FROM_A_CASE;
    expect({ code, reachedOrListed: reached.has(code) || listed }).toEqual({ code, reachedOrListed: true });
    expect({ code, listedButReached: listed && reached.has(code) }).toEqual({ code, listedButReached: false });
  }
});

test("every error case of the corpora gives a code of the table, with one of the code's types", () => {
  const typesOf = new Map(ERROR_CODES.map((e) => [e.code, e.types]));
  for (const dir of ["tests/conformance", "tests/conformance-workflows"])
    for (const { file, cases } of loadCaseFiles(dir))
      for (const c of cases) {
        const error = c.expect?.error;
        if (!error) continue;
        const types = typesOf.get(error.code) ?? [];
        expect({ file, name: c.name, code: error.code, typeOfTheCode: types.includes(error.type) }).toMatchObject({
          typeOfTheCode: true,
        });
      }
});

// A code the package writes into an output or error (`code: "x"`, `_meta: { code: "x" }`)
// that the table does not name is one a host cannot look up in docs/errors.md.
test("every code the package's sources give is in the table", () => {
  const known = new Set(ERROR_CODES.map((e) => e.code));
  const unnamed = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith(".ts"))
        for (const m of fs.readFileSync(path.join(root, file), "utf8").matchAll(/\bcode: "([a-z_]+)"/g))
          if (!known.has(m[1])) unnamed.push(`${file}: ${m[1]}`);
    }
  };
  walk("js/src");
  expect(unnamed).toEqual([]);
});
