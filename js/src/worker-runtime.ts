// Worker mode, the caller's side: runs execute in an engine worker while tools
// run here. The engine enforces the deadline itself; a run still computing well
// past it means the worker is stuck in native code, and only terminating the
// worker stops that (every run on it ends; the next run gets a fresh worker).
import { EngineHost, type PtcRuntime } from "./runtime.js";
import {
  abortedResult,
  checkRunOptions,
  DEFAULT_TIMEOUT_MS,
  engineOptionsJson,
  failure,
  now,
  payloadFor,
  programText,
  toRunResult,
} from "./options.js";
import { awaitTool } from "./tools.js";
import type { ProgramInput, RunOptions, RunResult } from "./types.js";
import type { FromWorker, WorkerPort } from "./worker-protocol.js";

interface PendingRun {
  id: number;
  port: WorkerPort;
  options: RunOptions;
  started: number;
  deadline: number;
  timeoutMs: number;
  waitingOnTool: boolean;
  resolve(result: RunResult): void;
  watchdog?: ReturnType<typeof setTimeout>;
  onAbort?: () => void;
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
    const started = now();
    checkRunOptions(options);
    const text = programText(program);
    if (typeof text !== "string") return text;
    if (options.signal?.aborted) return abortedResult(options.signal);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<RunResult>((resolve) => {
      const port = this.workerPort();
      const run: PendingRun = { id: ++this.nextId, port, options, started, deadline: started + timeoutMs, timeoutMs, waitingOnTool: false, resolve };
      this.runs.set(run.id, run);
      this.armWatchdog(run, timeoutMs + graceMs(timeoutMs));
      if (options.signal) {
        run.onAbort = () => this.abort(run);
        options.signal.addEventListener("abort", run.onAbort, { once: true });
      }
      port.post({ type: "run", id: run.id, program: text, engineOptions: engineOptionsJson(options) });
    });
  }

  get activeRuns(): number {
    return this.runs.size;
  }

  /** Terminates the worker; runs in flight end with an execution_error. */
  close(): void {
    if (this.port) this.replaceWorker(this.port, undefined, failure("execution_error", "The runtime was closed"));
  }

  private workerPort(): WorkerPort {
    if (this.port) return this.port;
    const port = this.spawn();
    port.onMessage((message) => this.handle(port, message));
    port.onError((error) =>
      this.replaceWorker(port, undefined, failure("execution_error", `The engine worker failed: ${String(error)}`)),
    );
    port.post({ type: "init", module: this.wasmModule });
    this.port = port;
    return port;
  }

  private handle(port: WorkerPort, message: FromWorker): void {
    const run = this.runs.get(message.id);
    if (!run || run.port !== port) return;
    switch (message.type) {
      case "payload?":
        port.post({ type: "payload", id: run.id, payload: payloadFor(run.options, message.loads) });
        return;
      case "call": {
        run.waitingOnTool = true;
        const tool = run.options.tools?.[message.tool];
        void awaitTool(message.tool, tool, message.args, run.deadline, run.timeoutMs, run.options.signal).then((outcome) => {
          run.waitingOnTool = false;
          if (this.runs.get(run.id) === run) port.post({ type: "outcome", id: run.id, outcome });
        });
        return;
      }
      case "done":
        this.settle(run, toRunResult(message.status, run.started, message.toolMs));
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
    this.replaceWorker(run.port, run, abortedResult(run.options.signal as AbortSignal));
  }

  private replaceWorker(port: WorkerPort, culprit: PendingRun | undefined, result: RunResult): void {
    port.terminate();
    if (this.port === port) this.port = undefined;
    for (const run of [...this.runs.values()]) {
      if (run.port !== port) continue;
      const bystander = failure(
        "execution_error",
        "The engine worker running this program was terminated (another run on it exceeded its time limit or " +
          "was aborted); run it again",
      );
      this.settle(run, culprit && run !== culprit ? bystander : result);
    }
  }

  private settle(run: PendingRun, result: RunResult): void {
    clearTimeout(run.watchdog);
    if (run.onAbort) run.options.signal?.removeEventListener("abort", run.onAbort);
    this.runs.delete(run.id);
    run.resolve(result);
  }
}
