// What a run tells about its tool calls, on the caller's side where the tools
// run (in both modes): the opt-in `trace` of a PTC-JSON run's result, and
// OpenTelemetry spans — one span per run, a child span per tool call, the same
// shape for both dialects — when @opentelemetry/api is there (an optional
// peer: the Node entry loads it once a tracer provider is registered; elsewhere
// pass it to useOpenTelemetry). Without either, a run pays nothing here.
import type { ToolCall, ToolOutcome } from "./driver.js";
import type { PtcError, RunKind, ToolCallTrace } from "../types/public.js";

// The parts of @opentelemetry/api used here, so that it stays optional.
interface Span {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}
interface OtelContext {
  readonly _?: unknown;
}
/** The @opentelemetry/api module (or what of it a run uses). */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string): {
      startSpan(name: string, options?: { attributes?: Record<string, string | number> }, context?: OtelContext): Span;
    };
    setSpan(context: OtelContext, span: Span): OtelContext;
  };
  context: { active(): OtelContext };
}

const SPAN_ERROR = 2; // SpanStatusCode.ERROR

let otelSource: (() => OpenTelemetryApi | undefined) | undefined;
let otel: OpenTelemetryApi | null | undefined; // null: looked for, absent

/**
 * Makes runs report OpenTelemetry spans through this @opentelemetry/api module
 * (null: no spans). The Node entry finds an installed @opentelemetry/api by
 * itself; in browsers pass it: `useOpenTelemetry(await import("@opentelemetry/api"))`.
 */
export function useOpenTelemetry(api: OpenTelemetryApi | null): void {
  otel = api;
}

/** @internal the Node entry: where to look for the module, on the first run. */
export function findOpenTelemetryWith(source: () => OpenTelemetryApi | undefined): void {
  otelSource = source;
}

// Where @opentelemetry/api 1.x keeps what the application registered. Until a
// tracer provider is registered there, every span it would make is a no-op:
// the module is not loaded (a require of ~10 ms, in the first run's time) and
// no run makes an observer, until one is. Looked at again on every run, so a
// provider registered later is picked up from the next run on.
const OTEL_GLOBAL = Symbol.for("opentelemetry.js.api.1");
const tracerRegistered = () =>
  (globalThis as { [OTEL_GLOBAL]?: { trace?: unknown } })[OTEL_GLOBAL]?.trace !== undefined;

function openTelemetry(): OpenTelemetryApi | null {
  if (otel === undefined) {
    if (!tracerRegistered()) return null;
    try {
      otel = otelSource?.() ?? null;
    } catch {
      otel = null;
    }
  }
  return otel;
}

const TRACE_OUTCOME: Record<ToolOutcome["kind"], ToolCallTrace["outcome"]> = {
  value: "value",
  failure: "failure",
  callTimeout: "failure",
  fault: "fault",
  timeout: "timeout",
  abort: "abort",
  hold: "suspended",
  end: "failure",
};

function outcomeError(outcome: ToolOutcome): string | undefined {
  switch (outcome.kind) {
    case "value":
      return undefined;
    case "failure":
    case "fault":
      return outcome.message;
    case "callTimeout":
      return `no answer within ${outcome.toolTimeoutMs} ms (toolTimeoutMs)`;
    case "timeout":
      return `the run's time limit (${outcome.timeoutMs} ms) struck while the call was out`;
    case "abort":
      return outcome.reason;
    case "end":
      return outcome.message;
    case "hold":
      return undefined;
  }
}

type RunEnd = { ok: boolean; error?: PtcError; metrics?: { toolCalls: number } };

/** One run's observer: created only when the run asked for a trace or spans are on. */
export class RunObserver {
  private readonly calls: ToolCallTrace[] = [];
  private readonly span?: Span;
  private readonly context?: OtelContext;
  private readonly started = performance.now();
  private ended = false;
  // JSON text of the args the trace keeps, bounded by the run's maxHeapBytes.
  private keptBytes = 0;

