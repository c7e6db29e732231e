// Hostile values from the host's side (issue 11): whatever a tool throws,
// rejects with or returns, whatever an abort reason or a getter holds, and
// whatever is passed to formatError, every run settles with a typed result,
// nothing escapes into the process (no exit, no unhandled rejection), healthy
// runs beside them get their answers and the engine keeps no run. Both modes.
const path = require("node:path");
const { execFile } = require("node:child_process");
const { TRY_HINT, ptcWasm, sleep } = require("./helpers.cjs");

const TYPES = ["parse_error", "validation_error", "execution_error", "timeout", "memory_exceeded"];
const MODES = [
  ["in-process", {}],
  ["worker", { worker: true }],
];
const call = { program: { op: "call", tool: "t" } };
const never = () => new Promise(() => {});

// A null-prototype object holding a BigInt: no toString, and JSON.stringify throws.
function poisoned() {
  const value = Object.create(null);
  value.n = 1n;
  return value;
}

function errorWhoseGettersThrow(keys) {
  const error = new Error("hidden");
  void error.stack; // V8 writes the stack on first use, from name and message: before they throw
  for (const key of keys)
    Object.defineProperty(error, key, {
      get: () => {
        throw poisoned();
      },
    });
  return error;
}

/** Settles within `ms`, or says it did not: a bound far above the limits, for runs that used to hang. */
function within(ms, promise) {
  return Promise.race([promise, sleep(ms).then(() => "still pending")]);
}

/** Runs one scenario of tests/js/hostile-host.cjs in a child process; its JSON report. */
function host(mode, scenario) {
  return new Promise((resolve, reject) => {
    const script = path.join(__dirname, "hostile-host.cjs");
    execFile(
      process.execPath,
      [script, mode, scenario],
      { timeout: 120000, maxBuffer: 1 << 26 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`the host exited (${error.code ?? error.signal}): ${stderr.slice(-2000)}`));
        resolve(JSON.parse(stdout.trim().split("\n").pop()));
      },
    );
  });
}

async function withoutMetrics(run) {
  const { metrics: _metrics, ...rest } = await run;
  return rest;
}

const typed = (outcome) =>
  outcome.ok === true || (outcome.ok === false && TYPES.includes(outcome.type) && typeof outcome.message === "string");

