// ptc-wasm benchmark suite: `npm run bench` (scripts/bench.sh) runs this file
// once, in one Node process, after building dist/. See bench/README.md.
//
//   node --expose-gc bench/run.mjs [--quick]
//
// --quick: fewer repetitions and no 1M-row run, for a fast look while working.
//
// Speed targets are reported as PASS/MISS and never fail the process (shared
// 2-core machines are noisy); a wrong answer from any engine does (exit 1).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { generateRows } from "./data.mjs";
import { createPeers, LimitError, plainJs, ptcRun } from "./peers.mjs";
import { measureWorkloads, reportWorkloads, workloadTargets } from "./workloads.mjs";

const QUICK = process.argv.includes("--quick");
const HERE = fileURLToPath(new URL(".", import.meta.url));
const DIST = fileURLToPath(new URL("../dist/", import.meta.url));

// ---------------------------------------------------------------- helpers --

const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const min = (xs) => Math.min(...xs);

// A full collection before each big sample (100k rows and up), outside the
// timed region, so that one engine's garbage is not collected on the clock of
// the engine that runs after it. Not for short samples: right after a forced
// full GC, V8 runs the next few milliseconds markedly slower (measured: a
// 40 µs call became 70 µs), which would swamp them. Short samples instead rely
// on rotation (below) and medians. Needs --expose-gc; without it, big samples
// are just noisier.
const collect = globalThis.gc ? () => globalThis.gc() : () => {};

// Interleaving order: round r starts with engine r mod k (A,B,C, B,C,A, ...),
// so no engine always runs right after the same other one and inherits its
// garbage or its cache state.
const rotated = (list, r) => list.map((_, i) => list[(i + r) % list.length]);

function fmtTime(ms) {
  if (ms == null || !Number.isFinite(ms)) return "—";
  // A difference of two noisy medians can come out below zero.
  if (ms < 0) return `-${fmtTime(-ms)}`;
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}
function fmtRatio(r) {
  if (r == null || !Number.isFinite(r)) return "—";
  if (r >= 100) return `${r.toFixed(0)}x`;
  if (r >= 10) return `${r.toFixed(1)}x`;
  return `${r.toFixed(2)}x`;
}
const fmtBytes = (b) => `${b.toLocaleString("en-US")} B (${(b / 1024).toFixed(1)} KiB)`;
const fmtRows = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
const pad = (s, w) => String(s).padEnd(w);
const lpad = (s, w) => String(s).padStart(w);
const say = (s = "") => process.stdout.write(s.trimEnd() + "\n");
const progress = (s) => process.stderr.write(`  … ${s}\n`);

