// The public API of the npm package: run, validate, formatError, operations,
// option checking, robustness against bad programs, the memory contract across
// turns, non-mutation of the caller's data, and loading the package by name.
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { ptcWasm } = require("./helpers.cjs");

const repoRoot = path.join(__dirname, "../..");

let rt;
beforeAll(async () => {
  rt = await ptcWasm.createRuntime();
});

// The example of the issue (spec 7.1): travel expenses, filtered and summed.
const expensesProgram = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "expenses" },
      { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
      { op: "sum", field: "amount" },
    ],
  },
};
const expenses = [
  { id: 1, category: "travel", amount: 1000 },
  { id: 2, category: "food", amount: 42.25 },
  { id: 3, category: "travel", amount: 200.5 },
  { id: 4, category: "office", amount: 99 },
  { id: 5, category: "travel", amount: 34 },
];

function expectMetrics(metrics) {
  expect(metrics).toEqual({
    durationMs: expect.any(Number),
    memoryBytes: expect.any(Number),
    toolCalls: expect.any(Number),
    toolMs: expect.any(Number),
    payloadMs: expect.any(Number),
  });
  for (const v of Object.values(metrics)) {
    expect(Number.isFinite(v)).toBe(true);
    expect(v).toBeGreaterThanOrEqual(0);
  }
}

function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe("run", () => {
  test("the issue's example: expenses filter + sum, as an object", async () => {
    const r = await rt.run(expensesProgram, { context: { expenses } });
    expect(r).toEqual({ ok: true, result: 1234.5, memoryDelta: {}, memory: {}, metrics: expect.any(Object) });
    expectMetrics(r.metrics);
    expect(r.metrics.toolCalls).toBe(0);
    expect(r.metrics.toolMs).toBe(0);
    expect(r.metrics.memoryBytes).toBeGreaterThan(0);
  });

  test("the same program as JSON text gives the same result", async () => {
    const r = await rt.run(JSON.stringify(expensesProgram, null, 2), { context: { expenses } });
    expect(r.ok).toBe(true);
    expect(r.result).toBe(1234.5);
    expect(r.memoryDelta).toEqual({});
    expect(r.memory).toEqual({});
    expectMetrics(r.metrics);
  });

  test("other top-level keys besides program are ignored", async () => {
    const r = await rt.run({ ...expensesProgram, comment: "by an agent", version: 2 }, { context: { expenses } });
    expect(r.ok && r.result).toBe(1234.5);
  });

  test("options are optional", async () => {
    const r = await rt.run('{"program": {"op": "add", "left": 1, "right": 2}}');
    expect(r).toMatchObject({ ok: true, result: 3, memoryDelta: {}, memory: {} });
    expect(Number.isInteger(r.result)).toBe(true);
  });

  test("a missing context key loads as null", async () => {
    const r = await rt.run({ program: { op: "load", name: "nothing" } }, { context: { other: 1 } });
    expect(r).toMatchObject({ ok: true, result: null });
  });

  test("an execution error comes back as a value with a path and metrics", async () => {
    const r = await rt.run({ program: { op: "pipe", steps: [{ op: "literal", value: 3 }, { op: "count" }] } });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toMatch(/count/);
    expect(typeof r.error.path).toBe("string");
    expect(r.error.path.startsWith("/program")).toBe(true);
    expectMetrics(r.metrics);
  });
});

