// Child process for the cold-start measurement: a fresh Node that has never
// loaded ptc-wasm imports the package, instantiates the engine and runs one
// small program. It prints its own timings as one JSON line; the parent adds
// the wall time of the whole process (Node's own startup and exit included).
//
// The data and program are built before the clock starts: they are the
// caller's, not the package's, cost.
import { generateRows, PTC_PROGRAM as program } from "./data.mjs";

const distUrl = new URL("../dist/node.mjs", import.meta.url);
const rows = generateRows(10);
const expected = rows.filter((r) => r.category === "travel").reduce((s, r) => s + r.amount, 0);

const t0 = performance.now(); // ms since this process started: Node's own boot
const { createRuntime } = await import(distUrl.href);
const t1 = performance.now();
const ptc = await createRuntime(); // reads + compiles + instantiates ptc.wasm
const t2 = performance.now();
const r = await ptc.run(program, { context: { rows } });
const t3 = performance.now();

const ok = r.ok && Math.abs(r.result - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
process.stdout.write(
  JSON.stringify({
    ok,
    got: r.ok ? r.result : r.error,
    expected,
    nodeBootMs: t0,
    importMs: t1 - t0,
    createMs: t2 - t1,
    firstRunMs: t3 - t2,
    totalMs: t3 - t0,
  }) + "\n",
);