// Sums of floats added in a different order differ in the last bits; anything
// beyond that tolerance is a wrong answer.
function sameNumber(got, expected) {
  return typeof got === "number" && Math.abs(got - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
}
function wrongAnswer(what, got, expected) {
  say();
  say(`WRONG ANSWER: ${what}: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)} (plain JS).`);
  say("Timings from an engine that answers wrongly mean nothing; aborting.");
  process.exit(1);
}
function engineFailed(what, error) {
  say();
  say(`ENGINE FAILED: ${what}: ${error?.stack ?? error}`);
  say("A failure that is not a time or memory limit is a bug, not a measurement; aborting.");
  process.exit(1);
}

// Limits per size, the same for the two sandboxes (ptc-wasm and quickjs): the
// package defaults (1 s, 10 MiB) for small inputs, raised for big ones so that
// the limits do not decide the outcome. They are generous, not tuned.
function limitsFor(rows) {
  if (rows <= 1000) return { timeoutMs: 1000, maxHeapBytes: 10 * 1024 * 1024 };
  if (rows <= 100_000) return { timeoutMs: 20_000, maxHeapBytes: 256 * 1024 * 1024 };
  return { timeoutMs: 60_000, maxHeapBytes: 1024 * 1024 * 1024 };
}

// ------------------------------------------------------------------ sizes --

function measureSizes() {
  const gz = (buf) => gzipSync(buf, { level: 9 }).length;
  const wasm = readFileSync(DIST + "ptc.wasm");
  const glue = readFileSync(DIST + "node.mjs");
  const s = { wasmRaw: wasm.length, wasmGz: gz(wasm), glueRaw: glue.length, glueGz: gz(glue) };
  // Two files fetched separately, each compressed on its own.
  s.totalGz = s.wasmGz + s.glueGz;
  return s;
}

// ------------------------------------------------------------- cold start --

// A fresh `node` per sample: nothing is cached in-process between samples (the
// OS page cache is warm after the first, as it is for any server). A bare
// `node -e ""` is timed alongside, so the package's share of the wall time
// can be told from Node's own start-up.
function measureColdStart(samples) {
  const child = HERE + "coldstart-child.mjs";
  const inside = [];
  const wall = [];
  const bare = [];
  const parts = { importMs: [], createMs: [], firstRunMs: [] };
  for (let i = 0; i < samples; i++) {
    let t = now();
    const out = spawnSync(process.execPath, [child], { encoding: "utf8" });
    wall.push(now() - t);
    if (out.status !== 0) engineFailed("cold-start child", `exit status ${out.status}\n${out.stderr}`);
    const m = JSON.parse(out.stdout.trim().split("\n").pop());
    if (!m.ok) wrongAnswer("cold start, first run", m.got, m.expected);
    inside.push(m.totalMs);
    for (const k of Object.keys(parts)) parts[k].push(m[k]);

    t = now();
    spawnSync(process.execPath, ["-e", ""]);
    bare.push(now() - t);
  }
  return {
    samples,
    insideMs: median(inside),
    wallMs: median(wall),
    bareNodeMs: median(bare),
    importMs: median(parts.importMs),
    createMs: median(parts.createMs),
    firstRunMs: median(parts.firstRunMs),
  };
}

// ------------------------------------------------------------- tiny call --

// A call on 10 rows takes microseconds, below what one clock read resolves
// well: time batches of calls and take the median of the per-call average over
// many batches. Batches of the different engines are interleaved.
async function measureTiny(peers, batches) {
  const rows = generateRows(10);
  const expected = plainJs(rows);
  const limits = limitsFor(10);
  const plan = [];
  for (const peer of peers) {
    let got;
    try {
      got = await peer.run(rows, limits);
    } catch (e) {
      engineFailed(`${peer.name}, 10 rows`, e);
    }
    if (!sameNumber(got, expected)) wrongAnswer(`${peer.name}, 10 rows`, got, expected);
    // Warm up for 200 ms (JIT tiers, wasm tier-up), then size a batch to ~2 ms
    // from 20 warm calls (the warm-up's own average includes the cold calls).
    const t = now();
    while (now() - t < 200) await peer.run(rows, limits);
    const t20 = now();
    for (let i = 0; i < 20; i++) await peer.run(rows, limits);
    const perCall = (now() - t20) / 20;
    plan.push({ peer, batch: Math.max(1, Math.min(20_000, Math.round(2 / perCall))), samples: [] });
  }
  for (let b = 0; b < batches; b++) {
    for (const p of rotated(plan, b)) {
      const t = now();
      for (let i = 0; i < p.batch; i++) await p.peer.run(rows, limits);
      p.samples.push((now() - t) / p.batch);
    }
  }
  return plan.map((p) => ({ name: p.peer.name, batch: p.batch, medianMs: median(p.samples), minMs: min(p.samples) }));
}

// ------------------------------------------------------------- throughput --

// One size: check every engine's answer against plain JS first (that run also
// warms it up), then time `rounds` interleaved rounds (see rotated()).
async function measureSize(peers, n, rounds) {
  progress(`generating ${fmtRows(n)} rows`);
  const rows = generateRows(n);
  const expected = plainJs(rows);
  const limits = limitsFor(n);
  const state = peers.map((peer) => ({ peer, samples: [], skipped: null }));

  progress(`${fmtRows(n)} rows: checking answers`);
  for (const s of state) {
    try {
      const got = await s.peer.run(rows, limits);
      if (!sameNumber(got, expected)) wrongAnswer(`${s.peer.name}, ${fmtRows(n)} rows`, got, expected);
    } catch (e) {
      if (!(e instanceof LimitError)) engineFailed(`${s.peer.name}, ${fmtRows(n)} rows`, e);
      s.skipped = e.message;
    }
  }
  // Small inputs: a few untimed rounds more, so the JIT and wasm tier-up are
  // past before timing (big inputs are warm after one call).
  const big = n >= 100_000;
  const warmup = big ? 0 : 5;
  for (let r = 0; r < warmup; r++) for (const s of state) if (!s.skipped) await s.peer.run(rows, limits);

  progress(`${fmtRows(n)} rows: ${rounds} interleaved rounds`);
  for (let r = 0; r < rounds; r++) {
    for (const s of rotated(state, r)) {
      if (s.skipped) continue;
      if (big) collect();
      const t = now();
      try {
        await s.peer.run(rows, limits);
      } catch (e) {
        if (!(e instanceof LimitError)) engineFailed(`${s.peer.name}, ${fmtRows(n)} rows (timed run)`, e);
        s.skipped = `${e.message} (in a timed run)`;
        continue;
      }
      s.samples.push(now() - t);
    }
  }
  return {
    n,
    rows,
    results: state.map((s) => ({
      name: s.peer.name,
      skipped: s.skipped,
      runs: s.samples.length,
      medianMs: s.skipped ? null : median(s.samples),
      minMs: s.skipped ? null : min(s.samples),
    })),
  };
}

// -------------------------------------------------------------- breakdown --

// Where ptc-wasm's time goes on 100k rows. The engine cannot be instrumented
// from here, so the parts are differences of things that can be timed. The
// benchmarked program reads two fields of each row (category, amount), so the
// wrapper sends only those, as a binary row block (engine/ptc/projection.h,
// engine/host/row_block.h):
//   fixed       ptc.run of a literal, per call over a batch: no data crosses
//               (the wrapper only sends the context keys a program loads);
//               program text, prepared-program lookup, the run call, status
//               JSON, result
//   parse       ptc.run of load + drop(all) + filter + sum: the same two fields
//               cross (written in JS, copied, decoded into values, freed), then
//               nothing is left to filter; its metrics.payloadMs is the JS part
//   full        ptc.run of load + filter + sum (the benchmarked program)
// and for scale:
//   stringify   JSON.stringify({ rows }) timed alone: what sending the rows as
//               JSON text would cost before anything crosses
//   whole       ptc.run of load + first + keys + count: the program can see a
//               whole row, so the rows cross whole, as JSON
//   filterOnly  ptc.run of load + filter: the ~1/8 matching rows come back
//               (the rows cross whole: the program returns them)
// All are sampled interleaved, like the peers.
async function measureBreakdown(ptc, rows, rounds) {
  const limits = limitsFor(rows.length);
  const expected = plainJs(rows);
  const matching = rows.filter((r) => r.category === "travel").length;
  const load = { op: "load", name: "rows" };
  const filter = { op: "filter", where: { op: "eq", field: "category", value: "travel" } };
  const programs = {
    fixed: { program: { op: "literal", value: 0 } },
    parse: {
      program: {
        op: "pipe",
        steps: [load, { op: "drop", count: rows.length }, filter, { op: "sum", field: "amount" }],
      },
    },
    full: { program: { op: "pipe", steps: [load, filter, { op: "sum", field: "amount" }] } },
    whole: { program: { op: "pipe", steps: [load, { op: "first" }, { op: "keys" }, { op: "count" }] } },
    filterOnly: { program: { op: "pipe", steps: [load, filter] } },
  };
  // What each program must return: [check, description of the right answer].
  const checks = {
    fixed: [(v) => v === 0, 0],
    parse: [(v) => v === 0, 0],
    full: [(v) => sameNumber(v, expected), expected],
    whole: [(v) => v === Object.keys(rows[0]).length, Object.keys(rows[0]).length],
    filterOnly: [(v) => Array.isArray(v) && v.length === matching, `a list of ${matching} rows`],
  };
  const tasks = { stringify: () => JSON.stringify({ rows }) };
  for (const [name, program] of Object.entries(programs)) {
    let got;
    try {
      got = await ptcRun(ptc, program, rows, limits);
    } catch (e) {
      engineFailed(`ptc-wasm breakdown program '${name}', ${fmtRows(rows.length)} rows`, e);
    }
    const [ok, right] = checks[name];
    if (!ok(got)) {
      const shown = Array.isArray(got) ? `a list of ${got.length} rows` : got;
      wrongAnswer(`ptc-wasm breakdown program '${name}', ${fmtRows(rows.length)} rows`, shown, right);
    }
    tasks[name] = () => ptcRun(ptc, program, rows, limits);
  }
  // The package reports the JS side of sending the rows as metrics.payloadMs.
  const payloadMs = { parse: [], whole: [] };
  for (const name of Object.keys(payloadMs)) {
    tasks[name] = async () => {
      const r = await ptc.run(programs[name], { context: { rows }, ...limits });
      payloadMs[name].push(r.metrics.payloadMs);
    };
  }
  // The fixed cost is tens of µs, and a single call right after a 100k-row run
  // also pays for that run's leftover GC work: time a batch and divide.
  const FIXED_BATCH = 50;
  tasks.fixed = async () => {
    for (let i = 0; i < FIXED_BATCH; i++) await ptcRun(ptc, programs.fixed, rows, limits);
  };
  const samples = Object.fromEntries(Object.keys(tasks).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, task] of rotated(Object.entries(tasks), r)) {
      // Not before the two short tasks: a forced GC would slow them (see collect).
      if (name !== "fixed") collect();

      const t = now();
      await task();
      samples[name].push(now() - t);
    }
  }
  const medians = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  medians.fixed /= FIXED_BATCH;
  return { matching, ...medians, payloadParse: median(payloadMs.parse), payloadWhole: median(payloadMs.whole) };
}