  private constructor(
    private readonly keepTrace: boolean,
    private readonly maxKeptBytes: number,
    private readonly api: OpenTelemetryApi | null,
    dialect: string,
  ) {
    if (!api) return;
    this.span = api.trace.getTracer("ptc-wasm").startSpan("ptc.run", { attributes: { "ptc.dialect": dialect } });
    this.context = api.trace.setSpan(api.context.active(), this.span);
  }

  /**
   * An observer for a run, or undefined when nothing would be observed. The
   * span's "ptc.dialect" is the run's public RunKind ("workflow": step functions).
   */
  static start(dialect: RunKind, trace: boolean, maxKeptBytes: number): RunObserver | undefined {
    const api = openTelemetry();
    return trace || api ? new RunObserver(trace, maxKeptBytes, api, dialect) : undefined;
  }

  // The args a trace keeps count toward maxHeapBytes: past it, the run ends.
  private overBudget(call: ToolCall): ToolOutcome | undefined {
    if (!this.keepTrace) return undefined;
    this.keptBytes += JSON.stringify(call.args).length;
    if (this.keptBytes <= this.maxKeptBytes) return undefined;
    return {
      kind: "end",
      code: "memory_exceeded",
      path: call.path,
      message:
        `The args of this run's tool calls, kept for its trace, passed maxHeapBytes (${this.maxKeptBytes} bytes ` +
        `of JSON text) at the call of '${call.tool}': pass smaller args, leave trace off, or raise maxHeapBytes`,
    };
  }

  /** Records one call, from now until `outcome` settles. */
  call(call: ToolCall, outcome: Promise<ToolOutcome>): Promise<ToolOutcome> {
    const over = this.overBudget(call);
    if (over) return Promise.resolve(over);
    const started = performance.now();
    const entry: ToolCallTrace = {
      id: call.id,
      tool: call.tool,
      path: call.path,
      args: call.args,
      outcome: "abandoned",
      startMs: started - this.started,
      durationMs: 0,
    };
    if (this.keepTrace) this.calls.push(entry);
    const span = this.api?.trace.getTracer("ptc-wasm").startSpan(
      `execute_tool ${call.tool}`,
      {
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": call.tool,
          "gen_ai.tool.call.id": String(call.id),
          "ptc.tool.path": call.path,
        },
      },
      this.context,
    );
    return outcome.then((o) => {
      if (this.ended) {
        span?.setAttribute("ptc.tool.outcome", "abandoned"); // answered after the run ended
        span?.end();
        return o;
      }
      entry.durationMs = performance.now() - started;
      entry.outcome = TRACE_OUTCOME[o.kind];
      const error = outcomeError(o);
      if (error !== undefined) entry.error = error;
      if (o.kind === "value") entry.resultSize = o.text.length;
      if ((o.kind === "value" || o.kind === "failure") && o.from) entry.answeredBy = o.from;
      if (span) {
        span.setAttribute("ptc.tool.outcome", entry.outcome);
        if (entry.answeredBy) span.setAttribute("ptc.tool.answered_by", entry.answeredBy);
        if (entry.resultSize !== undefined) span.setAttribute("ptc.tool.result_size", entry.resultSize);
        if (error !== undefined) span.setStatus({ code: SPAN_ERROR, message: error });
        span.end();
      }
      return o;
    });
  }

  /** Ends the run's span; adds the trace to the result when it was asked for. */
  finish<R extends RunEnd>(result: R): R {
    this.ended = true;
    if (this.span) {
      this.span.setAttribute("ptc.ok", result.ok);
      if (result.metrics) this.span.setAttribute("ptc.tool_calls", result.metrics.toolCalls);
      if (result.error) {
        this.span.setAttribute("ptc.error.type", result.error.type);
        this.span.setStatus({ code: SPAN_ERROR, message: result.error.message });
      }
      this.span.end();
    }
    if (this.keepTrace) (result as { trace?: ToolCallTrace[] }).trace = this.calls;
    return result;
  }
}
