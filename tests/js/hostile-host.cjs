// The child process of hostile-values.test.cjs: a host that throws every odd
// JavaScript value at the runtime, from tools (thrown, rejected, returned),
// abort reasons, getters and formatError, alongside healthy runs, with spies
// on "unhandledRejection" and "uncaughtException".
//
//   node tests/js/hostile-host.cjs <in-process|worker> <tools|aborts|getters|formatError>
//
// The last line of stdout is a JSON report: how each hostile run settled, the
// healthy runs' results, the runs left in flight and in the engine, and what
// the spies saw (must be nothing).
const path = require("node:path");
const { createRuntime } = require(path.join(__dirname, "../../dist/node.cjs"));

function safeText(value) {
  try {
    return typeof value === "string" ? value : String(value?.stack ?? value);
  } catch {
    return `(${typeof value})`;
  }
}

const escaped = [];
process.on("unhandledRejection", (e) => escaped.push(`unhandledRejection: ${safeText(e)}`));
process.on("uncaughtException", (e) => escaped.push(`uncaughtException: ${safeText(e)}`));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise(() => {});
const TIMEOUT_MS = 30000; // far above any case: a run that ends by timeout did not settle as it should

/** Every odd value, made fresh for each use. */
function hostileValues() {
  const poison = Object.create(null); // no toString, no valueOf; JSON.stringify throws on the BigInt
  poison.n = 1n;
  const thrower = () => {
    throw poison;
  };
  const errorWithThrowing = (keys) => {
    const e = new Error("hidden");
    void e.stack; // V8 writes the stack on first use, from name and message: before they throw
    for (const key of keys) Object.defineProperty(e, key, { get: thrower });
    return e;
  };
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const cyclic = { name: "loop" };
  cyclic.self = cyclic;
  let deep = [];
  for (let i = 0; i < 200000; i++) deep = [deep];
  const fn = () => 1;
  fn.toString = thrower;
  const promiseWithThrowingConstructor = Promise.resolve(1);
  Object.defineProperty(promiseWithThrowingConstructor, "constructor", { get: thrower });
  return {
    "null-prototype object holding a BigInt": poison,
    "Error whose message getter throws": errorWithThrowing(["message"]),
    "Error whose message, name, toString and stack getters throw": errorWithThrowing([
      "message",
      "name",
      "toString",
      "stack",
    ]),
    "Error whose message is an object holding a BigInt": Object.assign(new Error(), { message: { n: 1n } }),
    "Proxy that throws on every trap": new Proxy({}, new Proxy({}, { get: () => thrower })),
    "Proxy of a function that throws on every trap": new Proxy(() => {}, new Proxy({}, { get: () => thrower })),
    "revoked Proxy": revocable.proxy,
    symbol: Symbol("odd"),
    BigInt: 10n,
    "object whose toJSON throws": { toJSON: thrower },
    "object whose Symbol.toPrimitive, toString and toJSON throw": {
      [Symbol.toPrimitive]: thrower,
      toString: thrower,
      toJSON: thrower,
    },
    "object with a getter that throws": {
      get field() {
        return thrower();
      },
    },
    "frozen null-prototype object holding a symbol": Object.freeze(
      Object.assign(Object.create(null), { s: Symbol("t") }),
    ),
    "frozen Error": Object.freeze(new Error("frozen")),
    "cyclic object": cyclic,
    "list nested 200,000 deep": deep,
    "huge string (12 MB)": "x".repeat(12e6),
    undefined: undefined,
    null: null,
    NaN: NaN,
    "function whose toString throws": fn,
    Map: new Map([[1, 2]]),
    "thenable whose then throws": { then: thrower },
    "thenable whose then getter throws": {
      get then() {
        return thrower();
      },
    },
    "Promise whose constructor getter throws": promiseWithThrowingConstructor,
  };
}

/** How a run settled, as plain data. */
function settled(promise) {
  return promise.then(
    (r) => ({
      ok: r.ok,
      ...(r.ok
        ? { result: JSON.stringify(r.result)?.slice(0, 200) }
        : { type: r.error.type, message: r.error.message.slice(0, 300), messageLength: r.error.message.length }),
    }),
    (e) => ({
      rejected: e instanceof Error ? e.constructor.name : typeof e,
      message: safeText(e?.message ?? e).slice(0, 300),
    }),
  );
}