// ------------------------------------------------------------------- main --

const SIZES = QUICK
  ? [
      { n: 1000, rounds: 15 },
      { n: 100_000, rounds: 3 },
    ]
  : [
      { n: 1000, rounds: 41 },
      { n: 100_000, rounds: 9 },
      { n: 1_000_000, rounds: 5 },
    ];
const BREAKDOWN_AT = 100_000;

const started = now();
// The load average is printed because other work on the machine moves the
// absolute numbers more than anything measured here.
const loadNow = () => loadavg()[0].toFixed(2);
say(
  `ptc-wasm benchmark — node ${process.version}, ${process.platform}/${process.arch}, ` +
    `${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? "unknown"}), load average ${loadNow()}` +
    (QUICK ? " (--quick)" : ""),
);
if (!globalThis.gc) say("note: run with --expose-gc for steadier large-input numbers");
say();

const sizes = measureSizes();
progress("cold start (fresh node processes)");
const cold = measureColdStart(QUICK ? 3 : 7);

progress("loading peers");
const { ptc, peers } = await createPeers();
const peerNames = peers.map((p) => p.name);

progress("tiny call (10 rows, warm)");
const TINY_BATCHES = QUICK ? 15 : 41;
const tiny = await measureTiny(peers, TINY_BATCHES);