describe.each(MODES)("%s", (mode, createOptions) => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime(createOptions);
  });
  afterAll(() => rt.close());

  async function expectNoRunLeft() {
    expect(rt.activeRuns).toBe(0);
    expect(await rt.liveEngineRunsForTesting()).toBe(0);
  }

  test("item 1: a tool that throws or rejects with an unprintable value → execution_error naming the tool", async () => {
    const tools = {
      throws: () => {
        throw poisoned();
      },
      rejects: async () => {
        throw poisoned();
      },
      messageThrows: async () => {
        throw errorWhoseGettersThrow(["message"]);
      },
      allThrow: async () => {
        throw errorWhoseGettersThrow(["message", "name", "toString", "stack"]);
      },
    };
    const results = await Promise.all(
      Object.keys(tools).map((tool) => rt.run({ program: { op: "call", tool } }, { tools })),
    );
    expect(results.map((r) => r.error)).toEqual([
      {
        type: "execution_error",
        code: "tool_failed",
        message: `Tool 'throws' failed: an unprintable value${TRY_HINT}`,
        path: "/program",
      },
      {
        type: "execution_error",
        code: "tool_failed",
        message: `Tool 'rejects' failed: an unprintable value${TRY_HINT}`,
        path: "/program",
      },
      {
        type: "execution_error",
        code: "tool_failed",
        message: `Tool 'messageThrows' failed: Error${TRY_HINT}`,
        path: "/program",
      },
      {
        type: "execution_error",
        code: "tool_failed",
        message: `Tool 'allThrow' failed: an unprintable value${TRY_HINT}`,
        path: "/program",
      },
    ]);
    await expectNoRunLeft();
  });

  test("a huge thrown text is cut to 10,000 characters, saying how much was left out", async () => {
    const r = await rt.run(call, {
      tools: {
        t: () => {
          throw "x".repeat(2e6);
        },
      },
    });
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toBe(`Tool 't' failed: ${"x".repeat(10000)}... (1990000 more characters)${TRY_HINT}`);
  });

  test("item 2: an unprintable abort reason → a typed error, before the start and while a tool is pending", async () => {
    const before = await rt.run(call, { tools: { t: () => 1 }, signal: AbortSignal.abort(poisoned()) });
    expect(before).toEqual({
      ok: false,
      error: {
        type: "execution_error",
        code: "aborted",
        message: "The run was aborted by the caller: an unprintable value",
      },
    });
    const controller = new AbortController();
    const pending = rt.run(call, {
      tools: { t: () => (setTimeout(() => controller.abort(errorWhoseGettersThrow(["message", "name"]))), never()) },
      signal: controller.signal,
    });
    const r = await within(5000, pending);
    expect(r.error).toMatchObject({
      type: "execution_error",
      message: expect.stringContaining("aborted by the caller: an unprintable value"),
    });
    const workflow = JSON.stringify({
      function: "f",
      output: "any",
      steps: [{ let: "x", call: "t", args: {} }, { return: "$x" }],
    });
    const aborted = await rt.runWorkflow(workflow, { tools: { t: () => 1 }, signal: AbortSignal.abort(poisoned()) });
    expect(aborted.error).toEqual({
      type: "execution_error",
      code: "aborted",
      message: "The run was aborted by the caller: an unprintable value",
    });
    await expectNoRunLeft();
  });

  test("item 3: a tool's synchronous throw of an unprintable value settles at once, within timeoutMs", async () => {
    const r = await within(
      5000,
      rt.run(call, {
        timeoutMs: 200,
        tools: {
          t: () => {
            throw poisoned();
          },
        },
      }),
    );
    expect(r).toMatchObject({
      ok: false,
      error: { type: "execution_error", message: `Tool 't' failed: an unprintable value${TRY_HINT}` },
    });
    await expectNoRunLeft();
  });

  test("item 4: five such throws leave no run in the engine", async () => {
    const tools = {
      t: () => {
        throw errorWhoseGettersThrow(["message", "name", "toString"]);
      },
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => rt.run(call, { tools })));
    for (const r of results) expect(r.error?.message).toBe(`Tool 't' failed: an unprintable value${TRY_HINT}`);
    await expectNoRunLeft();
  });

  test("a descriptor whose getters throw fails the call, not the host", async () => {
    const descriptor = { description: "d", execute: () => 1 };
    Object.defineProperty(descriptor, "parameters", {
      get: () => {
        throw poisoned();
      },
      enumerable: true,
    });
    const r = await rt.run(call, { tools: { t: descriptor } });
    expect(r.error).toMatchObject({
      type: "execution_error",
      message: `Tool 't' failed: its descriptor could not be read (an unprintable value)${TRY_HINT}`,
    });
    await expectNoRunLeft();
  });

  test("context, memory and program whose getters throw → typed errors naming what could not be read", async () => {
    const load = { program: { op: "load", name: "k" } };
    const throwing = () => {
      throw poisoned();
    };
    const getterK = Object.defineProperty({}, "k", { get: throwing, enumerable: true });
    expect((await rt.run(load, { context: getterK })).error).toEqual({
      type: "execution_error",
      code: "not_json",
      message: 'The context key "k" is not JSON data: an unprintable value',
    });
    expect((await rt.run(load, { memory: getterK })).error).toEqual({
      type: "execution_error",
      code: "not_json",
      message: "The memory is not JSON data: an unprintable value",
    });
    expect(
      (
        await rt.run({
          get program() {
            return throwing();
          },
        })
      ).error,
    ).toEqual({
      type: "parse_error",
      code: "not_json",
      message: "The program object is not JSON data: an unprintable value",
    });
    await expect(rt.run(load, Object.defineProperty({}, "tools", { get: throwing }))).rejects.toThrow(
      new TypeError("ptc-wasm: options.tools could not be read (an unprintable value)"),
    );
    await expectNoRunLeft();
  });

  test("item 11: formatError of anything but an error is a TypeError; runs in flight are unaffected", async () => {
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    const inFlight = Array.from({ length: 3 }, () =>
      rt.run(
        { program: { op: "pipe", steps: [{ op: "call", tool: "t" }, { op: "sum" }] } },
        { tools: { t: () => gate } },
      ),
    );
    await sleep(20);
    for (const wrong of [
      undefined,
      null,
      "oops",
      { message: "m" },
      { type: "nope", message: "m" },
      { type: "timeout", message: 5 },
      poisoned(),
    ])
      expect(() => rt.formatError(wrong)).toThrow(TypeError);
    expect(() => rt.formatError(undefined)).toThrow(
      "ptc-wasm: formatError takes the error of a failed result, {type, message, path?}: got undefined",
    );
    release([1, 2, 3]);
    for (const r of await Promise.all(inFlight)) expect(r).toMatchObject({ ok: true, result: 6 });
    // A real error still formats; a program that cannot be walked only loses the hint.
    const error = { type: "validation_error", message: "Unknown field 'x'.", path: "/program" };
    expect(
      rt.formatError(
        error,
        new Proxy(
          {},
          {
            get: () => {
              throw poisoned();
            },
          },
        ),
      ),
    ).toBe("ValidationError at /program: Unknown field 'x'.");
    await expectNoRunLeft();
  });

  test("item 17: runWorkflow checks its options as run() does (a TypeError, never a result or a silent default)", async () => {
    const workflow = JSON.stringify({ function: "f", output: "any", steps: [{ return: 1 }] });
    const cases = [
      [
        { timeoutMs: "100" },
        "ptc-wasm: options.timeoutMs must be a positive number of at most 2147483647, got a string",
      ],
      [
        { maxHeapBytes: Infinity },
        "ptc-wasm: options.maxHeapBytes must be a positive number of at most 9007199254740991, got Infinity",
      ],
      [{ timeoutMs: 0 }, "ptc-wasm: options.timeoutMs must be a positive number of at most 2147483647, got 0"],
      [{ tools: [] }, "ptc-wasm: options.tools must be an object"],
      [{ signal: {} }, "ptc-wasm: options.signal must be an AbortSignal"],
    ];
    for (const [options, message] of cases) {
      await expect(rt.runWorkflow(workflow, options)).rejects.toThrow(new TypeError(message));
      await expect(rt.run(call, options)).rejects.toThrow(new TypeError(message));
    }
    await expect(rt.runWorkflow(workflow, { input: 5 })).rejects.toThrow(
      new TypeError("ptc-wasm: options.input must be an object"),
    );
    await expect(rt.runWorkflow(workflow, { entry: 5 })).rejects.toThrow(
      new TypeError("ptc-wasm: options.entry must be a function name"),
    );
    await expect(rt.run(call, null)).rejects.toThrow(new TypeError("ptc-wasm: options must be an object"));
    expect(await rt.runWorkflow(workflow, { timeoutMs: 60000, maxHeapBytes: 1 << 20 })).toMatchObject({
      ok: true,
      result: 1,
    });
  });

  test("item 21: only what JSON.stringify(context) would send can be loaded", async () => {
    const context = { shown: 1 };
    Object.defineProperty(context, "hidden", { value: [{ a: 1 }], enumerable: false });
    Object.setPrototypeOf(context, { inherited: 2 });
    const load = (name) => ({ program: { op: "load", name } });
    expect((await rt.run(load("shown"), { context })).result).toBe(1);
    expect((await rt.run(load("hidden"), { context })).result).toBe(null);
    expect((await rt.run(load("inherited"), { context })).result).toBe(null);
    // The projected path (only a field of each item crosses) hides it too.
    const projected = {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "hidden" },
          { op: "map", expr: { op: "get", field: "a" } },
        ],
      },
    };
    expect(await withoutMetrics(rt.run(projected, { context }))).toEqual(
      await withoutMetrics(rt.run(projected, { context: { shown: 1 } })),
    );
    // toJSON is applied as JSON.stringify applies it: the context's, then each value's with its key.
    const keys = [];
    const viaToJSON = {
      toJSON: () => ({ k: { toJSON: (key) => (keys.push(key), "from toJSON") } }),
      k: "hidden by toJSON",
    };
    expect((await rt.run(load("k"), { context: viaToJSON })).result).toBe("from toJSON");
    expect(keys).toEqual(["k"]);
    // Boxed primitives in a projected list are the primitives JSON writes, as on the JSON path.
    const boxed = { rows: [new Number(5), { a: 2 }] };
    const fields = {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "rows" },
          { op: "map", expr: { op: "get", field: "a" } },
        ],
      },
    };
    expect(await withoutMetrics(rt.run(fields, { context: boxed }))).toEqual(
      await withoutMetrics(rt.run(fields, { context: JSON.parse(JSON.stringify(boxed)) })),
    );
  });

  describe("every odd value, in a child process whose spies on unhandledRejection and uncaughtException must see nothing", () => {
    async function checkedReport(scenario) {
      const report = await host(mode, scenario);
      expect(report.failed).toBeUndefined();
      expect(report.escaped).toEqual([]);
      expect(report.healthy.filter((h) => h !== "right")).toEqual([]);
      expect(report.activeRuns).toBe(0);
      expect(report.liveEngineRuns).toBe(0);
      return Object.entries(report.outcomes);
    }

    test("from tools: thrown, rejected, rejected later, returned, resolved", async () => {
      const outcomes = await checkedReport("tools");
      expect(outcomes.length).toBeGreaterThan(120);
      for (const [label, outcome] of outcomes) {
        expect({ label, typed: typed(outcome) }).toEqual({ label, typed: true });
        if (/^(throws|rejects)/.test(label)) {
          expect({ label, message: outcome.message.slice(0, 17) }).toEqual({ label, message: "Tool 't' failed: " });
          expect(outcome.messageLength).toBeLessThan(10100 + TRY_HINT.length);
        }
      }
      const unprintable = [
        "null-prototype object holding a BigInt",
        "Error whose message, name, toString and stack getters throw",
        "Proxy that throws on every trap",
        "revoked Proxy",
      ];
      for (const name of unprintable)
        for (const channel of ["throws", "rejects", "rejects later"])
          expect(Object.fromEntries(outcomes)[`${channel}: ${name}`]).toMatchObject({
            type: "execution_error",
            message: `Tool 't' failed: an unprintable value${TRY_HINT}`,
          });
      expect(Object.fromEntries(outcomes)["returns: huge string (12 MB)"]).toMatchObject({ type: "memory_exceeded" });
    }, 120000);

    test("as abort reasons: before the start, while a tool is pending, in a step function", async () => {
      for (const [label, outcome] of await checkedReport("aborts"))
        expect({ label, outcome: { ...outcome, message: outcome.message?.slice(0, 35) } }).toMatchObject({
          label,
          outcome: { ok: false, type: "execution_error", message: "The run was aborted by the caller: " },
        });
    }, 120000);

    test("from getters: context, memory, program, options, descriptors, step-function input", async () => {
      for (const [label, outcome] of await checkedReport("getters")) {
        if (/options/.test(label))
          expect({ label, outcome }).toEqual({
            label,
            outcome: {
              rejected: "TypeError",
              message: expect.stringMatching(/^ptc-wasm: options\.\w+ could not be read/),
            },
          });
        else expect({ label, ok: outcome.ok, typed: typed(outcome) }).toEqual({ label, ok: false, typed: true });
      }
    }, 120000);

    test("passed to formatError while runs are in flight", async () => {
      for (const [label, outcome] of await checkedReport("formatError")) {
        if (label.startsWith("run waiting"))
          expect({ label, outcome }).toEqual({ label, outcome: { ok: true, result: "6" } });
        else if (label.includes("a program Proxy"))
          expect(outcome.returned).toMatch(/^ValidationError at \/program: Unknown operation 'filer'\./);
        else expect({ label, rejected: outcome.rejected }).toEqual({ label, rejected: "TypeError" });
      }
    }, 120000);
  });
});
