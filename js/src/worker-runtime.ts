// Worker mode, the caller's side: runs execute in an engine worker while tools
// run here. The engine enforces the deadline itself; a run still computing well
// past it means the worker is stuck in native code, and only terminating the
// worker stops that (every run on it ends; the next run gets a fresh worker).
import { now, type Dialect, type DoneStatus, type Payload, type Projections, type Timings } from "./driver.js";
import { EngineHost, type PtcRuntime } from "./runtime.js";
import {
  abortedResult,
  checkRunOptions,
  DEFAULT_TIMEOUT_MS,
  engineOptionsJson,
  failure,
  payloadFor,
  programText,
  toRunResult,
} from "./options.js";
import { awaitTool } from "./tools.js";
import type { ProgramInput, PtcError, RunOptions, RunResult, Tool } from "./types.js";
import {
  checkWorkflowOptions,
  toWorkflowResult,
  workflowEngineOptions,
  workflowPayload,
  type WorkflowOptions,
  type WorkflowResult,
} from "./workflows.js";
import type { FromWorker, WorkerPort } from "./worker-protocol.js";

type Failed = { ok: false; error: PtcError };

/** One run as the caller's side tracks it, whatever its dialect. */
interface PendingRun {
  id: number;
  port: WorkerPort;
  started: number;
  deadline: number;
  timeoutMs: number;
  tools: Record<string, Tool>;
  signal?: AbortSignal;
  payload(loads: string[], fields?: Projections): Payload;
  finish(status: DoneStatus, toolMs: number): void;
  payloadMs: number;
  end(result: Failed): void;
  waitingOnTool: boolean;
  watchdog?: ReturnType<typeof setTimeout>;
  onAbort?: () => void;
}

interface Submission<R> {
  dialect: Dialect;
  text: string;
  engineOptions: string;
  timeoutMs: number;
  tools: Record<string, Tool>;
  signal?: AbortSignal;
  payload(loads: string[], fields?: Projections): Payload;
  convert(status: DoneStatus, started: number, timings: Timings): R;
}

/** How long past its deadline a computing run may take before its worker is terminated. */
const graceMs = (timeoutMs: number) => Math.max(100, timeoutMs / 2);

export class WorkerRuntime extends EngineHost implements PtcRuntime {
  private port?: WorkerPort;
  private readonly runs = new Map<number, PendingRun>();
  private nextId = 0;

  /** @internal use createRuntime({ worker: true }) */
  constructor(wasmModule: WebAssembly.Module, private readonly spawn: () => WorkerPort) {
    super(wasmModule);
  }

  async run(program: ProgramInput, options: RunOptions = {}): Promise<RunResult> {
    checkRunOptions(options);
    const text = programText(program);
    if (typeof text !== "string") return text;
    if (options.signal?.aborted) return abortedResult(options.signal);
    return this.submit<RunResult>({
      dialect: "program",
      text,
      engineOptions: engineOptionsJson(options),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      tools: options.tools ?? {},
      signal: options.signal,
      payload: (loads, fields) => payloadFor(options, loads, fields),
      convert: toRunResult,
    });
  }

  async runWorkflow(source: string, options: WorkflowOptions = {}): Promise<WorkflowResult> {
    checkWorkflowOptions(options);
    if (typeof source !== "string") throw new TypeError("ptc-wasm: a step-function file is text");
    if (options.signal?.aborted) return abortedResult(options.signal) as Failed;
    return this.submit<WorkflowResult>({
      dialect: "workflow",
      text: source,
      engineOptions: workflowEngineOptions(options),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      tools: options.tools ?? {},
      signal: options.signal,
      payload: () => workflowPayload(options),
      convert: toWorkflowResult,
    });
  }

  get activeRuns(): number {
    return this.runs.size;
  }

  /** Terminates the worker; runs in flight end with an execution_error. */
  close(): void {
    if (this.port) this.replaceWorker(this.port, undefined, failure("execution_error", "The runtime was closed"));
  }