const sizeResults = [];
let breakdown = null;
for (const { n, rounds } of SIZES) {
  const res = await measureSize(peers, n, rounds);
  if (n === BREAKDOWN_AT) {
    progress(`${fmtRows(n)} rows: ptc-wasm breakdown`);
    breakdown = await measureBreakdown(ptc, res.rows, QUICK ? 3 : 7);
  }
  res.rows = null; // let the rows go before the next size is generated
  sizeResults.push(res);
}
// W3 (join) and GROUP (group-by): bench/workloads.mjs.
const workloads = await measureWorkloads(ptc, { quick: QUICK, progress });
const engineMemoryAfter = ptc.engineMemoryBytes;

// ----------------------------------------------------------------- report --

const line = "-".repeat(78);
say("FILTER + SUM at the boundary: JS rows in, JS number out (warm; median of interleaved runs)");
say("ratio = ptc-wasm time / peer time: below 1 means ptc-wasm is faster");
say('"ptc (whole)" is ptc-wasm on the same question written so that the rows cross whole, as JSON');
say("(no projection of the two fields read; see bench/README.md): it is not a peer.");
say(line);
say(
  `${pad("rows", 7)}${pad("engine", 12)}${lpad("median", 11)}${lpad("min", 11)}${lpad("runs", 6)}${lpad("per row", 11)}${lpad("ptc/peer", 11)}`,
);
say(line);
for (const { n, results } of sizeResults) {
  const ptcMs = results.find((r) => r.name === "ptc-wasm").medianMs;
  results.forEach((r, i) => {
    const head = pad(i === 0 ? fmtRows(n) : "", 7) + pad(r.name, 12);
    if (r.skipped) {
      say(`${head}  could not run: ${r.skipped}`);
      return;
    }
    const perRow = fmtTime(r.medianMs / n);
    const ratio = r.name === "ptc-wasm" ? "" : fmtRatio(ptcMs / r.medianMs);
    say(
      head +
        lpad(fmtTime(r.medianMs), 11) +
        lpad(fmtTime(r.minMs), 11) +
        lpad(r.runs, 6) +
        lpad(perRow, 11) +
        lpad(ratio, 11),
    );
  });
  say(line);
}
say();

