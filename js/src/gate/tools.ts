// Calling host tools: waiting for one within the run's deadline and abort
// signal, and turning its result into JSON text for the engine.
import type { ToolOutcome } from "../run/driver.js";
import { prepareCall } from "../run/descriptors.js";
import { describeThrown } from "../util/describe.js";
import type { JsonObject, Tool } from "../types/public.js";

/**
 * A tool result that cannot cross into the sandbox. Its message says what the
 * value holds; the engine words the error ("Tool 'x' returned a value that is
 * not JSON data: <message>"). Not a failure of the tool but a fault of the
 * host: it ends the run, and no on-error or compensate of a step function sees it.
 */
export class ToolValueError extends Error {}

function rejectNonJson(_key: string, value: unknown): unknown {
  switch (typeof value) {
    case "function":
      throw new ToolValueError("a function");
    case "bigint":
      throw new ToolValueError("a BigInt (convert it to a number or a string)");
    case "symbol":
      throw new ToolValueError("a symbol");
    case "number":
      if (!Number.isFinite(value)) throw new ToolValueError(`${value} (JSON numbers are finite)`);
      return value;
    case "object":
      // JSON.stringify would silently turn these into {}: refuse instead of losing data.
      if (value instanceof Map || value instanceof Set)
        throw new ToolValueError(`a ${value.constructor.name} (convert it to an object or array)`);
      return value;
    default:
      return value;
  }
}

/** JSON text of a tool's result; undefined becomes null. Throws ToolValueError, and nothing else. */
export function toolResultText(value: unknown): string {
  if (value === undefined) return "null";
  try {
    return JSON.stringify(value, rejectNonJson) ?? "null";
  } catch (e) {
    if (e instanceof ToolValueError) throw e;
    // JSON.stringify throws a TypeError on a cycle; a toJSON or a getter may
    // throw anything, even a value whose message cannot be read.
    const cycle = e instanceof TypeError ? `a cycle or an unserialisable object (${describeThrown(e)})` : undefined;
    throw new ToolValueError(
      cycle ?? `an object that threw while being read by a toJSON or a getter (${describeThrown(e)})`,
    );
  }
}

/**
 * The end of a run, which abandons its calls still out (their timers cleared).
 * Not an AbortSignal: a fan-out has many calls out, and Node warns past ten
 * listeners on one signal.
 */
export class RunEnd {
  // Made with the first listener: most runs call no tool, and end without one.
  private listeners?: Set<() => void>;
  /** Set once the run ended: a call that was waiting its turn (a write) must not start then. */
  ended = false;
  on(listener: () => void): void {
    (this.listeners ??= new Set()).add(listener);
  }
  off(listener: () => void): void {
    this.listeners?.delete(listener);
  }
  end(): void {
    this.ended = true;
    const listeners = this.listeners;
    if (!listeners?.size) return;
    for (const listener of [...listeners]) listener();
    listeners.clear();
  }
}

// When each call's tool really ended, by the promise awaitTool returned: the
// call may have been settled before (abandoned at toolTimeoutMs, the deadline,
// an abort) while the tool still runs.
const toolEnds = new WeakMap<Promise<ToolOutcome>, Promise<void>>();

/** Resolves once the tool of a call awaitTool made has ended (resolved, thrown, or was never started). */
export function toolEnded(call: Promise<ToolOutcome>): Promise<void> {
  return toolEnds.get(call) ?? call.then(() => undefined);
}

/** What else bounds one call: its own time limit, and the end of its run. */
export interface CallBounds {
  /** toolTimeoutMs: past it the call fails (a failure the program may catch). */
  toolTimeoutMs?: number;
  runEnded?: RunEnd;
  /**
   * The call's identity (journal.ts in a gated run, caller-run.ts otherwise),
   * passed to the tool as its second argument with the call's own AbortSignal.
   */
  identity?: { runId: string; callId: string };
  /**
   * Told, at once, when the call is settled while its tool still runs (the
   * deadline, toolTimeoutMs, an abort, the run's end): its signal is aborted
   * then, but what it did may still land.
   */
  onAbandoned?: (outcome: ToolOutcome) => void;
}

/** The reason a call's signal is aborted with, when the run's signal was not what ended it. */
function abandonReason(outcome: ToolOutcome): unknown {
  const message =
    outcome.kind === "callTimeout"
      ? `no answer within ${outcome.toolTimeoutMs} ms (toolTimeoutMs): the call was abandoned`
      : outcome.kind === "timeout"
        ? `the run's time limit (${outcome.timeoutMs} ms, timeoutMs) struck while the call was out`
        : "the run ended while the call was out";
  const name = outcome.kind === "abort" ? "AbortError" : "TimeoutError";
  if (typeof DOMException === "function") return new DOMException(`ptc-wasm: ${message}`, name);
  return Object.assign(new Error(`ptc-wasm: ${message}`), { name });
}

/** Wraps a call's outcome promise, keeping what toolEnded knows of it (a write's turn ends when its tool does). */
export function mapOutcome(call: Promise<ToolOutcome>, f: (outcome: ToolOutcome) => ToolOutcome): Promise<ToolOutcome> {
  const mapped = call.then(f);
  toolEnds.set(mapped, toolEnded(call));
  return mapped;
}

