// WARN (issue 26): what the field-read warnings cost per read. Every node that
// reads a named field has a slot in the run's tally (engine/core/warnings.h),
// one store per read; a `get` with a `default` has none (it expects misses).
// So the same map over the same rows, reading the same fields, is timed with
// its reads tallied (`get` field) and untallied (`get` field with a default
// the rows never need): the difference is the tally. Resident rows (runtime.load),
// so that no crossing is on the clock. Interleaved, warm, medians; ratios of
// this run only, nothing asserted.
//
//   node --expose-gc bench/warnings.mjs [--quick]   # alone
//   npm run bench -- --only WARN                    # through the runner's summary
import { fileURLToPath } from "node:url";
import { generateRows } from "./data.mjs";

const FIELDS = ["id", "date", "merchant", "category", "amount"];

// Five reads per row (an object of the row's fields), then the count: the
// result is small, so building and writing it costs nothing that differs.
const program = (tallied) => ({
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "rows" },
      {
        op: "map",
        expr: {
          op: "object",
          fields: Object.fromEntries(
            FIELDS.map((f) => [f, tallied ? { op: "get", field: f } : { op: "get", field: f, default: null }]),
          ),
        },
      },
      { op: "count" },
    ],
  },
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const collect = globalThis.gc ? () => globalThis.gc() : () => {};

async function timed(ptc, prog, resident, rows) {
  collect();
  const t0 = performance.now();
  const r = await ptc.run(prog, { resident, timeoutMs: 60_000, maxHeapBytes: 1 << 30 });
  const ms = performance.now() - t0;
  if (!r.ok || r.result !== rows) throw new Error(`WARN: wrong answer ${JSON.stringify(r.error ?? r.result)}`);
  if (r.warnings) throw new Error(`WARN: unexpected warnings ${JSON.stringify(r.warnings)}`);
  return ms;
}

/** Medians of the tallied and untallied runs at each size, measured in this run. */
export async function measureWarningsTally(ptc, { quick = false, progress = () => {} } = {}) {
  const sizes = quick ? [100_000] : [100_000, 500_000];
  const reps = quick ? 5 : 11;
  const out = [];
  for (const rows of sizes) {
    progress(`WARN ${rows} rows`);
    const loaded = await ptc.load({ rows: generateRows(rows) }, { maxResidentBytes: 1 << 30 });
    if (!loaded.ok) throw new Error(`WARN: load failed: ${loaded.error.message}`);
    const { resident } = loaded;
    const samples = { tallied: [], untallied: [] };
    const order = ["tallied", "untallied"];
    for (const kind of order) await timed(ptc, program(kind === "tallied"), resident, rows); // warm
    for (let r = 0; r < reps; r++)
      for (const kind of r % 2 ? [...order].reverse() : order)
        samples[kind].push(await timed(ptc, program(kind === "tallied"), resident, rows));
    resident.close();
    const tallied = median(samples.tallied);
    const untallied = median(samples.untallied);
    const reads = rows * FIELDS.length;
    out.push({
      rows,
      reads,
      tallied,
      untallied,
      ratio: tallied / untallied,
      nsPerRead: ((tallied - untallied) * 1e6) / reads,
    });
  }
  return out;
}

export function reportWarningsTally(measured, say) {
  say("WARN — the field-read warnings' tally: map over resident rows, 5 field reads per row, then count");
  say("  tallied: {get field}; untallied: {get field, default: null} (no slot); medians, interleaved");
  for (const m of measured)
    say(
      `  ${String(m.rows).padStart(7)} rows  tallied ${m.tallied.toFixed(2)} ms  untallied ${m.untallied.toFixed(2)} ms  ` +
        `ratio ${m.ratio.toFixed(3)}x  ${m.nsPerRead.toFixed(2)} ns per read`,
    );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { createRuntime } = await import("../dist/node.mjs");
  const ptc = await createRuntime();
  const measured = await measureWarningsTally(ptc, { quick: process.argv.includes("--quick") });
  reportWarningsTally(measured, console.log);
}
