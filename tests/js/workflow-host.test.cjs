// What the host adds to a step-function run, in both modes: a tool result that
// is not JSON data is a fault of the host (an execution_error naming the tool,
// which no on-error or compensate sees), and a call that times out or is
// aborted is traced with its own outcome (docs/step-functions.md).
const { ptcWasm } = require("./helpers.cjs");

const checkout = [
  {
    function: "f",
    output: "result text text",
    steps: [
      { let: "r", call: "reserve" },
      {
        let: "x",
        call: "get",
        "on-error": { compensate: [{ call: "release", args: { id: "$r" } }], return: { error: "caught: $error" } },
      },
      { return: { ok: "$x" } },
    ],
  },
]
  .map((f) => JSON.stringify(f))
  .join("\n");

const cycle = () => {
  const o = { a: 1 };
  o.self = o;
  return o;
};
const NOT_JSON = [
  ["a BigInt", () => 12345678901234567890n, "a BigInt"],
  ["a BigInt inside an object", async () => ({ id: 1n }), "a BigInt"],
  ["NaN", () => NaN, "NaN"],
  ["Infinity in a list", async () => [1, -Infinity], "-Infinity"],
  ["a cycle", cycle, "a cycle"],
  ["a function", () => () => 1, "a function"],
  ["a symbol", async () => Symbol("s"), "a symbol"],
  ["a Map", () => new Map([["a", 1]]), "a Map"],
  ["a Set", async () => new Set([1]), "a Set"],
  [
    "a toJSON that throws",
    () => ({
      toJSON() {
        throw new Error("no");
      },
    }),
    "threw while being read",
  ],
];

for (const worker of [false, true]) {
  describe(worker ? "worker mode" : "in-process", () => {
    let rt;
    beforeAll(async () => {
      rt = await ptcWasm.createRuntime({ worker });
    });
    afterAll(() => rt.close());

    test.each(NOT_JSON)(
      "a tool returning %s ends the run: on-error and compensate never see it",
      async (_name, get, detail) => {
        const released = [];
        const tools = { reserve: () => "r1", get, release: (args) => released.push(args) };
        const r = await rt.runWorkflow(checkout, { tools });
        expect(r.ok).toBe(false);
        expect(r.error).toMatchObject({ type: "execution_error", path: "/0/steps/1" });
        expect(r.error.message).toMatch(/^Tool 'get' returned a value that is not JSON data: /);
        expect(r.error.message).toContain(detail);
        expect(released).toEqual([]);
        expect(r.trace.map((t) => [t.tool, t.outcome])).toEqual([
          ["reserve", "value"],
          ["get", "failure"],
        ]);
        expect(r.trace[1].error).toBe(r.error.message);
      },
    );

    test("the same value in a PTC-JSON program is an execution_error naming the tool, at the call", async () => {
      const r = await rt.run(
        { program: { op: "pipe", steps: [1, { op: "call", tool: "get" }] } },
        { tools: { get: () => 1n } },
      );
      expect(r.error).toEqual({
        type: "execution_error",
        code: "bad_tool_result",
        path: "/program/steps/1",
        message: "Tool 'get' returned a value that is not JSON data: a BigInt (convert it to a number or a string)",
      });
    });

    test("a call still pending at the time limit is traced as timeout, with the run's error", async () => {
      const tools = { first: () => 1, slow: () => new Promise(() => {}) };
      const source = JSON.stringify({
        function: "f",
        output: "any",
        steps: [
          { let: "a", call: "first" },
          { let: "b", call: "slow", "on-error": { return: "caught" } },
          { return: "$b" },
        ],
      });
      const r = await rt.runWorkflow(source, { tools, timeoutMs: 100 });
      expect(r.error.type).toBe("timeout");
      expect(r.trace.map((t) => [t.tool, t.outcome])).toEqual([
        ["first", "value"],
        ["slow", "timeout"],
      ]);
      expect(r.trace[1]).not.toHaveProperty("value");
      expect(r.trace[1].error).toBe(r.error.message);
    });

    test("a call pending when the caller aborts is traced as abort", async () => {
      const controller = new AbortController();
      const tools = { slow: () => new Promise(() => {}) };
      const source = JSON.stringify({
        function: "f",
        output: "any",
        steps: [{ for: "x", in: [1], do: [{ call: "slow" }] }],
      });
      const pending = rt.runWorkflow(source, { tools, signal: controller.signal });
      setTimeout(() => controller.abort("stop"), 20);
      const r = await pending;
      expect(r.error).toMatchObject({ type: "execution_error", message: "The run was aborted by the caller: stop" });
      expect(r.trace.map((t) => [t.kind, t.outcome])).toEqual([
        ["for", "abort"],
        ["call", "abort"],
      ]);
    });
  });
}
