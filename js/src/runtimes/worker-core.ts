// The engine side of worker mode: runs programs on an engine instance inside the
// worker and asks the caller's thread for payloads and tool outcomes (tools
// always run where the caller defined them).
import { driveRun, drivenText, failedRun, type Driven } from "../run/driver.js";
import { describeThrown } from "../util/describe.js";
import { EngineInstance } from "../engine/engine.js";
import type { ResidentSpec } from "../engine/resident.js";
import { canPack, keyHashes, pack, unpack } from "./worker-packing.js";
import type { EngineSize, FromWorker, ToWorker } from "./worker-protocol.js";
import type { RunKind } from "../types/public.js";

/** A resident context as the worker keeps it: its spec (text "" once packed) and its packed text. */
interface Kept {
  spec: ResidentSpec;
  gzip?: Uint8Array;
  packing?: boolean;
}

export function serveEngine(post: (message: FromWorker) => void): (message: ToWorker) => void {
  let module: WebAssembly.Module | undefined;
  let engine: EngineInstance | undefined;
  // stepFunctions "lazy": step-function files run on an instance of the module with both dialects.
  let stepsModule: WebAssembly.Module | undefined;
  let stepsEngine: EngineInstance | undefined;
  const answers = new Map<string, (value: never) => void>();
  const residents = new Map<number, Kept>();
  // The resident contexts each instance has loaded (which need no text to run).
  const loadedIn = new WeakMap<EngineInstance, Set<number>>();
  // Runs in flight by the resident context they use: a context closed meanwhile
  // leaves the engine when its last run ends, not under a run that may still
  // read it (its text is gone once packed, so the engine could not load it again).
  const runsUsing = new Map<number, number>();

  function markLoaded(instance: EngineInstance | undefined, id: number): void {
    if (!instance || instance.broken) return;
    let ids = loadedIn.get(instance);
    if (!ids) loadedIn.set(instance, (ids = new Set()));
    ids.add(id);
  }

  /** The spec a run hands the engine: with its text (unpacked) unless the current instance has it loaded. */
  async function specForRun(kept: Kept): Promise<ResidentSpec> {
    if (kept.spec.text || !kept.gzip || loadedIn.get(current())?.has(kept.spec.id)) return kept.spec;
    return { ...kept.spec, text: await unpack(kept.gzip) };
  }

  /** Packs a loaded context's text, drops it, and sends the caller the packed copy. */
  async function packLoaded(kept: Kept): Promise<void> {
    if (kept.packing) return;
    kept.packing = true;
    const { id, text } = kept.spec;
    let gzip: Uint8Array;
    let hashes: string;
    try {
      hashes = JSON.stringify(await keyHashes(text));
      gzip = await pack(text);
    } catch {
      return; // kept as text
    }
    if (residents.get(id) !== kept) return; // released meanwhile
    kept.gzip = gzip;
    kept.spec = { ...kept.spec, text: "" };
    post({ type: "packed", id, gzip: gzip.slice(), hashes });
  }

  // The instance runs start on: a fresh one once the last has failed.
  function current(): EngineInstance {
    if (!engine || engine.broken) engine = EngineInstance.create(module as WebAssembly.Module);
    return engine;
  }

  function forKind(kind: RunKind): () => EngineInstance {
    if (kind !== "workflow" || !stepsModule) return current;
    return () => {
      if (!stepsEngine || stepsEngine.broken) stepsEngine = EngineInstance.create(stepsModule as WebAssembly.Module);
      return stepsEngine;
    };
  }

  function size(): EngineSize {
    if (!engine || engine.broken) return { memoryBytes: 0, grownBytes: 0, residentBytes: 0 };
    return engine.size(); // after every run: one call into the engine, not two
  }

  function ask<T>(key: string, message: FromWorker): Promise<T> {
    return new Promise<T>((resolve) => {
      answers.set(key, resolve as (value: never) => void);
      post(message);
    });
  }

  function reply(key: string, value: unknown): void {
    const resolve = answers.get(key);
    answers.delete(key);
    resolve?.(value as never);
  }

  async function run(
    id: number,
    program: string,
    engineOptions: string,
    kind: RunKind,
    submittedAt: number,
    resident?: number,
  ): Promise<void> {
    let done: Driven;
    const spentMs = Math.max(0, performance.timeOrigin + performance.now() - submittedAt);
    const kept = resident === undefined ? undefined : residents.get(resident);
    let spec: ResidentSpec | undefined;
    try {
      spec = kept && (await specForRun(kept));
    } catch (e) {
      const why = `The engine worker could not unpack the resident context: ${describeThrown(e)}; load the data again`;
      done = failedRun("engine_crashed", why);
      post({ type: "done", id, status: done.text, toolMs: 0, ...size() });
      return;
    }
    if (spec) runsUsing.set(spec.id, (runsUsing.get(spec.id) ?? 0) + 1);
    let issued: string[] = []; // call statuses, as the engine wrote them
    try {
      done = await driveRun(
        forKind(kind),
        { kind, text: program, engineOptions },
        {
          payload: (loads, fields) => ask(`${id}:payload`, { type: "payload?", id, loads, fields }),
          calls: (status) => issued.push(status),
          tool: (call) => new Promise((resolve) => answers.set(`${id}:${call.id}`, resolve as (value: never) => void)),
          waiting: () => {
            post({ type: "calls", id, statuses: issued });
            issued = [];
          },
          resident: spec,
        },
        performance.now() - spentMs,
      );
    } catch (e) {
      done = failedRun("engine_crashed", `The engine worker failed while running this program: ${describeThrown(e)}`);
    }
    for (const key of answers.keys()) if (key.startsWith(`${id}:`)) answers.delete(key); // calls still out
    const othersUsing = spec ? (runsUsing.get(spec.id) ?? 1) - 1 : 0;
    if (spec) {
      if (othersUsing) runsUsing.set(spec.id, othersUsing);
      else runsUsing.delete(spec.id);
    }
    // Closed while this run was in flight: released when the last run using it
    // ends (a no-op when it is not loaded).
    if (spec && !residents.has(spec.id)) {
      if (!othersUsing && engine && !engine.broken) engine.releaseResident(spec);
    } else if (spec) {
      markLoaded(engine, spec.id);
      // Sent as text to this fresh worker before the caller had the packed copy.
      if (canPack && kept && kept.spec.text && !kept.gzip && residents.get(spec.id) === kept) void packLoaded(kept);
    }
    post({ type: "done", id, status: drivenText(done), toolMs: done.toolMs, ...size() });
  }

  return (message) => {
    switch (message.type) {
      case "init":
        module = message.module;
        stepsModule = message.steps;
        return;
      case "steps":
        stepsModule = message.module;
        return;
      case "run":
        void run(
          message.id,
          message.program,
          message.engineOptions,
          message.kind,
          message.submittedAt,
          message.resident,
        );
        return;
      case "resident": {
        const kept: Kept = { spec: message.spec, gzip: message.gzip };
        residents.set(message.spec.id, kept);
        if (!message.answer) return;
        let status: string;
        try {
          status = current().loadResident(message.spec);
        } catch (e) {
          status = failedRun(
            "engine_crashed",
            `The engine worker failed while loading the context: ${describeThrown(e)}`,
          ).text;
        }
        post({ type: "resident", id: message.spec.id, status });
        if (!status.startsWith('{"state":"resident"')) return; // (the status may list a million keys: not parsed)
        markLoaded(engine, message.spec.id);
        if (canPack && message.spec.text) void packLoaded(kept);
        return;
      }
      case "unresident": {
        const kept = residents.get(message.id);
        residents.delete(message.id);
        // A run still using it releases it when it ends.
        if (kept && !runsUsing.has(message.id) && engine && !engine.broken) engine.releaseResident(kept.spec);
        return;
      }
      case "payload":
        return reply(`${message.id}:payload`, message.payload);
      case "outcome":
        return reply(`${message.id}:${message.call}`, message.outcome);
      case "liveRuns?": // tests of leaks
        return post({ type: "liveRuns", count: engine && !engine.broken ? engine.liveRuns() : 0, ...size() });
      case "trap":
        try {
          current().trapForTesting();
        } catch {
          // the instance is now broken: the next run starts on a fresh one
        }
        return;
    }
  };
}