reportWorkloads(workloads, say);
say();

say("TINY CALL: 10 rows, warm; median over batches of calls (µs per call)");
say(line);
say(
  `${pad("engine", 14)}${lpad("median", 12)}${lpad("min", 12)}${lpad("batches", 9)}${lpad("calls/batch", 13)}${lpad("ptc/peer", 11)}`,
);
say(line);
const tinyPtc = tiny.find((t) => t.name === "ptc-wasm").medianMs;
for (const t of tiny) {
  say(
    pad(t.name, 14) +
      lpad(fmtTime(t.medianMs), 12) +
      lpad(fmtTime(t.minMs), 12) +
      lpad(TINY_BATCHES, 9) +
      lpad(t.batch, 13) +
      lpad(t.name === "ptc-wasm" ? "" : fmtRatio(tinyPtc / t.medianMs), 11),
  );
}
say(line);
say();

if (breakdown) {
  const b = breakdown;
  const rowsOut = b.filterOnly - b.full;
  say(`WHERE PTC-WASM'S TIME GOES at ${fmtRows(BREAKDOWN_AT)} rows (medians; parts are differences, so approximate)`);
  say(line);
  const part = (label, ms, how) =>
    say(`${pad(label, 36)}${lpad(fmtTime(ms), 10)}${lpad(((100 * ms) / b.full).toFixed(0) + "%", 6)}   ${how}`);
  part("JS: 2 fields a row, binary block", b.payloadParse, "metrics.payloadMs of the parse run");
  part(
    "engine: decode the block into values",
    b.parse - b.fixed - b.payloadParse,
    "parse run - fixed - payloadMs (and freeing)",
  );
  part("engine: filter + sum", b.full - b.parse, "full run - parse run");
  part("fixed per-run cost, result back", b.fixed, "literal run, no data crossing (batch average)");
  say(line);
  part("full run (filter + sum)", b.full, "timed");
  say();
  say(
    `For scale: were the rows sent whole as JSON (load + first + keys, which sees a whole row), the run took ` +
      `${fmtTime(b.whole)},`,
  );
  say(
    `of which ${fmtTime(b.payloadWhole)} JSON.stringify in JS (alone: ${fmtTime(b.stringify)}) and ` +
      `${fmtTime(b.whole - b.fixed - b.payloadWhole)} parsing it in the engine.`,
  );
  say(
    `Returning the ${b.matching.toLocaleString("en-US")} matching rows instead of their sum ` +
      `(load + filter) took ${fmtTime(b.filterOnly)},`,
  );
  say(`${fmtTime(rowsOut)} more than the sum: the rows cross whole (the program returns them), are serialised`);
  say("in wasm, decoded and parsed by JSON.parse in JS.");
  say("Method: each line is a separately timed run (JS-only steps, or ptc.run of a simpler program");
  say("on the same rows); engine-internal parts are differences of those medians, not instrumented.");
  say();
}

