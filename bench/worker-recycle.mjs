// Issue 24, item 15: wasm memory never shrinks, so worker mode ends a worker
// whose engine grew past recycleEngineBytes once it is idle. This prints the
// host's RSS before a run that grows the worker's engine (a group_by over
// 600k rows), right after it with recycling off, and right after it with the
// default threshold (the worker was ended). Run after `npm run build`:
//   node bench/worker-recycle.mjs off; node bench/worker-recycle.mjs
import { createRuntime } from "../dist/node.mjs";

const MiB = 2 ** 20;
const rss = () => Math.round(process.memoryUsage().rss / MiB);
const rows = Array.from({ length: 600000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ["a", "b", i % 7] }));
const program = {
  program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "group_by", field: "id" }, { op: "count" }] },
};
const options = { context: { rows }, maxHeapBytes: 900 * MiB, timeoutMs: 120000 };

async function measure(recycleEngineBytes) {
  const runtime = await createRuntime({ worker: true, recycleEngineBytes });
  await runtime.run({ program: { op: "literal", value: 1 } }); // the worker is up
  const before = rss();
  const result = await runtime.run(program, options);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  const engine = await runtime.workerEngineBytesForTesting(); // 0 once the worker was ended
  await new Promise((resolve) => setTimeout(resolve, 500)); // an ended worker's thread exits
  const after = rss();
  runtime.close();
  return { recycleEngineBytes, rssBeforeMiB: before, rssAfterMiB: after, workerEngineMiB: Math.round(engine / MiB) };
}

// One process each (node bench/worker-recycle.mjs off|default): off is what the host kept before.
const recycle = process.argv[2] === "off" ? Infinity : undefined;
console.log(await measure(recycle));