describe("validate", () => {
  const filer = '{"program": {"op": "pipe", "steps": [{"op": "load", "name": "x"}, {"op": "filer"}]}}';

  test("a valid program is ok, synchronously", () => {
    const r = rt.validate(expensesProgram);
    expect(r).toEqual({ ok: true });
    expect(rt.validate(JSON.stringify(expensesProgram))).toEqual({ ok: true });
  });

  test("an unknown operation is a validation_error with path and did-you-mean", () => {
    const r = rt.validate(filer);
    expect(r).toEqual({
      ok: false,
      error: {
        type: "validation_error",
        code: "unknown_op",
        message: "Unknown operation 'filer'. Did you mean 'filter'?",
        path: "/program/steps/1",
      },
    });
  });

  test("an unknown field suggests the right one", () => {
    const r = rt.validate({
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "x" },
          { op: "filter", wher: { op: "eq", value: 1 } },
        ],
      },
    });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("validation_error");
    expect(r.error.message).toContain("Did you mean 'where'?");
    expect(r.error.path.startsWith("/program/steps/1")).toBe(true);
  });

  test("invalid JSON is a parse_error with a byte position", () => {
    const r = rt.validate('{"program": {"op": }');
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("parse_error");
    expect(r.error.position).toBe(19);
  });

  test("validate never runs the program: tools, context are untouched", () => {
    const calls = [];
    const tools = { get_users: () => calls.push("get_users"), get_orders: () => calls.push("get_orders") };
    const program = {
      program: {
        op: "pipe",
        steps: [{ op: "call", tool: "get_users" }, { op: "call", tool: "get_orders", args: { q: 1 } }, { op: "count" }],
      },
    };
    expect(rt.validate(program, { tools })).toEqual({ ok: true });
    expect(rt.validate(program)).toEqual({ ok: true });
    expect(calls).toEqual([]);
    // A program that would fail at run time (division by zero) still validates.
    expect(rt.validate({ program: { op: "div", left: 1, right: 0 } })).toEqual({ ok: true });
  });

  test("with tools, an unknown tool is a validation_error at /tool with did-you-mean", () => {
    let called = false;
    const tools = {
      get_users: () => {
        called = true;
      },
    };
    const program = {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "x" },
          { op: "call", tool: "get_user" },
        ],
      },
    };
    for (const t of [tools, ["get_users"]]) {
      const r = rt.validate(program, { tools: t });
      expect(r.ok).toBe(false);
      expect(r.error.type).toBe("validation_error");
      expect(r.error.path).toBe("/program/steps/1/tool");
      expect(r.error.path.endsWith("/tool")).toBe(true);
      expect(r.error.message).toContain("Unknown tool 'get_user'");
      expect(r.error.message).toContain("Did you mean 'get_users'?");
    }
    expect(called).toBe(false);
  });

  test("without tools, tool names are not checked", () => {
    expect(rt.validate({ program: { op: "call", tool: "whatever_tool" } })).toEqual({ ok: true });
  });

  test("maxDepth applies to validate", () => {
    let node = { op: "literal", value: 1 };
    for (let i = 0; i < 9; i++) node = { op: "not", condition: node }; // depth 10
    expect(rt.validate({ program: node }, { maxDepth: 10 })).toEqual({ ok: true });
    const r = rt.validate({ program: node }, { maxDepth: 9 });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("validation_error");
  });

  test("validate of a non-serializable object is a parse_error, not a throw", () => {
    const program = { program: { op: "literal" } };
    program.program.value = program;
    const r = rt.validate(program);
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("parse_error");
  });
});

describe("formatError", () => {
  test("validation error: '<Type> at <path>: <message>'", () => {
    const r = rt.validate('{"program": {"op": "pipe", "steps": [{"op": "load", "name": "x"}, {"op": "filer"}]}}');
    expect(rt.formatError(r.error)).toBe(
      "ValidationError at /program/steps/1: Unknown operation 'filer'. Did you mean 'filter'?",
    );
  });

  test("parse error: 'ParseError at position N: <message>'", () => {
    const r = rt.validate('{"program": {"op": }');
    expect(r.error.position).toBe(19);
    expect(rt.formatError(r.error)).toBe(`ParseError at position 19: ${r.error.message}`);
  });

  test("every type, with and without path", () => {
    const cases = [
      [{ type: "parse_error", message: "m1" }, "ParseError: m1"],
      [{ type: "parse_error", message: "m2", position: 7 }, "ParseError at position 7: m2"],
      [{ type: "validation_error", message: "m3", path: "/program" }, "ValidationError at /program: m3"],
      [{ type: "execution_error", message: "m4", path: "/program/steps/2" }, "ExecutionError at /program/steps/2: m4"],
      [{ type: "execution_error", message: "m5" }, "ExecutionError: m5"],
      [{ type: "timeout", message: "m6" }, "Timeout: m6"],
      [{ type: "memory_exceeded", message: "m7" }, "MemoryExceeded: m7"],
    ];
    for (const [error, text] of cases) expect(rt.formatError(error)).toBe(text);
  });

  test("formats a real execution error from run", async () => {
    const r = await rt.run({ program: { op: "div", left: 1, right: 0 } });
    expect(r.ok).toBe(false);
    const line = rt.formatError(r.error);
    expect(line.startsWith("ExecutionError")).toBe(true);
    expect(line).toContain("division by zero");
    expect(line).toBe(`ExecutionError${r.error.path ? ` at ${r.error.path}` : ""}: ${r.error.message}`);
  });
});

