// What async tool support costs: the round trip of one tool call across the
// wasm boundary, whether tool-free work pays anything for it, and whether the
// runtime's memory grows over many runs. Run with `node bench/async.mjs`
// (after `npm run build`); `npm run bench` runs it too.
import { createRuntime } from "ptc-wasm";

const ptc = await createRuntime();
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeRun(program, options, reps) {
  const times = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    const r = await ptc.run(program, options);
    times.push(performance.now() - t);
    if (!r.ok) throw new Error(`bench program failed: ${JSON.stringify(r.error)}`);
  }
  return median(times);
}

// 1. One tool round trip: a map over N items, with and without a call per item.
const N = 2000;
const items = Array.from({ length: N }, (_, i) => i);
const mapPlain = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "xs" },
      { op: "map", expr: { op: "add", left: { op: "get", path: [] }, right: 1 } },
    ],
  },
};
const mapCall = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "xs" },
      { op: "map", expr: { op: "call", tool: "inc", args: { n: { op: "get", path: [] } } } },
    ],
  },
};
const syncTool = { inc: ({ n }) => n + 1 };
const asyncTool = { inc: async ({ n }) => n + 1 };
const plainMs = await timeRun(mapPlain, { context: { xs: items } }, 15);
console.log(`tool round trip (map over ${N} items, one call each, medians of 15 runs):`);
for (const maxConcurrency of [1, 8]) {
  const at = { context: { xs: items }, timeoutMs: 60000, maxConcurrency, maxToolCalls: N };
  const syncMs = await timeRun(mapCall, { ...at, tools: syncTool }, 15);
  const asyncMs = await timeRun(mapCall, { ...at, tools: asyncTool }, 15);
  console.log(
    `  maxConcurrency ${maxConcurrency}: synchronous tool ${(((syncMs - plainMs) / N) * 1000).toFixed(1)} µs per call, ` +
      `async tool ${(((asyncMs - plainMs) / N) * 1000).toFixed(1)} µs per call`,
  );
}

// 2. No tax on tool-free work: the same 100k-row pipeline alone, and as the
// body of a let whose value calls a tool (the pipeline itself calls none, so it
// still runs on the synchronous path).
const rows = Array.from({ length: 100000 }, (_, i) => ({
  id: i,
  category: i % 8 === 0 ? "travel" : "other",
  amount: i % 100,
}));
const pipeline = {
  op: "pipe",
  steps: [
    { op: "load", name: "rows" },
    { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
    { op: "sum", field: "amount" },
  ],
};
const alone = { program: pipeline };
const nextToCall = { program: { op: "let", name: "unused", value: { op: "call", tool: "noop" }, in: pipeline } };
const limits = { context: { rows }, maxHeapBytes: 512 * 1024 * 1024, timeoutMs: 60000 };
await timeRun(alone, limits, 3); // warm up
const a = [],
  b = [];
for (let i = 0; i < 9; i++) {
  a.push(await timeRun(alone, limits, 1));
  b.push(await timeRun(nextToCall, { ...limits, tools: { noop: () => null } }, 1));
}
console.log(
  `tool-free 100k-row filter+sum: ${median(a).toFixed(2)} ms alone, ${median(b).toFixed(2)} ms inside a program that also calls a tool (ratio ${(median(b) / median(a)).toFixed(2)})`,
);

// 3. Memory over many runs: the engine's linear memory after 100 and 10,000 runs.
const small = {
  program: {
    op: "pipe",
    steps: [{ op: "call", tool: "rows" }, { op: "filter", where: { op: "gt", field: "n", value: 5 } }, { op: "count" }],
  },
};
const fresh = await createRuntime();
const tools = { rows: async () => Array.from({ length: 20 }, (_, n) => ({ n })) };
let after100 = 0;
for (let i = 1; i <= 10000; i++) {
  const r = await fresh.run(small, { tools });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  if (i === 100) after100 = fresh.engineMemoryBytes;
}
console.log(`engine memory: ${after100} bytes after 100 runs, ${fresh.engineMemoryBytes} bytes after 10,000 runs`);

// 4. Fan-out latency: 50 calls of a 100 ms tool in one map, one at a time and
// concurrently (issue 16: at most 2x one call's latency x ceil(50 / maxConcurrency)).
const CALLS = 50;
const TOOL_MS = 100;
const fanOut = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "ids" },
      { op: "map", expr: { op: "call", tool: "slow" } },
    ],
  },
};
const slowTool = { slow: () => new Promise((resolve) => setTimeout(() => resolve(1), TOOL_MS)) };
const worker = await createRuntime({ worker: true });
console.log(`fan-out: ${CALLS} calls of a ${TOOL_MS} ms tool in one map (median of 3 runs):`);
for (const [mode, rt] of [
  ["in-process", ptc],
  ["worker", worker],
]) {
  for (const maxConcurrency of [1, 8, 50]) {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const r = await rt.run(fanOut, {
        context: { ids: Array.from({ length: CALLS }, (_, i) => i) },
        tools: slowTool,
        maxConcurrency,
        timeoutMs: 60000,
      });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      times.push(performance.now() - t);
    }
    const rounds = Math.ceil(CALLS / maxConcurrency);
    console.log(
      `  ${mode}, maxConcurrency ${maxConcurrency}: ${median(times).toFixed(0)} ms ` +
        `(${rounds} rounds; the target is at most ${2 * TOOL_MS * rounds} ms)`,
    );
  }
}
worker.close();

// 5. Suspend and resume (issue 16 item 2): a run that made 100 calls and stops
// at the 101st (it needs approval): the size of its JSON state, and the time
// to resume it (the program runs again, its 100 calls answered from the journal).
const lookups = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "ids" },
      { op: "map", as: "id", expr: { op: "call", tool: "lookup", args: { id: { op: "var", name: "id" } } } },
      {
        op: "let",
        name: "found",
        value: { op: "get", path: [] },
        in: {
          op: "call",
          tool: "publish",
          args: { n: { op: "pipe", steps: [{ op: "var", name: "found" }, { op: "count" }] } },
        },
      },
    ],
  },
};
const suspendTools = {
  lookup: async ({ id }) => ({ id, name: `customer ${id}`, tier: id % 3 }),
  publish: { effect: "write", approval: true, execute: async ({ n }) => `published ${n}` },
};
const ids = Array.from({ length: 100 }, (_, i) => i);
const suspended = await ptc.run(lookups, { context: { ids }, tools: suspendTools });
if (suspended.status !== "suspended") throw new Error(JSON.stringify(suspended));
const stateText = JSON.stringify(suspended.state);
const results = { [suspended.pending[0].id]: { approved: true } };
const resumeTimes = [];
for (let i = 0; i < 9; i++) {
  const t = performance.now();
  const r = await ptc.resume(JSON.parse(stateText), { results, tools: suspendTools, context: { ids } });
  if (!r.ok || r.result !== "published 100") throw new Error(JSON.stringify(r));
  resumeTimes.push(performance.now() - t);
}
console.log(
  `suspend/resume: a run suspended after 100 answered calls has a ${stateText.length}-byte JSON state ` +
    `(${Math.round(stateText.length / 101)} bytes a call); resuming it takes ${median(resumeTimes).toFixed(2)} ms (median of 9)`,
);