/**
 * Calls one tool (a function, or a descriptor whose args are checked against
 * its parameters first) and waits for it, but never past the deadline, its
 * toolTimeoutMs or an abort: a tool still pending then is abandoned (its later
 * result is ignored) and the AbortSignal it was given is aborted, so that it
 * can stop (an MCP upstream is sent notifications/cancelled).
 */
export function awaitTool(
  name: string,
  tool: Tool | undefined,
  args: JsonObject,
  deadline: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  bounds: CallBounds = {},
): Promise<ToolOutcome> {
  let ended: Promise<void> = Promise.resolve();
  const outcome = new Promise<ToolOutcome>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let callTimer: ReturnType<typeof setTimeout> | undefined;
    // The tool's own signal, made when it starts: aborted when the call is settled before the tool ended.
    let controller: AbortController | undefined;
    const onAbort = () => settle({ kind: "abort", reason: describeThrown(signal?.reason) });
    const onRunEnded = () => settle({ kind: "abort", reason: "the run ended" });
    const settle = (outcome: ToolOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(callTimer);
      bounds.runEnded?.off(onRunEnded);
      resolve(outcome);
      try {
        signal?.removeEventListener("abort", onAbort);
      } catch {
        // an object posing as an AbortSignal; the call is settled all the same
      }
      if (controller && outcome.kind !== "value" && outcome.kind !== "failure" && outcome.kind !== "fault") {
        bounds.onAbandoned?.(outcome);
        let reason: unknown;
        try {
          reason = outcome.kind === "abort" && signal?.aborted ? signal.reason : abandonReason(outcome);
        } catch {
          reason = abandonReason(outcome);
        }
        // A listener of the tool's may throw: the call is settled all the same.
        try {
          controller.abort(reason);
        } catch {
          // (Node reports an exception thrown by an abort listener itself)
        }
      }
    };
    const fail = (e: unknown) => settle({ kind: "failure", message: describeThrown(e) });
    // The tool is the caller's code: whatever it throws, when or however,
    // becomes this call's failure, and the promise always resolves.
    try {
      if (signal?.aborted) return onAbort();
      // A call that waited its turn (writes run one at a time) past the run's end or deadline is not made.
      if (bounds.runEnded?.ended) return onRunEnded();
      if (performance.now() >= deadline) return settle({ kind: "timeout", timeoutMs });
      let call: ReturnType<typeof prepareCall>;
      try {
        call = prepareCall(name, tool, args);
      } catch (e) {
        return settle({ kind: "failure", message: `its descriptor could not be read (${describeThrown(e)})` });
      }
      if ("problem" in call) return settle({ kind: "failure", message: call.problem });
      timer = setTimeout(() => settle({ kind: "timeout", timeoutMs }), Math.max(0, deadline - performance.now()));
      const { toolTimeoutMs } = bounds;
      if (toolTimeoutMs !== undefined && performance.now() + toolTimeoutMs < deadline)
        callTimer = setTimeout(() => settle({ kind: "callTimeout", toolTimeoutMs }), toolTimeoutMs);
      bounds.runEnded?.on(onRunEnded);
      signal?.addEventListener("abort", onAbort, { once: true });
      controller = new AbortController();
      const identity = { signal: controller.signal, ...(bounds.identity ?? { runId: "", callId: "" }) };
      const running = Promise.resolve(call.execute(args, identity));
      ended = running.then(
        () => {
          controller = undefined;
        },
        () => {
          controller = undefined;
        },
      );
      void running.then((value) => {
        let text: string;
        try {
          text = toolResultText(value);
        } catch (e) {
          return settle({ kind: "fault", message: (e as ToolValueError).message });
        }
        settle({ kind: "value", text });
      }, fail);
    } catch (e) {
      fail(e);
    }
  });
  toolEnds.set(outcome, ended);
  return outcome;
}

/** What bounds any wait of a run on the host: its deadline and abort signal. */
export interface RunBounds {
  deadline: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Waits for a host promise other than a tool's (an approval check) within the
 * run's bounds: its value, or the timeout / abort outcome that came first.
 */
export function withinRun<T>(promise: Promise<T>, bounds: RunBounds): Promise<{ value: T } | { outcome: ToolOutcome }> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: { value: T } | { outcome: ToolOutcome }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      bounds.signal?.removeEventListener("abort", onAbort);
      resolve(r);
    };
    const onAbort = () => settle({ outcome: { kind: "abort", reason: describeThrown(bounds.signal?.reason) } });
    const timer = Number.isFinite(bounds.deadline)
      ? setTimeout(
          () => settle({ outcome: { kind: "timeout", timeoutMs: bounds.timeoutMs } }),
          Math.max(0, bounds.deadline - performance.now()),
        )
      : undefined;
    if (bounds.signal?.aborted) return onAbort();
    bounds.signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => settle({ value }),
      (e: unknown) =>
        settle({
          outcome: { kind: "failure", message: `its approval check threw (${describeThrown(e)}), so it was not run` },
        }),
    );
  });
}