describe("operations", () => {
  // Which operations exist, and which read the current value, is checked from
  // the table itself in op-table.test.cjs (no hand-kept lists).
  test("every operation has fields, a description and an example that validates", () => {
    for (const op of rt.operations()) {
      expect(typeof op.description).toBe("string");
      expect(op.description.length).toBeGreaterThan(5);
      expect(typeof op.category).toBe("string");
      expect(typeof op.shape).toBe("string");
      expect(Array.isArray(op.fields)).toBe(true);
      for (const f of op.fields) {
        expect(typeof f.name).toBe("string");
        expect(typeof f.kind).toBe("string");
        expect(["required", "optional", "one_of"]).toContain(f.presence);
        expect(typeof f.description).toBe("string");
      }
      expect(op.example.op).toBe(op.name);
      const fieldNames = op.fields.map((f) => f.name);
      for (const key of Object.keys(op.example)) if (key !== "op") expect(fieldNames).toContain(key);
      expect({ op: op.name, check: rt.validate({ program: op.example }) }).toEqual({
        op: op.name,
        check: { ok: true },
      });
    }
  });

  test("field requirements match the spec for a few operations (with the fields the language added)", () => {
    const byName = Object.fromEntries(rt.operations().map((o) => [o.name, o]));
    const presence = (op) => Object.fromEntries(byName[op].fields.map((f) => [f.name, f.presence]));
    expect(presence("filter")).toEqual({ where: "one_of", value: "one_of", field: "optional", as: "optional" });
    expect(presence("if")).toEqual({ condition: "required", then: "required", else: "required" });
    // name and value, or bindings: the engine checks the two forms (a validation error otherwise).
    expect(presence("let")).toEqual({ name: "optional", value: "optional", bindings: "optional", in: "required" });
    expect(presence("get")).toEqual({ field: "one_of", path: "one_of", default: "optional" });
    expect(presence("call")).toEqual({ tool: "required", args: "optional", get: "optional" });
    expect(presence("sort_by")).toEqual({ field: "optional", order: "optional", by: "optional", key: "optional" });
    expect(presence("count")).toEqual({ where: "optional" });
  });
});

describe("options", () => {
  const program = { program: { op: "literal", value: 1 } };

  test.each([
    ["context is a number", { context: 3 }],
    ["context is a string", { context: "ctx" }],
    ["context is null", { context: null }],
    ["context is an array", { context: [1, 2] }],
    ["memory is a number", { memory: 5 }],
    ["memory is an array", { memory: [] }],
    ["tools is a string", { tools: "get_users" }],
    ["timeoutMs is negative", { timeoutMs: -1 }],
    ["timeoutMs is zero", { timeoutMs: 0 }],
    ["timeoutMs is NaN", { timeoutMs: NaN }],
    ["timeoutMs is a string", { timeoutMs: "100" }],
    ["maxHeapBytes is negative", { maxHeapBytes: -1024 }],
    ["maxDepth is zero", { maxDepth: 0 }],
  ])("%s → TypeError", async (_name, options) => {
    await expect(rt.run(program, options)).rejects.toThrow(TypeError);
  });

  test("a bad option does not call any tool", async () => {
    let called = 0;
    await expect(
      rt.run({ program: { op: "call", tool: "t" } }, { tools: { t: () => called++ }, timeoutMs: -5 }),
    ).rejects.toThrow(/timeoutMs/);
    expect(called).toBe(0);
    expect(rt.activeRuns).toBe(0);
  });
});

