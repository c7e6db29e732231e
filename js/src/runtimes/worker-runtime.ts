// Worker mode, the caller's side: runs execute in an engine worker while tools
// run here. The engine enforces the deadline itself; a run the worker is still
// computing well past its deadline (or past an abort) means the worker is stuck
// in native code, and only terminating the worker stops that. Then the culprit
// gets its timeout (or abort), runs that called no tool yet start again on a
// fresh worker, and the others fail saying why: nothing is lost silently.
import { failedRun, now, type ToolCall, type ToolOutcome } from "../run/driver.js";
import { EngineHost, type PtcRuntime } from "./runtime.js";
import type { StepsLoader } from "./steps-loader.js";
import type { CallerOptions, CallerRun, Failed } from "./caller-run.js";
import { checkLoadOptions } from "../run/checks.js";
import { abortedResult, failure } from "../run/options.js";
import { describeThrown } from "../util/describe.js";
import { loadResult, residentSpec, type LoadOptions, type LoadResult, type ResidentSpec } from "../engine/resident.js";
import { seedResidentHashes } from "../gate/suspension.js";
import type { WasmModule } from "../types/public.js";
import type { EngineSize, FromWorker, ToWorker, WorkerPort } from "./worker-protocol.js";

/** One run as worker mode tracks it: the CallerRun, and where the worker is with it. */
interface PendingRun {
  id: number;
  caller: CallerRun;
  port: WorkerPort;
  /** Tool calls the worker issued for it: a run that made any is not started again. */
  callsMade: number;
  /** Started again on a fresh worker once already (never twice). */
  retried: boolean;
  /** Tool calls out (running here). */
  toolsOut: number;
  /**
   * The order of the oldest message the worker has not answered yet for this
   * run (undefined while the caller holds the run: waiting on tools), and of
   * the later ones (outcomes of calls that ended together).
   */
  pending?: number;
  later: number[];
  /** When that message was sent. */
  sentAt: number;
  /** Aborted while the worker held it: settled already; its next step ends it in the worker. */
  abandoned: boolean;
  resolve(result: object): void;
  watchdog?: ReturnType<typeof setTimeout>;
  onAbort?: () => void;
}

/** How long past its deadline a computing run may take before its worker is terminated. */
const graceMs = (timeoutMs: number) => Math.max(100, timeoutMs / 2);
/** How long the worker may keep computing an aborted run before it is terminated. */
const ABORT_GRACE_MS = 100;

const ABANDONED = "The run was aborted by the caller";

export class WorkerRuntime extends EngineHost implements PtcRuntime {
  // Named here: the bundles are minified without keepNames (it cost half a
  // millisecond of every import), and a public class keeps its name.
  static {
    Object.defineProperty(this, "name", { value: "WorkerRuntime" });
  }

  private port?: WorkerPort;
  private readonly runs = new Map<number, PendingRun>();
  private nextId = 0;
  private sent = 0;
  private workersStarted = 0;
  // When the current worker last answered anything: the message it is busy
  // with now was taken up no earlier.
  private lastAnswerAt = 0;

  /** @internal use createRuntime({ worker: true }) */
  constructor(
    wasmModule: WasmModule,
    private readonly spawn: () => WorkerPort,
    recycleEngineBytes?: number,
    loadStepsModule?: StepsLoader,
    started?: WorkerPort,
  ) {
    super(wasmModule, recycleEngineBytes, loadStepsModule);
    // A worker started while the module loaded: its engine starts now, before the first run.
    if (started) this.workerPort(started);
  }

  // The worker runs step-function files on the module with both dialects, once loaded.
  protected stepFunctionsLoaded(module: WasmModule): void {
    this.port?.post({ type: "steps", module });
  }

  // Resident contexts are kept by the worker; a fresh worker is sent them again
  // before its first run that needs one.
  private readonly residentSent = new WeakMap<WorkerPort, Set<number>>();
  private readonly residentAnswers = new Map<number, (status: string) => void>();
  // The data held once: loaded contexts by id, and the packed text the worker
  // sent back ("packed", worker-core.ts), which replaces the spec's text here.
  private readonly residentSpecs = new Map<number, ResidentSpec>();
  private readonly residentPacked = new Map<number, Uint8Array>();