// A healthy run beside each hostile one: a tool call, a context load, a sum.
const HEALTHY = {
  program: {
    op: "add",
    left: { op: "pipe", steps: [{ op: "call", tool: "xs" }, { op: "sum" }] },
    right: { op: "load", name: "k" },
  },
};
function healthyRun(rt, k) {
  return settled(
    rt.run(HEALTHY, {
      context: { k },
      timeoutMs: TIMEOUT_MS,
      tools: { xs: async () => (await sleep(k % 7), [1, 2, 3]) },
    }),
  );
}

const call = { program: { op: "call", tool: "t" } };

// Each scenario returns [label, promise of how the run settled].
const scenarios = {
  tools(rt) {
    const channels = {
      throws: (v) => () => {
        throw v;
      },
      rejects: (v) => async () => {
        throw v;
      },
      "rejects later": (v) => () => sleep(1).then(() => Promise.reject(v)),
      returns: (v) => () => v,
      resolves: (v) => () =>
        sleep(1)
          .then(() => [v])
          .then(([x]) => x),
    };
    const runs = [];
    const values = hostileValues();
    for (const [channel, tool] of Object.entries(channels))
      for (const [name, value] of Object.entries(values))
        runs.push([`${channel}: ${name}`, settled(rt.run(call, { tools: { t: tool(value) }, timeoutMs: TIMEOUT_MS }))]);
    // A descriptor whose getters throw, and one posing as a descriptor.
    const poison = values["null-prototype object holding a BigInt"];
    const descriptor = { description: "d", execute: () => 1 };
    Object.defineProperty(descriptor, "parameters", {
      get: () => {
        throw poison;
      },
      enumerable: true,
    });
    runs.push([
      "descriptor whose parameters getter throws",
      settled(rt.run(call, { tools: { t: descriptor }, timeoutMs: TIMEOUT_MS })),
    ]);
    const noExecute = {
      get execute() {
        throw poison;
      },
    };
    runs.push([
      "descriptor whose execute getter throws",
      settled(rt.run(call, { tools: { t: noExecute }, timeoutMs: TIMEOUT_MS })),
    ]);
    return runs;
  },

  aborts(rt) {
    const runs = [];
    const source = JSON.stringify({
      function: "f",
      output: "any",
      steps: [{ let: "x", call: "t", args: {} }, { return: "$x" }],
    });
    for (const [name, reason] of Object.entries(hostileValues())) {
      runs.push([
        `aborted before the start: ${name}`,
        settled(rt.run(call, { tools: { t: () => 1 }, signal: AbortSignal.abort(reason) })),
      ]);
      const controller = new AbortController();
      const t = () => (setTimeout(() => controller.abort(reason), 1), never());
      runs.push([
        `aborted while a tool is pending: ${name}`,
        settled(rt.run(call, { tools: { t }, signal: controller.signal, timeoutMs: TIMEOUT_MS })),
      ]);
      const early = new AbortController();
      const w = () => (early.abort(reason), never());
      runs.push([
        `step function aborted in its tool: ${name}`,
        settled(rt.runWorkflow(source, { tools: { t: w }, signal: early.signal, timeoutMs: TIMEOUT_MS })),
      ]);
    }
    return runs;
  },

  getters(rt) {
    const values = hostileValues();
    const poison = values["null-prototype object holding a BigInt"];
    const everyTrap = values["Proxy that throws on every trap"];
    const load = { program: { op: "load", name: "k" } };
    const getterOn = (target, key) =>
      Object.defineProperty(target, key, {
        get: () => {
          throw poison;
        },
        enumerable: true,
      });
    const source = JSON.stringify({
      function: "f",
      input: { k: "any" },
      output: "any",
      steps: [{ return: "$input.k" }],
    });
    const workflowTool = JSON.stringify({
      function: "f",
      output: "any",
      steps: [{ let: "x", call: "t", args: {} }, { return: "$x" }],
    });
    const optionsWith = (key) => getterOn({ timeoutMs: TIMEOUT_MS }, key);
    return [
      ["context key whose getter throws", settled(rt.run(load, { context: getterOn({}, "k") }))],
      ["context that is a Proxy throwing on every trap", settled(rt.run(load, { context: everyTrap }))],
      [
        "context whose toJSON throws",
        settled(
          rt.run(load, {
            context: {
              k: 1,
              toJSON: () => {
                throw poison;
              },
            },
          }),
        ),
      ],
      [
        "context value whose toJSON throws",
        settled(
          rt.run(load, {
            context: {
              k: {
                toJSON: () => {
                  throw poison;
                },
              },
            },
          }),
        ),
      ],
      ["memory key whose getter throws", settled(rt.run(load, { memory: getterOn({}, "m") }))],
      [
        "program object whose getter throws",
        settled(
          rt.run({
            get program() {
              throw poison;
            },
          }),
        ),
      ],
      ["program that is a Proxy throwing on every trap", settled(rt.run(everyTrap))],
      ["options.tools getter throws", settled(rt.run(call, optionsWith("tools")))],
      ["options.context getter throws", settled(rt.run(load, optionsWith("context")))],
      ["options.signal getter throws", settled(rt.run(load, optionsWith("signal")))],
      ["options that are a Proxy throwing on every trap", settled(rt.run(load, everyTrap))],
      ["options.tools that is a Proxy throwing on every trap", settled(rt.run(call, { tools: everyTrap }))],
      ["step-function input whose getter throws", settled(rt.runWorkflow(source, { input: getterOn({}, "k") }))],
      ["step-function options.input getter throws", settled(rt.runWorkflow(source, optionsWith("input")))],
      [
        "step-function tool that throws a poisoned value",
        settled(
          rt.runWorkflow(workflowTool, {
            tools: {
              t: () => {
                throw poison;
              },
            },
          }),
        ),
      ],
    ];
  },

  formatError(rt) {
    // Runs wait on a tool while formatError is called with everything but an error.
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    const waiting = Array.from({ length: 4 }, (_, i) => [
      `run waiting on a tool #${i}`,
      settled(
        rt.run(
          { program: { op: "pipe", steps: [{ op: "call", tool: "t" }, { op: "sum" }] } },
          { tools: { t: () => gate }, timeoutMs: TIMEOUT_MS },
        ),
      ),
    ]);
    const calls = [];
    const values = {
      ...hostileValues(),
      "an object without type": { message: "m" },
      "an unknown type": { type: "oops", message: "m" },
    };
    for (const [name, value] of Object.entries(values)) {
      try {
        calls.push([`formatError(${name})`, Promise.resolve({ returned: rt.formatError(value) })]);
      } catch (e) {
        calls.push([
          `formatError(${name})`,
          Promise.resolve({
            rejected: e instanceof Error ? e.constructor.name : typeof e,
            message: safeText(e?.message),
          }),
        ]);
      }
    }
    const good = { type: "validation_error", message: "Unknown operation 'filer'.", path: "/program" };
    calls.push([
      "formatError(an error, a program Proxy throwing on every trap)",
      Promise.resolve({ returned: rt.formatError(good, values["Proxy that throws on every trap"]) }),
    ]);
    release([1, 2, 3]);
    return [...waiting, ...calls];
  },
};

async function main() {
  const [mode, scenario] = process.argv.slice(2);
  const rt = await createRuntime({ worker: mode === "worker" });
  const labelled = scenarios[scenario](rt);
  const healthy = labelled.map((_, i) => healthyRun(rt, i));
  const outcomes = await Promise.all(labelled.map(([, p]) => p));
  const healthyResults = await Promise.all(healthy);
  await sleep(50); // late rejections and exceptions, if any, reach the spies
  const report = {
    outcomes: Object.fromEntries(labelled.map(([label], i) => [label, outcomes[i]])),
    healthy: healthyResults.map((r, i) => (r.ok && r.result === String(6 + i) ? "right" : r)),
    activeRuns: rt.activeRuns,
    liveEngineRuns: await rt.liveEngineRunsForTesting(),
    escaped,
  };
  rt.close();
  console.log(JSON.stringify(report));
}

main().catch((e) => {
  console.log(JSON.stringify({ failed: safeText(e), escaped }));
});