describe("run never throws for a bad program", () => {
  const cyclic = { program: { op: "literal" } };
  cyclic.program.value = cyclic;
  let deep = 1;
  for (let i = 0; i < 20000; i++) deep = [deep];

  test("a non-serializable program object (cycle) → parse_error result", async () => {
    const r = await rt.run(cyclic);
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("parse_error");
  });

  test.each([
    ["garbage text", "this is not json"],
    ["empty text", ""],
    ["truncated text", '{"program": {"op": "literal", "value": [1, 2'],
    ["trailing garbage", '{"program": {"op": "literal", "value": 1}} trailing'],
    ["null", null],
    ["undefined", undefined],
    ["a number", 42],
    ["a number as text", "42"],
    ["a boolean", true],
    ["an empty array", []],
    ["an array of programs", [{ program: { op: "literal", value: 1 } }]],
    ["an empty object", {}],
    ["program is a number", { program: 3 }],
    ["program is a string", { program: "pipe" }],
    ["a BigInt inside", { program: { op: "literal", value: 10n } }],
    ["text nested 5000 levels", `{"program": {"op": "literal", "value": ${"[".repeat(5000)}${"]".repeat(5000)}}}`],
    ["an object nested 20000 levels", { program: { op: "literal", value: deep } }],
  ])("%s → parse_error", async (_name, program) => {
    const r = await rt.run(program);
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("parse_error");
    expect(typeof r.error.message).toBe("string");
    expect(r.error.message.length).toBeGreaterThan(0);
  });

  test.each([
    ["unknown op", { program: { op: "nope" } }],
    ["op is not a string", { program: { op: 5 } }],
    ["missing field", { program: { op: "if", condition: true, then: 1 } }],
    ["bad count", { program: { op: "take", count: -1 } }],
  ])("%s → validation_error", async (_name, program) => {
    const r = await rt.run(program);
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("validation_error");
    expect(r.error.path.startsWith("/program")).toBe(true);
  });

  test("the runtime still works after all of that", async () => {
    const r = await rt.run(expensesProgram, { context: { expenses } });
    expect(r.ok && r.result).toBe(1234.5);
  });
});

describe("multi-turn memory", () => {
  const orders = [
    { id: 1, status: "delivered" },
    { id: 2, status: "pending" },
    { id: 3, status: "delivered" },
    { id: 4, status: "delivered" },
    { id: 5, status: "cancelled" },
  ];
  const deliveredCount = {
    op: "pipe",
    steps: [
      { op: "load", name: "orders" },
      { op: "filter", where: { op: "eq", field: "status", value: "delivered" } },
      { op: "count" },
    ],
  };
  const turn1Programs = {
    "with object": {
      program: {
        op: "let",
        name: "n",
        value: deliveredCount,
        in: { op: "object", fields: { result: { op: "var", name: "n" }, delivered_count: { op: "var", name: "n" } } },
      },
    },
    "as an implicit object": { program: { result: deliveredCount, delivered_count: deliveredCount } },
  };

  for (const [how, turn1] of Object.entries(turn1Programs)) {
    test(`turn 1 ${how} stores delivered_count; turn 2 reads it with var`, async () => {
      const r1 = await rt.run(turn1, { context: { orders } });
      expect(r1).toMatchObject({ ok: true, result: 3, memoryDelta: { delivered_count: 3 } });
      expect(r1.memory).toEqual({ delivered_count: 3 });
      expect(r1.memoryDelta).toEqual({ delivered_count: 3 });

      const r2 = await rt.run({ program: { op: "var", name: "delivered_count" } }, { memory: r1.memory });
      expect(r2).toMatchObject({ ok: true, result: 3, memoryDelta: {}, memory: { delivered_count: 3 } });

      // Without memory, the same turn 2 reads null.
      const r3 = await rt.run({ program: { op: "var", name: "delivered_count" } });
      expect(r3).toMatchObject({ ok: true, result: null });
    });
  }

  test("turn 2 merges its own delta into the memory passed in (last wins)", async () => {
    const r = await rt.run(
      { program: { result: "done", delivered_count: 7, pending: { op: "var", name: "delivered_count" } } },
      { memory: { delivered_count: 3, keep: "me" } },
    );
    expect(r.ok).toBe(true);
    expect(r.result).toBe("done");
    expect(r.memoryDelta).toEqual({ delivered_count: 7, pending: 3 });
    expect(r.memory).toEqual({ delivered_count: 7, pending: 3, keep: "me" });
  });

  test("an object without result is returned whole and merged; a non-object leaves memory alone", async () => {
    const a = await rt.run({ program: { a: 1, b: [2] } }, { memory: { z: 0 } });
    expect(a).toMatchObject({ ok: true, result: { a: 1, b: [2] }, memoryDelta: { a: 1, b: [2] } });
    expect(a.memory).toEqual({ z: 0, a: 1, b: [2] });
    const b = await rt.run({ program: { op: "literal", value: [1, 2] } }, { memory: { z: 0 } });
    expect(b).toMatchObject({ ok: true, result: [1, 2], memoryDelta: {}, memory: { z: 0 } });
  });
});