  private submit<R>(s: Submission<R>): Promise<R> {
    const started = now();
    return new Promise<R>((resolve) => {
      const port = this.workerPort();
      const run: PendingRun = {
        id: ++this.nextId,
        port,
        started,
        deadline: started + s.timeoutMs,
        timeoutMs: s.timeoutMs,
        tools: s.tools,
        signal: s.signal,
        payload: s.payload,
        finish: (status, toolMs) => resolve(s.convert(status, started, { toolMs, payloadMs: run.payloadMs })),
        payloadMs: 0,
        end: (result) => resolve(result as R),
        waitingOnTool: false,
      };
      this.runs.set(run.id, run);
      this.armWatchdog(run, s.timeoutMs + graceMs(s.timeoutMs));
      if (s.signal) {
        run.onAbort = () => this.abort(run);
        s.signal.addEventListener("abort", run.onAbort, { once: true });
      }
      port.post({ type: "run", id: run.id, program: s.text, engineOptions: s.engineOptions, dialect: s.dialect });
    });
  }

  private workerPort(): WorkerPort {
    if (this.port) return this.port;
    const port = this.spawn();
    port.onMessage((message) => this.handle(port, message));
    port.onError((error) =>
      this.replaceWorker(port, undefined, failure("execution_error", `The engine worker failed: ${String(error)}`) as Failed),
    );
    port.post({ type: "init", module: this.wasmModule });
    this.port = port;
    return port;
  }

  private handle(port: WorkerPort, message: FromWorker): void {
    const run = this.runs.get(message.id);
    if (!run || run.port !== port) return;
    switch (message.type) {
      case "payload?": {
        const t = now();
        const payload = run.payload(message.loads, message.fields);
        // Row blocks are a view of a buffer the next payload reuses: post a copy
        // (a posted view would also carry the whole buffer behind it).
        if ("rows" in payload && payload.rows) payload.rows = payload.rows.slice();
        run.payloadMs += now() - t;
        port.post({ type: "payload", id: run.id, payload });
        return;
      }
      case "call": {
        run.waitingOnTool = true;
        void awaitTool(message.tool, run.tools[message.tool], message.args, run.deadline, run.timeoutMs, run.signal).then((outcome) => {
          run.waitingOnTool = false;
          if (this.runs.get(run.id) === run) port.post({ type: "outcome", id: run.id, outcome });
        });
        return;
      }
      case "done":
        this.forget(run);
        run.finish(message.status, message.toolMs);
        return;
    }
  }

  private armWatchdog(run: PendingRun, afterMs: number): void {
    run.watchdog = setTimeout(() => this.watchdog(run), afterMs);
  }

  private watchdog(run: PendingRun): void {
    if (this.runs.get(run.id) !== run) return;
    // Waiting on a tool: awaitTool answers "timeout" at the deadline and the
    // engine ends the run; look again shortly.
    if (run.waitingOnTool) return this.armWatchdog(run, graceMs(run.timeoutMs));
    const message =
      `Execution exceeded the time limit of ${run.timeoutMs} ms (timeoutMs); the worker running it did not stop ` +
      `and was terminated`;
    this.replaceWorker(run.port, run, { ok: false, error: { type: "timeout", message } });
  }

  private abort(run: PendingRun): void {
    if (this.runs.get(run.id) !== run || run.waitingOnTool) return; // a pending tool await handles the abort
    this.replaceWorker(run.port, run, abortedResult(run.signal as AbortSignal) as Failed);
  }

  private replaceWorker(port: WorkerPort, culprit: PendingRun | undefined, result: Failed): void {
    port.terminate();
    if (this.port === port) this.port = undefined;
    const bystander = failure(
      "execution_error",
      "The engine worker running this program was terminated (another run on it exceeded its time limit or " +
        "was aborted); run it again",
    ) as Failed;
    for (const run of [...this.runs.values()]) {
      if (run.port !== port) continue;
      this.forget(run);
      run.end(culprit && run !== culprit ? bystander : result);
    }
  }

  private forget(run: PendingRun): void {
    clearTimeout(run.watchdog);
    if (run.onAbort) run.signal?.removeEventListener("abort", run.onAbort);
    this.runs.delete(run.id);
  }
}