  async load(context: Record<string, unknown>, options: LoadOptions = {}): Promise<LoadResult> {
    options = checkLoadOptions(options);
    const made = residentSpec(context, options);
    if (!("spec" in made)) return made;
    const spec = made.spec;
    const port = this.workerPort();
    const status = await new Promise<string>((resolve) => {
      // The idle worker does not keep Node alive: a timer does, until it answers.
      const keepAlive = setInterval(() => {}, 1000);
      this.residentAnswers.set(spec.id, (text) => {
        clearInterval(keepAlive);
        resolve(text);
      });
      this.sendResident(port, spec, true);
    });
    const release = (s: ResidentSpec) => {
      this.residentSpecs.delete(s.id);
      this.residentPacked.delete(s.id);
      if (!this.port) return; // a fresh worker is sent only what runs need
      this.residentSent.get(this.port)?.delete(s.id);
      this.port.post({ type: "unresident", id: s.id });
    };
    const result = loadResult(status, spec, this, release);
    if (!result.ok) release(spec);
    else this.residentSpecs.set(spec.id, spec);
    return result;
  }

  private sendResident(port: WorkerPort, spec: ResidentSpec, answer: boolean): void {
    let sent = this.residentSent.get(port);
    if (!sent) this.residentSent.set(port, (sent = new Set()));
    sent.add(spec.id);
    port.post({ type: "resident", spec, answer, gzip: this.residentPacked.get(spec.id) });
  }

  get activeRuns(): number {
    let active = 0;
    for (const run of this.runs.values()) if (!run.abandoned) active++;
    return active;
  }

  // The worker answers in order.
  private readonly liveRunsAnswers: ((stats: EngineStats) => void)[] = [];

  /** @internal for tests of leaks: runs the worker's engine holds (started and not ended). */
  async liveEngineRunsForTesting(): Promise<number> {
    return (await this.engineStats()).count;
  }

  /** @internal for tests of leaks: bytes the resident contexts loaded into the worker's engine take. */
  async residentBytesForTesting(): Promise<number> {
    return (await this.engineStats()).residentBytes;
  }

  /** @internal for tests of recycling: bytes of the worker's engine memory (0 without a worker). */
  async workerEngineBytesForTesting(): Promise<number> {
    return (await this.engineStats()).memoryBytes;
  }

  /** @internal for tests of recycling: how many workers this runtime started. */
  get workersStartedForTesting(): number {
    return this.workersStarted;
  }

  private engineStats(): Promise<EngineStats> {
    const port = this.port;
    if (!port) return Promise.resolve({ count: 0, memoryBytes: 0, grownBytes: 0, residentBytes: 0 }); // no worker, or it was terminated
    return new Promise((resolve) => {
      // The idle worker does not keep Node alive: a timer does, until it answers.
      const keepAlive = setInterval(() => {}, 1000);
      this.liveRunsAnswers.push((stats) => {
        clearInterval(keepAlive);
        resolve(stats);
      });
      port.post({ type: "liveRuns?" });
    });
  }

  /** Terminates the worker; runs in flight end with an execution_error. */
  close(): void {
    if (this.port) this.replaceWorker(this.port, "The runtime was closed", false);
  }

  /** @internal for tests of trap recovery: makes the worker's engine instance trap. */
  trapForTesting(): void {
    this.workerPort().post({ type: "trap" });
  }

  protected execute<R extends object>(caller: CallerRun<CallerOptions, R>): Promise<R> {
    return new Promise<R>((resolve) => {
      const run: PendingRun = {
        id: ++this.nextId,
        caller: caller as CallerRun,
        port: undefined as unknown as WorkerPort, // set by send
        callsMade: 0,
        retried: false,
        toolsOut: 0,
        later: [],
        sentAt: caller.started,
        abandoned: false,
        resolve: (result) => resolve(caller.settle(result as R)),
      };
      this.runs.set(run.id, run);
      this.armWatchdog(run, caller.timeoutMs + graceMs(caller.timeoutMs));
      if (caller.signal) {
        run.onAbort = () => this.abort(run);
        caller.signal.addEventListener("abort", run.onAbort, { once: true });
      }
      this.send(run);
    });
  }

