// Async host tools: what a tool receives, what it may return, how its failures
// surface, and when (and how often) it is called.
const { ptcWasm, sleep } = require("./helpers.cjs");

let rt;
beforeAll(async () => {
  rt = await ptcWasm.createRuntime();
});
afterEach(() => {
  expect(rt.activeRuns).toBe(0);
});

const call = (tool, args) => ({ program: args === undefined ? { op: "call", tool } : { op: "call", tool, args } });
const randomDelay = () => sleep(Math.floor(Math.random() * 8));

describe("arguments", () => {
  test("absent args arrive as an empty plain object", async () => {
    const seen = [];
    const r = await rt.run(call("t"), { tools: { t: (args) => (seen.push(args), "ok") } });
    expect(r).toMatchObject({ ok: true, result: "ok" });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({});
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
  });

  test("args are evaluated at every depth (an implicit object) against the current value", async () => {
    const seen = [];
    const r = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "load", name: "user" },
            {
              op: "call",
              tool: "lookup",
              args: {
                id: { op: "get", field: "id" },
                total: { op: "add", left: 40, right: 2 },
                literal: "text",
                list: [1, { op: "literal", value: 2 }],
                nested: { kept: { op: "literal", value: 1 } },
                nothing: null,
              },
            },
          ],
        },
      },
      { context: { user: { id: 7 } }, tools: { lookup: (args) => (seen.push(args), args.id * 10) } },
    );
    expect(r).toMatchObject({ ok: true, result: 70 });
    expect(seen).toEqual([
      {
        id: 7,
        total: 42,
        literal: "text",
        list: [1, 2],
        nested: { kept: 1 },
        nothing: null,
      },
    ]);
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
  });

  test("each call gets a fresh args object: mutating it changes nothing", async () => {
    const seen = [];
    const r = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: [1, 2, 3] },
            { op: "map", expr: { op: "call", tool: "t", args: { n: { op: "get", path: [] }, tag: "x" } } },
          ],
        },
      },
      {
        tools: {
          t: (args) => {
            seen.push(structuredClone(args));
            args.tag = "mutated";
            args.n = -1;
            return args.n;
          },
        },
      },
    );
    expect(r).toMatchObject({ ok: true, result: [-1, -1, -1] });
    expect(seen).toEqual([
      { n: 1, tag: "x" },
      { n: 2, tag: "x" },
      { n: 3, tag: "x" },
    ]);
  });
});

describe("results", () => {
  const value = { users: [{ id: 1, name: "Ada", tags: ["x"] }], total: 1.5, flag: false, none: null };

  test("a synchronous tool", async () => {
    expect(await rt.run(call("t"), { tools: { t: () => value } })).toMatchObject({ ok: true, result: value });
  });

  test("an async tool", async () => {
    const r = await rt.run(call("t"), { tools: { t: async () => (await sleep(5), value) } });
    expect(r).toMatchObject({ ok: true, result: value });
    expect(r.metrics.toolCalls).toBe(1);
    expect(r.metrics.toolMs).toBeGreaterThan(0);
    expect(r.metrics.durationMs).toBeGreaterThanOrEqual(r.metrics.toolMs);
  });

  test("a thenable that is not a Promise", async () => {
    const thenable = { then: (resolve) => setTimeout(() => resolve([1, 2]), 1) };
    expect(await rt.run(call("t"), { tools: { t: () => thenable } })).toMatchObject({ ok: true, result: [1, 2] });
  });

  test.each([
    ["sync undefined", () => undefined],
    ["async undefined", async () => {}],
    ["null", () => null],
  ])("%s → null", async (_name, tool) => {
    const r = await rt.run(
      { program: { op: "pipe", steps: [{ op: "call", tool: "t" }, { op: "typeof" }] } },
      { tools: { t: tool } },
    );
    expect(r).toMatchObject({ ok: true, result: "null" });
  });

  test("the result is taken when the tool resolves (later mutation by the tool has no effect)", async () => {
    const list = [1, 2, 3];
    const r = await rt.run(
      {
        program: {
          op: "let",
          name: "a",
          value: { op: "call", tool: "first" },
          in: { op: "let", name: "b", value: { op: "call", tool: "second" }, in: { op: "var", name: "a" } },
        },
      },
      {
        tools: {
          first: async () => {
            setTimeout(() => list.push(99), 0);
            return list;
          },
          second: () => sleep(20).then(() => "done"),
        },
      },
    );
    expect(r).toMatchObject({ ok: true, result: [1, 2, 3] });
  });

  test("the memory contract applies to a tool result that is the final value", async () => {
    const r = await rt.run(call("t"), {
      memory: { old: 0 },
      tools: { t: async () => ({ result: [5], saved: { n: 1 } }) },
    });
    expect(r).toMatchObject({ ok: true, result: [5], memoryDelta: { saved: { n: 1 } } });
    expect(r.memory).toEqual({ old: 0, saved: { n: 1 } });
  });

  const cycle = () => {
    const o = { a: 1 };
    o.self = o;
    return o;
  };
  test.each([
    ["a function", "fn_tool", () => () => 1],
    ["a nested function", "nested_fn", () => ({ ok: 1, f: () => 1 })],
    ["a BigInt", "big_tool", () => 12345678901234567890n],
    ["a cycle", "cycle_tool", cycle],
    ["an async cycle", "async_cycle", async () => cycle()],
    ["NaN", "nan_tool", () => NaN],
    ["NaN inside a list", "nan_inside", async () => [1, NaN]],
    ["Infinity", "inf_tool", () => Infinity],
    ["a symbol", "sym_tool", () => Symbol("s")],
  ])("a tool returning %s → execution_error naming the tool", async (_name, toolName, tool) => {
    const r = await rt.run(call(toolName), { tools: { [toolName]: tool } });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toContain(`'${toolName}'`);
  });
});

