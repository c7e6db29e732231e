// Tools as descriptors {description, parameters, execute}: args checked against
// the JSON Schema before execute runs (in-process and worker runtimes alike);
// and runtime.formatError's repair hints.
const { z } = require("zod");
const { ptcWasm } = require("./helpers.cjs");

let inProcess, worker;
beforeAll(async () => {
  inProcess = await ptcWasm.createRuntime();
  worker = await ptcWasm.createRuntime({ worker: true });
});
afterAll(() => worker.close());

function searchTool(calls) {
  return {
    description: "Search orders.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1 },
        limit: { type: "integer", minimum: 1 },
        filters: { type: "object", properties: { tags: { type: "array", items: { type: "string" } } } },
        "a/b": { type: "boolean" },
      },
      required: ["query"],
      additionalProperties: false,
    },
    execute: async (args) => {
      calls.push(args);
      return [{ id: 1, query: args.query }];
    },
  };
}

const call = (args) => ({
  program: {
    op: "pipe",
    steps: [
      { op: "literal", value: 1 },
      { op: "call", tool: "search", args },
    ],
  },
});

describe.each([
  ["in-process", () => inProcess],
  ["worker", () => worker],
])("%s runtime", (_mode, rt) => {
  test("args that match the parameters reach execute", async () => {
    const calls = [];
    const r = await rt().run(call({ query: "lamp", limit: 2, filters: { tags: ["x"] } }), {
      tools: { search: searchTool(calls) },
    });
    expect(r).toMatchObject({ ok: true, result: [{ id: 1, query: "lamp" }] });
    expect(calls).toEqual([{ query: "lamp", limit: 2, filters: { tags: ["x"] } }]);
  });

  test.each([
    ["a wrong type", { query: "lamp", limit: "ten" }, "/limit", 'expected integer, got string "ten"'],
    ["a missing required arg", { limit: 2 }, "/query", "the required arg 'query' is missing"],
    ["an arg the tool does not take", { query: "lamp", extra: 1 }, "/extra", "'extra' is not a parameter of this tool"],
    [
      "a nested item",
      { query: "lamp", filters: { tags: ["a", 2] } },
      "/filters/tags/1",
      "expected string, got number 2",
    ],
    ["a bound", { query: "lamp", limit: 0 }, "/limit", "0 is less than 1 (got number 0)"],
    ["an escaped key", { query: "lamp", "a/b": "yes" }, "/a~1b", 'expected boolean, got string "yes"'],
    ["an evaluated arg", { query: { op: "add", left: 1, right: 1 } }, "/query", "expected string, got number 2"],
  ])(
    "%s is an execution_error naming the tool, the pointer and what was expected; execute never runs",
    async (_name, args, pointer, expected) => {
      const calls = [];
      const r = await rt().run(call(args), { tools: { search: searchTool(calls) } });
      expect(r.ok).toBe(false);
      expect(r.error.type).toBe("execution_error");
      expect(r.error.path).toBe("/program/steps/1");
      expect(r.error.message).toContain("Tool 'search' failed: invalid args");
      expect(r.error.message).toContain(`at ${pointer}: ${expected}`);
      expect(r.error.message).toContain(expected);
      expect(r.error.message).toContain('"required":["query"]'); // the parameters, to fix the call in one retry
      expect(calls).toEqual([]);
    },
  );

  test("several problems are reported together", async () => {
    const r = await rt().run(call({ q: "lamp", limit: "ten" }), { tools: { search: searchTool([]) } });
    expect(r.error.message).toContain(
      "at /q: 'q' is not a parameter of this tool (its parameters: query, limit, filters, a/b)",
    );
    expect(r.error.message).toContain("at /limit: expected integer");
    expect(r.error.message).toContain("at /query: the required arg 'query' is missing");
  });

  test("a descriptor without parameters takes any args; a plain function still works beside it", async () => {
    const r = await rt().run(
      {
        program: {
          op: "concat",
          lists: [
            { op: "call", tool: "free", args: { anything: [1] } },
            { op: "call", tool: "plain" },
          ],
        },
      },
      { tools: { free: { description: "no schema", execute: (args) => [args] }, plain: () => [2] } },
    );
    expect(r).toMatchObject({ ok: true, result: [{ anything: [1] }, 2] });
  });

  // Issue 33 point 4: a write tool dedupes by its call identity, whatever its schema is written in.
  test("zod, JSON-Schema and defineTool descriptors get the same (args, { runId, callId }) in a gated run", async () => {
    const seen = {};
    const recorder = (name, parameters) => ({
      effect: "write",
      parameters,
      execute: (args, { runId, callId, signal }) => (
        (seen[name] = { args, identity: { runId, callId }, signal }),
        name
      ),
    });
    const tools = {
      zod: recorder("zod", z.object({ id: z.string() })),
      json: recorder("json", { type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
      defined: ptcWasm.defineTool(recorder("defined", z.object({ id: z.string() }))),
    };
    const program = {
      program: {
        op: "list",
        items: ["zod", "json", "defined"].map((tool) => ({ op: "call", tool, args: { id: tool } })),
      },
    };
    const r = await rt().run(program, { tools, journal: true });
    expect(r).toMatchObject({ ok: true, result: ["zod", "json", "defined"] });
    const runId = expect.stringMatching(/./);
    for (const name of ["zod", "json", "defined"])
      expect({ args: seen[name].args, identity: seen[name].identity }).toEqual({
        args: { id: name },
        identity: { runId, callId: expect.stringMatching(/^call-/) },
      });
    expect(new Set(Object.values(seen).map((s) => s.identity.runId)).size).toBe(1);
    // With the call's own signal, never aborted for a call that answered.
    expect(Object.values(seen).map((s) => s.signal.aborted)).toEqual([false, false, false]);
  });

  test("defineTool returns its descriptor as it is: a tool as any other", async () => {
    const descriptor = { parameters: z.object({ n: z.number() }), execute: ({ n }) => n * 2 };
    expect(ptcWasm.defineTool(descriptor)).toBe(descriptor);
    const r = await rt().run(
      { program: { op: "call", tool: "double", args: { n: 4 } } },
      { tools: { double: descriptor } },
    );
    expect(r).toMatchObject({ ok: true, result: 8 });
  });

  test("an entry that is neither a function nor a descriptor is an execution_error naming it", async () => {
    const r = await rt().run({ program: { op: "call", tool: "t" } }, { tools: { t: { description: "no execute" } } });
    expect(r.ok).toBe(false);
    expect(r.error.type).toBe("execution_error");
    expect(r.error.message).toContain("'t' is not a function or a tool descriptor");
  });

  test("a descriptor's execute that throws is the tool's failure", async () => {
    const r = await rt().run(
      { program: { op: "call", tool: "t" } },
      {
        tools: {
          t: {
            execute: () => {
              throw new Error("down");
            },
          },
        },
      },
    );
    expect(r.ok).toBe(false);
    expect(r.error.message).toContain("Tool 't' failed: down");
  });

  test("validate() knows descriptor names", () => {
    const tools = { search: searchTool([]) };
    expect(rt().validate({ program: { op: "call", tool: "search" } }, { tools })).toEqual({ ok: true });
    expect(rt().validate({ program: { op: "call", tool: "serch" } }, { tools }).error.message).toContain(
      "Did you mean 'search'?",
    );
  });
});

describe("formatError: one message to repair a program in one retry", () => {
  const fmt = (program, options) => {
    const r = inProcess.validate(program, options);
    expect(r.ok).toBe(false);
    return inProcess.formatError(r.error, program);
  };
  const shape = (name) => inProcess.operations().find((o) => o.name === name).shape;

  test("type, pointer, message and did-you-mean", () => {
    expect(
      fmt({
        program: {
          op: "pipe",
          steps: [
            { op: "load", name: "x" },
            { op: "filer", where: true },
          ],
        },
      }),
    ).toBe("ValidationError at /program/steps/1: Unknown operation 'filer'. Did you mean 'filter'?");
  });

  test("an unknown op with no close match lists the operations of the table", () => {
    const text = fmt({ program: { op: "frobnicate" } });
    expect(text).toMatch(/^ValidationError at \/program: Unknown operation 'frobnicate'\. Operations: literal, var, /);
    for (const op of inProcess.operations()) expect(text).toContain(op.name);
  });

  test.each([
    ["a missing field", { op: "pipe", steps: [{ op: "load", name: "x" }, { op: "take" }] }, "take", "/program/steps/1"],
    [
      "a field of the wrong kind",
      {
        op: "pipe",
        steps: [
          { op: "load", name: "x" },
          { op: "take", count: "5" },
        ],
      },
      "take",
      "/program/steps/1/count",
    ],
    [
      "an unknown field",
      {
        op: "pipe",
        steps: [
          { op: "load", name: "x" },
          { op: "sort_by", field: "a", ordr: "desc" },
        ],
      },
      "sort_by",
      "/program/steps/1/ordr",
    ],
    [
      "a bad enum",
      {
        op: "pipe",
        steps: [
          { op: "load", name: "x" },
          { op: "sort_by", order: "up" },
        ],
      },
      "sort_by",
      "/program/steps/1/order",
    ],
    [
      "both of a one-of pair",
      {
        op: "pipe",
        steps: [
          { op: "load", name: "x" },
          { op: "get", field: "a", path: ["a"] },
        ],
      },
      "get",
      "/program/steps/1",
    ],
  ])("%s: the op's correct shape from the table", (_name, program, op, path) => {
    const text = fmt({ program });
    expect(text.startsWith(`ValidationError at ${path}: `)).toBe(true);
    expect(text).toContain(`Shape: ${shape(op)}`);
    expect(text.match(/Shape: /g)).toHaveLength(1);
  });

  test("a validation error without a shape gets the shape of the op at its path when the program is given", () => {
    const program = {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "x" },
          { op: "nth", index: -1 },
        ],
      },
    };
    const error = {
      type: "validation_error",
      message: "Field 'index' of 'nth' must be a non-negative integer",
      path: "/program/steps/1/index",
    };
    expect(inProcess.formatError(error, program)).toBe(
      `ValidationError at /program/steps/1/index: ${error.message} Shape: ${shape("nth")}`,
    );
    expect(inProcess.formatError(error, JSON.stringify(program))).toContain(`Shape: ${shape("nth")}`);
    expect(inProcess.formatError(error)).toBe(`ValidationError at /program/steps/1/index: ${error.message}`);
  });

  describe("hints follow error.code, not the message's wording", () => {
    const program = { program: { op: "pipe", steps: [{ op: "load", name: "x" }, { op: "take" }] } };
    const at = "/program/steps/1";
    const hint = (code, message) =>
      inProcess
        .formatError({ type: "validation_error", code, message, path: at }, program)
        .slice(`ValidationError at ${at}: ${message}`.length);
    const operationsList = () =>
      ` Operations: ${inProcess
        .operations()
        .map((o) => o.name)
        .join(", ")}.`;

    test("unknown_op without a suggestion lists the operations, whatever the message says", () => {
      expect(hint("unknown_op", "No such thing.")).toBe(operationsList());
      expect(hint("unknown_op", "No such thing. Did you mean 'take'?")).toBe("");
    });
    test.each(["unknown_tool", "too_deep", "too_large", "bad_option"])("%s gets no shape", (code) => {
      expect(hint(code, "Something.")).toBe("");
    });
    test.each(["missing_field", "wrong_kind", "unknown_field", "conflicting_fields", "bad_value"])(
      "%s gets the shape of the op at its path",
      (code) => {
        expect(hint(code, "Something.")).toBe(` Shape: ${shape("take")}`);
      },
    );
    test("a message that reads like an unknown operation gets the shape when its code says otherwise", () => {
      expect(hint("wrong_kind", "Unknown operation 'x'.")).toBe(` Shape: ${shape("take")}`);
    });
    test("an unknown code is dropped, and the error is formatted as one without a code", () => {
      expect(hint("no_such_code", "Something.")).toBe(` Shape: ${shape("take")}`);
    });
  });

  test("unknown tools list the available ones; execution errors are passed through", async () => {
    const tools = { get_users: () => [] };
    expect(fmt({ program: { op: "call", tool: "get_user" } }, { tools })).toContain("Did you mean 'get_users'?");
    const r = await inProcess.run({ program: { op: "count" } });
    expect(inProcess.formatError(r.error, { program: { op: "count" } })).toBe(
      `ExecutionError at /program: ${r.error.message}`,
    );
  });
});