  // Posts the run to the current worker (again, when it is started over).
  private send(run: PendingRun): void {
    const { entry, resident } = run.caller;
    run.port = this.workerPort();
    const submittedAt = performance.timeOrigin + run.caller.started;
    if (resident && !this.residentSent.get(run.port)?.has(resident.id)) this.sendResident(run.port, resident, false);
    this.request(run, {
      type: "run",
      id: run.id,
      program: entry.text,
      engineOptions: entry.engineOptions,
      kind: entry.kind,
      submittedAt,
      ...(resident ? { resident: resident.id } : {}),
    });
  }

  // The worker takes messages up in the order they were sent and answers each
  // before the next: the run with the oldest unanswered message is the one it
  // is computing (or about to).
  private request(run: PendingRun, message: ToWorker): void {
    const order = ++this.sent;
    if (run.pending === undefined) {
      run.pending = order;
      run.sentAt = now();
    } else run.later.push(order);
    run.port.post(message);
  }

  // The worker answered the oldest message of the run.
  private answered(run: PendingRun): void {
    run.pending = run.later.shift();
    if (run.pending !== undefined) run.sentAt = now();
  }

  private workerPort(started?: WorkerPort): WorkerPort {
    if (this.port) return this.port;
    const port = started ?? this.spawn();
    this.workersStarted++;
    // A worker that never answered did not start (its script is missing, say):
    // a fresh one would not either, so its runs are not started again.
    let answered = false;
    port.onMessage((message) => {
      answered = true;
      this.handle(port, message);
    });
    port.onError((error) => this.replaceWorker(port, `The engine worker failed (${describeThrown(error)})`, answered));
    port.post({ type: "init", module: this.wasmModule, steps: this.stepsModule });
    this.port = port;
    this.lastAnswerAt = now();
    return port;
  }

  private handle(port: WorkerPort, message: FromWorker): void {
    if (message.type === "liveRuns") return this.liveRunsAnswers.shift()?.(message);
    if (message.type === "resident") {
      const answer = this.residentAnswers.get(message.id);
      this.residentAnswers.delete(message.id);
      return answer?.(message.status);
    }
    if (message.type === "packed") {
      const spec = this.residentSpecs.get(message.id);
      if (!spec) return; // closed meanwhile
      seedResidentHashes(spec, message.hashes);
      this.residentPacked.set(message.id, message.gzip);
      spec.text = "";
      return;
    }
    if (port === this.port) this.lastAnswerAt = now();
    const run = this.runs.get(message.id);
    if (!run || run.port !== port) return;
    this.answered(run);
    switch (message.type) {
      case "payload?":
        return this.request(run, {
          type: "payload",
          id: run.id,
          payload: run.abandoned ? { error: ABANDONED } : run.caller.payload(message.loads, message.fields, true),
        });
      case "calls":
        // The calls' args as the engine wrote them, read once, here.
        for (const status of message.statuses)
          for (const call of (JSON.parse(status) as { calls: ToolCall[] }).calls) this.callTool(run, port, call);
        return;
      case "done": {
        this.forget(run);
        if (!run.abandoned) run.resolve(run.caller.resultOf(message.status, message.toolMs)); // resolve settles it
        // The result reaches the caller in a later microtask: no run starts in between.
        return this.recycleIfGrown(port, message);
      }
    }
  }

  // Runs one tool call here and sends its outcome to the worker.
  private callTool(run: PendingRun, port: WorkerPort, call: ToolCall): void {
    run.callsMade++;
    const outcome = (o: ToolOutcome) => ({ type: "outcome" as const, id: run.id, call: call.id, outcome: o });
    if (run.abandoned) return this.request(run, outcome({ kind: "abort", reason: "" }));
    run.toolsOut++;
    void run.caller.tool(call).then((o) => {
      run.toolsOut--;
      if (this.runs.get(run.id) === run && run.port === port) this.request(run, outcome(o));
    });
  }

  private armWatchdog(run: PendingRun, afterMs: number): void {
    clearTimeout(run.watchdog);
    run.watchdog = setTimeout(() => this.watchdog(run), Math.max(0, afterMs));
  }

