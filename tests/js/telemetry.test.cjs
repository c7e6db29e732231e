// OpenTelemetry spans: with @opentelemetry/api installed (a dev dependency
// here, an optional peer for users), a run is a span and each tool call a
// child span of it, the same shape for both dialects and both modes.
const { diag, DiagLogLevel, trace } = require("@opentelemetry/api");
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");
const { ptcWasm } = require("./helpers.cjs");

// What OpenTelemetry itself says is wrong (a span ended twice, an attribute
// set on an ended span): every test of both modes expects nothing.
const otelWarnings = [];
const keep = (message) => otelWarnings.push(message);
diag.setLogger({ error: keep, warn: keep, info() {}, debug() {}, verbose() {} }, DiagLogLevel.WARN);

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

const ERROR = 2; // SpanStatusCode.ERROR

// The spans of the one run exported since the last reset, as plain data.
function spansOfRun() {
  const spans = exporter.getFinishedSpans();
  const run = spans.find((s) => s.name === "ptc.run");
  const calls = spans
    .filter((s) => s !== run)
    .map((s) => ({
      name: s.name,
      parent: s.parentSpanContext?.spanId,
      traceId: s.spanContext().traceId,
      attributes: s.attributes,
      status: s.status.code,
    }));
  return { run, calls };
}

describe.each([
  ["in-process", {}],
  ["worker", { worker: true }],
])("%s", (_mode, createOptions) => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime(createOptions);
  });
  afterAll(() => rt.close());
  beforeEach(() => {
    exporter.reset();
    otelWarnings.length = 0;
  });
  afterEach(() => expect(otelWarnings).toEqual([]));

  test("a PTC-JSON run: one span, a child span per tool call", async () => {
    const ok = await rt.run(
      {
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: [1, 2] },
            {
              op: "map",
              as: "x",
              expr: { op: "try", expr: { op: "call", tool: "t", args: { x: { op: "var", name: "x" } } }, catch: 0 },
            },
          ],
        },
      },
      { tools: { t: ({ x }) => (x === 2 ? Promise.reject(new Error("down")) : { x }) } },
    );
    expect(ok).toMatchObject({ ok: true, result: [{ x: 1 }, 0] });
    const { run, calls } = spansOfRun();
    expect(run.attributes).toEqual({ "ptc.dialect": "program", "ptc.ok": true, "ptc.tool_calls": 2 });
    expect(calls).toHaveLength(2);
    const byId = Object.fromEntries(calls.map((c) => [c.attributes["gen_ai.tool.call.id"], c]));
    expect(byId["1"]).toEqual({
      name: "execute_tool t",
      parent: run.spanContext().spanId,
      traceId: run.spanContext().traceId,
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "t",
        "gen_ai.tool.call.id": "1",
        "ptc.tool.path": "/program/steps/1/expr/expr",
        "ptc.tool.outcome": "value",
        "ptc.tool.result_size": 7,
      },
      status: 0,
    });
    expect(byId["2"]).toMatchObject({
      parent: run.spanContext().spanId,
      attributes: { "ptc.tool.outcome": "failure" },
      status: ERROR,
    });
  });

  test("a step-function run has the same shape", async () => {
    const source = `{"function": "f", "output": "number",
      "steps": [{"let": "a", "call": "t", "args": {"x": 1}}, {"return": "$a"}]}`;
    const r = await rt.runWorkflow(source, { tools: { t: ({ x }) => x } });
    expect(r).toMatchObject({ ok: true, result: 1 });
    const { run, calls } = spansOfRun();
    expect(run.attributes).toEqual({ "ptc.dialect": "workflow", "ptc.ok": true, "ptc.tool_calls": 1 });
    expect(calls).toEqual([
      {
        name: "execute_tool t",
        parent: run.spanContext().spanId,
        traceId: run.spanContext().traceId,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "t",
          "gen_ai.tool.call.id": "1",
          "ptc.tool.path": "/0/steps/0",
          "ptc.tool.outcome": "value",
          "ptc.tool.result_size": 1,
        },
        status: 0,
      },
    ]);
  });

  test("a failed run's span has the error status and type", async () => {
    const failed = await rt.run(
      { program: { op: "call", tool: "t" } },
      { tools: { t: () => Promise.reject(new Error("x")) } },
    );
    expect(failed.ok).toBe(false);
    const { run } = spansOfRun();
    expect(run.status).toEqual({ code: ERROR, message: failed.error.message });
    expect(run.attributes["ptc.error.type"]).toBe("execution_error");
  });
});