describe("failures", () => {
  test.each([
    [
      "throws an Error",
      "thrower",
      () => {
        throw new Error("boom in sync");
      },
      "boom in sync",
    ],
    [
      "throws a string",
      "str_thrower",
      () => {
        throw "plain sync failure";
      },
      "plain sync failure",
    ],
    [
      "rejects with an Error",
      "rejecter",
      async () => {
        throw new Error("kaboom async");
      },
      "kaboom async",
    ],
    [
      "rejects after a delay",
      "late_rejecter",
      () =>
        sleep(5).then(() => {
          throw new TypeError("late failure");
        }),
      "late failure",
    ],
    ["rejects with a string", "str_rejecter", () => Promise.reject("service unavailable"), "service unavailable"],
    [
      "rejects with an object",
      "obj_rejecter",
      () => Promise.reject({ message: "quota exceeded", code: 429 }),
      "quota exceeded",
    ],
  ])("a tool that %s → execution_error with the tool's name and message", async (_name, toolName, tool, text) => {
    const r = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: 1 },
            { op: "call", tool: toolName },
          ],
        },
      },
      { tools: { [toolName]: tool } },
    );
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toContain(toolName);
    expect(r.error.message).toContain(text);
    expect(r.metrics.toolCalls).toBe(1);
  });

  test("the error's path points at the failing call", async () => {
    const tools = { t: () => Promise.reject(new Error("down")) };
    const inPipe = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: 1 },
            { op: "call", tool: "t" },
          ],
        },
      },
      { tools },
    );
    expect(inPipe.error).toMatchObject({ type: "execution_error", path: "/program/steps/1" });
    const inMap = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: [1] },
            { op: "map", expr: { op: "call", tool: "t" } },
          ],
        },
      },
      { tools },
    );
    expect(inMap.error).toMatchObject({ type: "execution_error", path: "/program/steps/1/expr" });
  });

  test("a failing tool stops the run: later tools are not called", async () => {
    const calls = [];
    const r = await rt.run(
      {
        program: {
          op: "concat",
          lists: [
            { op: "call", tool: "a" },
            { op: "call", tool: "b" },
            { op: "call", tool: "c" },
          ],
        },
      },
      {
        maxConcurrency: 1, // calls in program order, one at a time
        tools: {
          a: () => (calls.push("a"), [1]),
          b: async () => {
            calls.push("b");
            throw new Error("b is down");
          },
          c: () => (calls.push("c"), [3]),
        },
      },
    );
    expect(r.ok).toBe(false);
    expect(r.error.message).toContain("b is down");
    expect(calls).toEqual(["a", "b"]);
  });

  test("a tool entry that is not a function → execution_error, not a throw", async () => {
    const r = await rt.run(call("t"), { tools: { t: 42 } });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toContain("'t'");
  });

  test("the runtime keeps working after tool failures", async () => {
    const r = await rt.run(call("t", { x: 1 }), { tools: { t: ({ x }) => x + 1 } });
    expect(r).toMatchObject({ ok: true, result: 2 });
  });
});

