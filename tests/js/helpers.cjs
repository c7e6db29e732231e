// Shared test helpers: the package under test and structural JSON equality.
const path = require("node:path");

const ptcWasm = require(path.join(__dirname, "../../dist/node.cjs"));
// The corpus as files with the line of each case: shared with the source lane, which has no dist/.
const { caseLines, loadCaseFiles } = require("../source/sources.cjs");

/** Structural equality with numbers by value and object key order ignored. */
function sameJson(a, b) {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks a run's result against a conformance case's "expect" (both dialects):
 * error type/code/path/position/message, result, memory, tool calls, trace entries.
 */
function checkExpectation(want, got, calls) {
  const shown = JSON.stringify(got).slice(0, 2000);
  if ("toolCalls" in want && !sameJson(calls, want.toolCalls)) expect(calls).toEqual(want.toolCalls);
  if (want.error) {
    expect({ ok: got.ok, shown }).toEqual({ ok: false, shown });
    expect(got.error.type).toBe(want.error.type);
    if ("code" in want.error) expect(got.error.code).toBe(want.error.code);
    if ("path" in want.error) expect(got.error.path ?? null).toBe(want.error.path);
    if ("position" in want.error) expect(got.error.position).toBe(want.error.position);
    if ("message" in want.error) expect(got.error.message).toContain(want.error.message);
  } else {
    expect({ ok: got.ok, shown }).toEqual({ ok: true, shown });
  }
  for (const key of ["result", "memoryDelta", "memory"]) {
    if (key in want && !sameJson(got[key], want[key])) expect(got[key]).toEqual(want[key]);
  }
  // warnings: in order, code and path exact, the message containing the expected one.
  if (want.warnings) {
    const warnings = got.warnings ?? [];
    expect(warnings.map((w) => [w.code, w.path])).toEqual(want.warnings.map((w) => [w.code, w.path]));
    want.warnings.forEach((w, i) => {
      if ("message" in w) expect(warnings[i].message).toContain(w.message);
    });
  }
  if (want.trace) {
    expect(got.trace.length).toBe(want.trace.length);
    want.trace.forEach((entry, i) => {
      for (const [key, value] of Object.entries(entry))
        if (!sameJson(got.trace[i][key], value))
          expect({ i, key, value: got.trace[i][key] }).toEqual({ i, key, value });
    });
  }
}

/** What a "returnsNonJson" mock returns: a value JSON cannot carry. */
function nonJsonValue(kind) {
  const cycle = {};
  cycle.self = cycle;
  const values = {
    bigint: 10n,
    nan: NaN,
    infinity: Infinity,
    cycle,
    function: () => 1,
    symbol: Symbol("s"),
    map: new Map([["a", 1]]),
  };
  if (!(kind in values)) throw new Error(`unknown returnsNonJson kind '${kind}'`);
  return values[kind];
}

/**
 * One answer of a conformance case's mock tool (the conformance READMEs):
 * returns, throws, echo, returnsNonJson, hangs (never settles), aborts (aborts
 * the run through its controller while pending).
 */
function mockAnswer(mock, args, controller) {
  if ("throws" in mock) throw new Error(mock.throws);
  if (mock.echo) return args;
  if ("returnsNonJson" in mock) return nonJsonValue(mock.returnsNonJson);
  if (mock.hangs) return new Promise(() => {});
  if ("aborts" in mock) {
    controller.abort(mock.aborts);
    return new Promise(() => {});
  }
  return mock.returns;
}

/** Runs a case's check; a failure names the case's file:line first. */
async function atCase(filePath, c, check) {
  try {
    await check();
  } catch (e) {
    const where = `${filePath}:${c.line}: conformance case "${c.name}"`;
    if (e instanceof Error) {
      e.message = `${where}\n\n${e.message}`;
    } else {
      throw new Error(`${where}\n\n${String(e)}`, { cause: e });
    }
    throw e;
  }
}

/**
 * A conformance case's "options", with maxConcurrency 1 unless it gives one:
 * the corpus runs its calls one at a time, in both runners (the native one:
 * caseOptions in tests/cpp/test_support.cpp); a case about concurrency sets it.
 * Under the default (8) some cases' expectations (a trace's order, the calls
 * made before the run ends) would not hold.
 */
function corpusOptions(c) {
  return { maxConcurrency: 1, ...(c.options ?? {}) };
}

/**
 * A conformance case's "tools" as tool functions (both dialects): each answers
 * as its mock says (mockAnswer), or a "sequence" of mocks one per call (past
 * its end the last repeats), and records the call as {tool, args} in `calls`.
 */
function mockTools(spec, calls, controller) {
  const tools = {};
  for (const [name, mock] of Object.entries(spec ?? {})) {
    let n = 0;
    const execute = async (args) => {
      calls.push({ tool: name, args });
      const step = mock.sequence ? mock.sequence[Math.min(n++, mock.sequence.length - 1)] : mock;
      return mockAnswer(step, args, controller);
    };
    // A mock's returnsSchema is the descriptor's declared result (`returns`).
    tools[name] = mock.returnsSchema ? { returns: mock.returnsSchema, execute } : execute;
  }
  return tools;
}

// How an unhandled tool failure's message ends (engine/ptc_json/program_run.cpp,
// issue 26): it names the `try` that lets the program go on.
const TRY_HINT =
  '. To go on when a tool fails, wrap the call in a try: {"op": "try", "expr": {"op": "call", ...}, "catch": <the value to use instead>}';

/**
 * Runs `body(clock)` with a clock that moves only when the test says (Jest's
 * fake timers: setTimeout, performance.now and Date, which the runtime and the
 * engine read), so what it asserts about time does not depend on how fast the
 * machine is. `clock.advance(ms)` lets ms pass, firing the timers due and
 * settling the promises that follow; `clock.jump(ms)` does it synchronously
 * (from inside a tool or a context's toJSON). Promises and worker messages
 * keep running for real.
 */
async function withFakeClock(body) {
  jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask", "setImmediate"] });
  try {
    return await body({
      advance: (ms) => jest.advanceTimersByTimeAsync(ms),
      jump: (ms) => jest.advanceTimersByTime(ms),
    });
  } finally {
    jest.useRealTimers();
  }
}

/** Whether a promise has settled yet: `tracked(p).settled`. */
function tracked(promise) {
  const state = { settled: false };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

// One small run of each dialect (a PTC-JSON program over `rows`, giving 7, and a
// step-function file giving 1): for the tests of which engine module runs what.
const dialectFixtures = {
  program: {
    program: {
      op: "pipe",
      steps: [
        { op: "load", name: "rows" },
        { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
        { op: "sum", field: "amount" },
      ],
    },
  },
  rows: [
    { category: "travel", amount: 5 },
    { category: "food", amount: 3 },
    { category: "travel", amount: 2 },
  ],
  workflow: JSON.stringify({ function: "main", output: "number", steps: [{ return: 1 }] }),
};

module.exports = {
  dialectFixtures,
  TRY_HINT,
  withFakeClock,
  tracked,
  ptcWasm,
  sameJson,
  sleep,
  checkExpectation,
  mockAnswer,
  mockTools,
  corpusOptions,
  caseLines,
  loadCaseFiles,
  atCase,
};