  // Past its deadline, a run is given a grace period counted from when the
  // worker took up its current step; a run still computing after that is stuck.
  // One waiting on a tool (awaitTool answers the deadline) or behind another
  // run's step is looked at again later.
  private watchdog(run: PendingRun): void {
    if (this.runs.get(run.id) !== run) return;
    const grace = run.abandoned ? ABORT_GRACE_MS : graceMs(run.caller.timeoutMs);
    if (run.pending === undefined || this.computing(run.port) !== run) return this.armWatchdog(run, grace);
    const stuckAt = Math.max(run.caller.deadline, run.sentAt, this.lastAnswerAt) + grace;
    if (now() < stuckAt) return this.armWatchdog(run, stuckAt - now());
    const timeoutMs = run.caller.timeoutMs;
    const why = run.abandoned
      ? "another run on it was aborted while computing and did not stop"
      : "another run on it kept computing past its time limit";
    this.replaceWorker(run.port, `The engine worker running this program was restarted (${why})`, true, {
      run,
      result: failure(
        "timeout",
        "timeout",
        `Execution exceeded the time limit of ${timeoutMs} ms (timeoutMs); the worker running it did not stop and was terminated`,
      ) as Failed,
    });
  }

  /** The run whose step the worker is busy with: the oldest unanswered message. */
  private computing(port: WorkerPort): PendingRun | undefined {
    let oldest: PendingRun | undefined;
    for (const run of this.runs.values())
      if (run.port === port && run.pending !== undefined && (!oldest || run.pending < (oldest.pending as number)))
        oldest = run;
    return oldest;
  }

  // Waiting on a tool, awaitTool answers the abort and the engine ends the run.
  // Otherwise the caller has its answer at once; the worker ends the run at its
  // next step, and is terminated only if it keeps computing it.
  private abort(run: PendingRun): void {
    if (this.runs.get(run.id) !== run || run.toolsOut > 0 || run.abandoned) return;
    run.abandoned = true;
    run.caller.deadline = now();
    run.resolve(abortedResult(run.caller.signal as AbortSignal));
    this.armWatchdog(run, ABORT_GRACE_MS);
  }

  /**
   * Terminates the worker. The culprit gets its own result; runs that called
   * no tool yet start again on a fresh worker (once, when `retry`); the others
   * fail with `why`.
   */
  private replaceWorker(
    port: WorkerPort,
    why: string,
    retry: boolean,
    culprit?: { run: PendingRun; result: Failed },
  ): void {
    port.terminate();
    if (this.port === port) this.port = undefined;
    // Loads waiting on this worker will not be answered.
    for (const answer of this.residentAnswers.values())
      answer(failedRun("engine_crashed", `${why} while loading the context`).text);
    this.residentAnswers.clear();
    for (const run of [...this.runs.values()]) {
      if (run.port !== port) continue;
      run.pending = undefined;
      run.later = [];
      if (run.abandoned || run === culprit?.run) {
        this.forget(run);
        if (!run.abandoned && culprit) run.resolve(culprit.result);
      } else if (retry && run.callsMade === 0 && !run.retried) {
        run.retried = true;
        this.send(run);
      } else {
        this.forget(run);
        run.resolve(failure("execution_error", "engine_crashed", retry ? bystanderMessage(why, run.callsMade) : why));
      }
    }
  }

  // Wasm memory never shrinks: a worker whose engine grew well past its
  // resident data (a run's big group_by or join) is ended once nothing is
  // waiting on it, which gives the memory back to the host. The next run or
  // load starts a fresh worker, and runs that need resident data send it again.
  private recycleIfGrown(port: WorkerPort, size: EngineSize): void {
    if (port !== this.port || size.grownBytes <= this.recycleEngineBytes) return;
    for (const run of this.runs.values()) if (run.port === port) return; // still computing (or aborted, ending)
    if (this.residentAnswers.size > 0 || this.liveRunsAnswers.length > 0) return; // answers still due
    port.terminate();
    this.port = undefined;
  }

  private forget(run: PendingRun): void {
    clearTimeout(run.watchdog);
    if (run.onAbort) run.caller.signal?.removeEventListener("abort", run.onAbort);
    this.runs.delete(run.id);
  }
}

/** What the worker says of its engine (tests of leaks and recycling). */
type EngineStats = { count: number } & EngineSize;

function bystanderMessage(why: string, toolCalls: number): string {
  if (toolCalls === 0) return `${why}; this run was already started again once, so it was not retried: run it again`;
  return (
    `${why}; this run had already called ${toolCalls} tool${toolCalls === 1 ? "" : "s"}, so it was not started again ` +
    `(that would call them again): run it again`
  );
}