describe("the caller's data is never mutated", () => {
  test("frozen context, memory and tool results work and stay equal", async () => {
    const context = deepFreeze({ expenses: structuredClone(expenses), extra: { nested: [1, 2, { x: 3 }] } });
    const memory = deepFreeze({ previous: { list: [1, 2, 3] }, count: 2 });
    const toolResult = deepFreeze([
      { id: 1, tags: ["a"] },
      { id: 2, tags: ["b"] },
    ]);
    const before = structuredClone({ context, memory, toolResult });
    const r = await rt.run(
      {
        program: {
          result: {
            op: "pipe",
            steps: [
              { op: "load", name: "expenses" },
              { op: "sort_by", field: "amount", order: "desc" },
              { op: "first" },
            ],
          },
          rows: { op: "call", tool: "rows" },
          extra: { op: "load", name: "extra" },
          previous: { op: "merge", objects: [{ op: "var", name: "previous" }, { added: true }] },
        },
      },
      { context, memory, tools: { rows: async () => toolResult } },
    );
    expect(r.ok).toBe(true);
    expect(r.result).toEqual({ id: 1, category: "travel", amount: 1000 });
    expect(r.memory.previous).toEqual({ list: [1, 2, 3], added: true });
    expect({ context, memory, toolResult }).toEqual(before);
  });

  test("unfrozen inputs: compare with a structuredClone taken before", async () => {
    const context = { expenses: structuredClone(expenses) };
    const memory = { a: { b: [1, { c: 2 }] } };
    const toolResult = { list: [3, 1, 2] };
    const before = structuredClone({ context, memory, toolResult });
    const r = await rt.run(
      {
        program: {
          op: "let",
          name: "t",
          value: { op: "call", tool: "t" },
          in: {
            sorted: { op: "pipe", steps: [{ op: "var", name: "t" }, { op: "get", field: "list" }, { op: "sort_by" }] },
            a: { op: "merge", objects: [{ op: "var", name: "a" }, { b: "replaced" }] },
            e: {
              op: "pipe",
              steps: [
                { op: "load", name: "expenses" },
                { op: "drop", count: 1 },
              ],
            },
          },
        },
      },
      { context, memory, tools: { t: () => toolResult } },
    );
    expect(r.ok).toBe(true);
    expect(r.result.sorted).toEqual([1, 2, 3]);
    expect(r.memory.a).toEqual({ b: "replaced" });
    expect({ context, memory, toolResult }).toEqual(before);
  });

  test("results and returned memory are fresh objects, not the caller's", async () => {
    const context = { rows: [{ id: 1 }, { id: 2 }] };
    const memory = { kept: { deep: [1] } };
    const r = await rt.run({ program: { op: "load", name: "rows" } }, { context, memory });
    expect(r.ok).toBe(true);
    expect(r.result).toEqual(context.rows);
    expect(r.result).not.toBe(context.rows);
    expect(r.memory).not.toBe(memory);
    r.result[0].id = 99;
    r.memory.kept.deep.push(2);
    expect(context.rows[0].id).toBe(1);
    expect(memory.kept.deep).toEqual([1]);
  });
});

