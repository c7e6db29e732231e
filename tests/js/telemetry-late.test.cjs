// OpenTelemetry registered after the runtime has run: until a tracer provider
// is registered, runs load nothing of @opentelemetry/api (its spans would be
// no-ops, and loading it cost the first run ~10 ms); once one is, the next run
// reports spans. A file of its own: telemetry.test.cjs registers its provider
// before any run.
const { ptcWasm } = require("./helpers.cjs");

const PROGRAM = { program: { op: "call", tool: "t", args: {} } };

test("a tracer provider registered after the first run gets the spans of the runs after it", async () => {
  const rt = await ptcWasm.createRuntime();
  try {
    const tools = { t: () => 1 };
    expect(await rt.run(PROGRAM, { tools })).toMatchObject({ ok: true, result: 1 });

    const { trace } = require("@opentelemetry/api");
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

    expect(await rt.run(PROGRAM, { tools })).toMatchObject({ ok: true, result: 1 });
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(["execute_tool t", "ptc.run"]);
  } finally {
    rt.close();
  }
});