describe("order and count of calls", () => {
  function loggingTools(log) {
    const make = (name) => async (args) => {
      log.push(`start ${name}:${JSON.stringify(args)}`);
      await randomDelay();
      log.push(`end ${name}:${JSON.stringify(args)}`);
      return [`${name}${args.i ?? ""}`];
    };
    return { a: make("a"), b: make("b"), c: make("c") };
  }

  test("with maxConcurrency 1, tools run one at a time in program order (concat lists), with random delays", async () => {
    for (let round = 0; round < 5; round++) {
      const log = [];
      const lists = [];
      const want = [];
      for (let i = 0; i < 6; i++) {
        const name = "abc"[i % 3];
        lists.push({ op: "call", tool: name, args: { i } });
        want.push(`start ${name}:{"i":${i}}`, `end ${name}:{"i":${i}}`);
      }
      const r = await rt.run({ program: { op: "concat", lists } }, { tools: loggingTools(log), maxConcurrency: 1 });
      expect(r).toMatchObject({ ok: true, result: ["a0", "b1", "c2", "a3", "b4", "c5"] });
      expect(log).toEqual(want);
      expect(r.metrics.toolCalls).toBe(6);
    }
  });

  test("nested let: a later call sees the earlier result, in order", async () => {
    const log = [];
    const r = await rt.run(
      {
        program: {
          op: "let",
          name: "x",
          value: { op: "call", tool: "a", args: { i: 1 } },
          in: {
            op: "let",
            name: "y",
            value: { op: "call", tool: "b", args: { i: 2, prev: { op: "var", name: "x" } } },
            in: { op: "call", tool: "c", args: { i: 3, prev: { op: "var", name: "y" } } },
          },
        },
      },
      { tools: loggingTools(log) },
    );
    expect(r).toMatchObject({ ok: true, result: ["c3"] });
    expect(log).toEqual([
      'start a:{"i":1}',
      'end a:{"i":1}',
      'start b:{"i":2,"prev":["a1"]}',
      'end b:{"i":2,"prev":["a1"]}',
      'start c:{"i":3,"prev":["b2"]}',
      'end c:{"i":3,"prev":["b2"]}',
    ]);
  });

  test("a call inside map is made once per item, in item order", async () => {
    const seen = [];
    const r = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "load", name: "ids" },
            { op: "map", expr: { op: "call", tool: "fetch", args: { id: { op: "get", path: [] } } } },
          ],
        },
      },
      {
        context: { ids: [5, 3, 9, 1] },
        tools: {
          fetch: async ({ id }) => {
            seen.push(id);
            await randomDelay();
            return { id, sq: id * id };
          },
        },
      },
    );
    expect(r.ok).toBe(true);
    expect(r.result).toEqual([
      { id: 5, sq: 25 },
      { id: 3, sq: 9 },
      { id: 9, sq: 81 },
      { id: 1, sq: 1 },
    ]);
    expect(seen).toEqual([5, 3, 9, 1]);
    expect(r.metrics.toolCalls).toBe(4);
  });

  test("a call inside filter is made once per item", async () => {
    const seen = [];
    const r = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }] },
            { op: "filter", where: { op: "call", tool: "keep", args: { n: { op: "get", field: "n" } } } },
            { op: "map", expr: { op: "get", field: "n" } },
          ],
        },
      },
      { tools: { keep: ({ n }) => (seen.push(n), n % 2 === 0 ? true : null) } },
    );
    expect(r).toMatchObject({ ok: true, result: [2, 4] });
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  test("a call over an empty list is never made", async () => {
    let calls = 0;
    const r = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: [] },
            { op: "map", expr: { op: "call", tool: "t" } },
          ],
        },
      },
      { tools: { t: () => ++calls } },
    );
    expect(r).toMatchObject({ ok: true, result: [] });
    expect(calls).toBe(0);
    expect(r.metrics.toolCalls).toBe(0);
  });

  test("a call in an untaken if branch is not made", async () => {
    for (const condition of [true, false]) {
      const calls = [];
      const r = await rt.run(
        {
          program: {
            op: "if",
            condition: { op: "literal", value: condition },
            then: { op: "call", tool: "yes" },
            else: { op: "call", tool: "no" },
          },
        },
        { tools: { yes: () => (calls.push("yes"), 1), no: () => (calls.push("no"), 2) } },
      );
      expect(r).toMatchObject({ ok: true, result: condition ? 1 : 2 });
      expect(calls).toEqual([condition ? "yes" : "no"]);
      expect(r.metrics.toolCalls).toBe(1);
    }
  });

  test("and/or short-circuit: calls after the deciding condition are not made", async () => {
    const calls = [];
    const tools = { t: () => (calls.push("t"), true) };
    const [no, yes] = [
      { op: "literal", value: false },
      { op: "literal", value: true },
    ];
    const a = await rt.run({ program: { op: "and", conditions: [no, { op: "call", tool: "t" }] } }, { tools });
    const o = await rt.run({ program: { op: "or", conditions: [yes, { op: "call", tool: "t" }] } }, { tools });
    expect(a).toMatchObject({ ok: true, result: false });
    expect(o).toMatchObject({ ok: true, result: true });
    expect(calls).toEqual([]);
  });

  test("a let-bound call is made once even if its variable is read many times", async () => {
    let calls = 0;
    const r = await rt.run(
      {
        program: {
          op: "let",
          name: "v",
          value: { op: "call", tool: "t" },
          in: { op: "add", left: { op: "var", name: "v" }, right: { op: "var", name: "v" } },
        },
      },
      { tools: { t: () => (++calls, 21) } },
    );
    expect(r).toMatchObject({ ok: true, result: 42 });
    expect(calls).toBe(1);
  });
});