say("COLD START: fresh `node` child process; import + createRuntime + first run (10 rows)");
say(line);
say(`${pad(`inside the child (median of ${cold.samples})`, 50)}${lpad(fmtTime(cold.insideMs), 10)}`);
say(`${pad("  import dist/node.mjs", 50)}${lpad(fmtTime(cold.importMs), 10)}`);
say(`${pad("  createRuntime() (read + compile + instantiate)", 50)}${lpad(fmtTime(cold.createMs), 10)}`);
say(`${pad("  first ptc.run", 50)}${lpad(fmtTime(cold.firstRunMs), 10)}`);
say(`${pad("whole child process, wall time", 50)}${lpad(fmtTime(cold.wallMs), 10)}`);
say(`${pad('  for comparison: bare `node -e ""`', 50)}${lpad(fmtTime(cold.bareNodeMs), 10)}`);
say(line);
say();

say("SIZES (gzip -9)");
say(line);
say(`${pad("dist/ptc.wasm raw", 30)}${fmtBytes(sizes.wasmRaw)}`);
say(`${pad("dist/ptc.wasm gzip", 30)}${fmtBytes(sizes.wasmGz)}`);
say(`${pad("dist/node.mjs raw (JS glue)", 30)}${fmtBytes(sizes.glueRaw)}`);
say(`${pad("dist/node.mjs gzip", 30)}${fmtBytes(sizes.glueGz)}`);
say(`${pad("wasm + glue, gzip", 30)}${fmtBytes(sizes.totalGz)}`);
say(line);
say(`(ptc-wasm engine's linear memory after the last run: ${(engineMemoryAfter / 1048576).toFixed(0)} MiB)`);
say();

// ---------------------------------------------------------------- targets --

const targets = [];
for (const peerName of ["JSONata", "quickjs"]) {
  for (const { n, results } of sizeResults) {
    const p = results.find((r) => r.name === "ptc-wasm");
    const q = results.find((r) => r.name === peerName);
    const label = `faster than ${peerName} at ${fmtRows(n)} rows`;
    if (p.skipped) targets.push([label, "MISS", `ptc-wasm could not run: ${p.skipped}`]);
    else if (q.skipped) targets.push([label, "N/A ", `${peerName} could not run`]);
    else
      targets.push([
        label,
        p.medianMs < q.medianMs ? "PASS" : "MISS",
        `${fmtTime(p.medianMs)} vs ${fmtTime(q.medianMs)} (ratio ${fmtRatio(p.medianMs / q.medianMs)})`,
      ]);
  }
}
targets.push(["tiny call under 20 µs", tinyPtc < 0.02 ? "PASS" : "MISS", `${fmtTime(tinyPtc)} per call`]);
targets.push([
  "cold start under 30 ms",
  cold.insideMs < 30 ? "PASS" : "MISS",
  `${fmtTime(cold.insideMs)} inside the child (process wall ${fmtTime(cold.wallMs)})`,
]);
// KB here is 1000 bytes, the stricter reading.
targets.push([
  "wasm + glue under 300 KB gzip",
  sizes.totalGz < 300_000 ? "PASS" : "MISS",
  `${(sizes.totalGz / 1000).toFixed(1)} KB`,
]);

targets.push(...workloadTargets(workloads));

say("TARGETS (measured, not asserted: a MISS does not fail the run)");
say(line);
for (const [label, verdict, detail] of targets) say(`${verdict}  ${pad(label, 34)}${detail}`);
say(line);
say(
  `peers: ${peerNames.join(", ")}; all answers matched plain JS. ` +
    `Took ${((now() - started) / 1000).toFixed(0)} s; load average at the end ${loadNow()}.`,
);
