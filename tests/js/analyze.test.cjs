// runtime.analyze / analyzeWorkflow: what a program may do, found without
// running it (engine/ptc_json/analysis.cpp, engine/step_functions/analysis.cpp),
// the same in-process and in worker mode.
const { ptcWasm } = require("./helpers.cjs");

const modes = [
  ["in-process", {}],
  ["worker", { worker: true }],
];

describe.each(modes)("%s", (_mode, options) => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime(options);
  });
  afterAll(() => rt.close());

  const noMemory = { reads: [], writes: [], writesUnknown: false };

  test("a map over a loaded list calls its tool per item of the list", () => {
    const program = {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "orders" },
          { op: "filter", where: { op: "eq", field: "status", value: "open" } },
          { op: "map", expr: { op: "call", tool: "get_customer", args: { id: { op: "get", field: "customer" } } } },
        ],
      },
    };
    expect(rt.analyze(program)).toEqual({
      ok: true,
      analysis: {
        tools: [
          {
            name: "get_customer",
            calls: [{ path: "/program/steps/2/expr", count: "per item of /program/steps/1", bounded: false }],
          },
        ],
        context: [{ key: "orders" }],
        memory: noMemory,
        depth: 4,
        nodes: 8,
      },
    });
  });

  test("a loop's calls run at most max times, and calls inside try are caught", () => {
    const program = JSON.stringify({
      program: {
        op: "try",
        expr: {
          op: "loop",
          init: { op: "call", tool: "page", args: { n: 1 } },
          while: { op: "get", field: "next" },
          next: { op: "call", tool: "page", args: { n: { op: "get", field: "next" } } },
          max: 20,
        },
        catch: { op: "call", tool: "alert" },
      },
    });
    expect(rt.analyze(program)).toEqual({
      ok: true,
      analysis: {
        tools: [
          { name: "alert", calls: [{ path: "/program/catch", count: "once", bounded: true }] },
          {
            name: "page",
            calls: [
              { path: "/program/expr/init", count: "once", bounded: true, caught: true },
              { path: "/program/expr/next", count: "at most 20 times", bounded: true, caught: true },
            ],
          },
        ],
        context: [],
        memory: { reads: [], writes: [], writesUnknown: true },
        depth: 4,
        nodes: 8,
      },
    });
  });

  test("let and as bind names; other vars read memory; the final object's keys but result are written", () => {
    const program = {
      program: {
        op: "let",
        bindings: {
          limit: { op: "var", name: "max_items" },
          rows: {
            op: "pipe",
            steps: [
              { op: "load", name: "items" },
              { op: "filter", as: "it", where: { op: "lt", field: "qty", value: { op: "var", name: "limit" } } },
              { op: "map", as: "it", expr: { op: "var", name: "it", field: "sku" } },
            ],
          },
        },
        in: {
          result: { op: "var", name: "rows" },
          last_run: { op: "var", name: "today" },
          seen: { op: "length", value: { op: "var", name: "rows" } },
        },
      },
    };
    const r = rt.analyze(program);
    expect(r.ok && r.analysis.memory).toEqual({
      reads: ["max_items", "today"],
      writes: ["last_run", "seen"],
      writesUnknown: false,
    });
    expect(r.ok && r.analysis.tools).toEqual([]);
    expect(r.ok && r.analysis.context).toEqual([{ key: "items" }]);
  });

  test("an invalid program gives the error validate gives", () => {
    const program = { program: { op: "call", tool: "nope" } };
    const r = rt.analyze(program, { tools: ["get_customer"] });
    expect(r).toEqual(rt.validate(program, { tools: ["get_customer"] }));
    expect(r).toMatchObject({ ok: false, error: { type: "validation_error", path: "/program/tool" } });
  });

  test("a step-function file: call steps once, a for's calls per item of its list", () => {
    const source = JSON.stringify({
      function: "main",
      input: { user: "text", orders: "list any" },
      output: "any",
      steps: [
        { let: "user", call: "get_user", args: { id: "$input.user" } },
        {
          for: "o",
          in: "$input.orders",
          do: [{ call: "ship", args: { order: "$o", to: "$user.address" }, "on-error": { continue: true } }],
        },
      ],
    });
    expect(rt.analyzeWorkflow(source)).toEqual({
      ok: true,
      analysis: {
        tools: [
          { name: "get_user", calls: [{ path: "/0/steps/0", function: "main", count: "once", bounded: true }] },
          {
            name: "ship",
            calls: [
              {
                path: "/0/steps/1/do/0",
                function: "main",
                count: "per item of /0/steps/1/in",
                bounded: false,
                caught: true,
              },
            ],
          },
        ],
        input: ["orders", "user"],
        depth: 2,
        nodes: 3,
      },
    });
    expect(rt.analyzeWorkflow(source, { tools: ["get_user"] })).toEqual(
      rt.validateWorkflow(source, { tools: ["get_user"] }),
    );
  });
});