describe("unknown tools", () => {
  test("→ validation_error before any tool runs, with path ending in /tool and did-you-mean", async () => {
    const calls = [];
    const r = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "call", tool: "get_users" },
            { op: "call", tool: "get_oders" },
          ],
        },
      },
      { tools: { get_users: () => (calls.push("get_users"), []), get_orders: () => (calls.push("get_orders"), []) } },
    );
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("validation_error");
    expect(r.error.path).toBe("/program/steps/1/tool");
    expect(r.error.message).toContain("get_oders");
    expect(r.error.message).toContain("Did you mean 'get_orders'?");
    expect(calls).toEqual([]);
  });

  test("with no tools at all, any call is a validation_error", async () => {
    const r = await rt.run(call("get_users"));
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("validation_error");
    expect(r.error.path).toBe("/program/tool");
  });

  test.each([["toString"], ["constructor"], ["hasOwnProperty"], ["__proto__"]])(
    "'%s' (an Object.prototype name) is not a tool unless given",
    async (name) => {
      const r = await rt.run(call(name), { tools: { real: () => 1 } });
      expect(r.ok).toBe(false);
      expect(r.error.type).toBe("validation_error");
    },
  );
});

describe("limits on tool results", () => {
  test("a tool result larger than maxHeapBytes → memory_exceeded", async () => {
    const rows = Array.from({ length: 20000 }, (_, i) => ({ id: i, name: `row-${i}` }));
    const r = await rt.run(
      { program: { op: "pipe", steps: [{ op: "call", tool: "rows" }, { op: "count" }] } },
      { tools: { rows: async () => rows }, maxHeapBytes: 1024 * 1024 },
    );
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("memory_exceeded");
    // The same result fits under the default limit.
    const ok = await rt.run(
      { program: { op: "pipe", steps: [{ op: "call", tool: "rows" }, { op: "count" }] } },
      { tools: { rows: async () => rows } },
    );
    expect(ok).toMatchObject({ ok: true, result: 20000 });
  });

  test("a large string tool result → memory_exceeded", async () => {
    const r = await rt.run(call("text"), {
      tools: { text: () => "x".repeat(2 * 1024 * 1024) },
      maxHeapBytes: 1024 * 1024,
    });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("memory_exceeded");
  });
});