describe("only the context keys a program loads matter", () => {
  const cycle = { name: "loop" };
  cycle.self = cycle;
  const context = {
    rows: [{ v: 1 }, { v: 2 }],
    big: 10n,
    fn: () => 1,
    cycle,
    get explodes() {
      throw new Error("getter must not be read");
    },
  };

  test("unserializable values under unloaded keys do not matter", async () => {
    const r = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "load", name: "rows" },
            { op: "sum", field: "v" },
          ],
        },
      },
      { context },
    );
    expect(r).toMatchObject({ ok: true, result: 3 });
  });

  test("a program that loads nothing ignores the whole context", async () => {
    const r = await rt.run({ program: { op: "literal", value: "x" } }, { context });
    expect(r).toMatchObject({ ok: true, result: "x" });
  });

  test.each([["big"], ["cycle"]])("loading '%s' is an execution_error mentioning JSON", async (name) => {
    const r = await rt.run({ program: { op: "load", name } }, { context });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toMatch(/JSON/);
    expect(rt.activeRuns).toBe(0);
  });

  test("inherited properties are not context keys", async () => {
    const r = await rt.run(
      { program: { op: "load", name: "inherited" } },
      { context: Object.create({ inherited: 1 }) },
    );
    expect(r).toMatchObject({ ok: true, result: null });
    const s = await rt.run({ program: { op: "load", name: "toString" } }, { context: {} });
    expect(s).toMatchObject({ ok: true, result: null });
  });

  // A context parsed from JSON may have an own key "__proto__"; load must return its value.
  test("an own '__proto__' key of the context can be loaded", async () => {
    const ctx = JSON.parse('{"__proto__": [1, 2], "other": 3}');
    const r = await rt.run({ program: { op: "load", name: "__proto__" } }, { context: ctx });
    expect(r).toMatchObject({ ok: true, result: [1, 2] });
  });
});

describe("runtime properties", () => {
  test("activeRuns is 0 when idle and engineMemoryBytes is a positive number", () => {
    expect(rt.activeRuns).toBe(0);
    expect(Number.isInteger(rt.engineMemoryBytes)).toBe(true);
    expect(rt.engineMemoryBytes).toBeGreaterThan(0);
  });

  test("two runtimes are independent", async () => {
    const other = await ptcWasm.createRuntime();
    let release;
    const pending = other.run(
      { program: { op: "call", tool: "wait" } },
      {
        tools: { wait: () => new Promise((resolve) => (release = resolve)) },
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(other.activeRuns).toBe(1);
    expect(rt.activeRuns).toBe(0);
    release("ok");
    expect(await pending).toMatchObject({ ok: true, result: "ok" });
    expect(other.activeRuns).toBe(0);
  });
});

describe("loading the package by name", () => {
  const script = `
    const program = { program: { op: "pipe", steps: [
      { op: "load", name: "xs" }, { op: "map", expr: { op: "call", tool: "double", args: { n: { op: "get", path: [] } } } },
      { op: "sum" } ] } };
    const rt = await createRuntime();
    const r = await rt.run(program, { context: { xs: [1, 2, 3] }, tools: { double: async ({ n }) => n * 2 } });
    const v = rt.validate({ program: { op: "filer" } });
    console.log(JSON.stringify({ ok: r.ok, result: r.result, validate: v.error.type,
      ops: rt.operations().some((o) => o.name === "filter_in"), runtime: typeof Runtime }));
  `;
  const expected = { ok: true, result: 12, validate: "validation_error", ops: true, runtime: "function" };
  const node = (args) =>
    JSON.parse(execFileSync(process.execPath, args, { cwd: repoRoot, encoding: "utf8", timeout: 20000 }).trim());

  test("ESM: import { createRuntime } from 'ptc-wasm'", () => {
    const code = `import { createRuntime, Runtime } from "ptc-wasm";\n${script}`;
    expect(node(["--input-type=module", "-e", code])).toEqual(expected);
  });

  test("CJS: require('ptc-wasm')", () => {
    const code = `const { createRuntime, Runtime } = require("ptc-wasm");\n(async () => {${script}})();`;
    expect(node(["-e", code])).toEqual(expected);
  });
});
