// ptc-wasm benchmark suite: `npm run bench` (scripts/bench.sh) runs this file
// once, in one Node process, after building dist/. See bench/README.md.
//
//   node --expose-gc bench/run.mjs [--quick] [--only W1,W4] [--compare FILE] [--out FILE]
//
// --quick: fewer repetitions and no 1M-row run, for a fast look while working.
// --only: run only these workloads (repeatable or comma-separated).
// --out: where the JSON of this run goes (default build/bench/latest.json; the
//   previous one is kept as build/bench/previous.json).
// --compare: the JSON of an earlier run to diff against (default: the previous
//   run's, when there is one).
//
// Speed targets are reported as PASS/MISS and never fail the process (shared
// 2-core machines are noisy); a wrong answer from any engine does (exit 1).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { generateRows } from "./data.mjs";
import { createPeers, LimitError, plainJs, ptcRun } from "./peers.mjs";
import { codeBytes, sizeParts } from "./size-parts.mjs";
import { printDiff, printSummary, saveRun } from "./summary.mjs";
import { measureTokens, reportTokens } from "./tokens.mjs";
import { measureWarningsTally, reportWarningsTally } from "./warnings.mjs";
import { measureWorkloads, reportWorkloads, workloadTargets } from "./workloads.mjs";

const { values: ARGS } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string", multiple: true, default: [] },
    compare: { type: "string" },
    out: { type: "string" },
  },
});
const QUICK = ARGS.quick;
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
  const file = (name) => {
    const bytes = readFileSync(DIST + name);
    return { raw: bytes.length, gz: gz(bytes) };
  };
  const s = {
    wasm: file("ptc.wasm"),
    glue: file("node.mjs"),
    extras: file("extras.cjs"),
    browser: file("browser.mjs"),
  };
  // Files fetched separately, each compressed on its own. The extras (prompts,
  // schemas, the tool-args validator) are loaded on first use, but they count:
  // the target is what the whole runtime weighs, not what an import reads.
  s.totalGz = s.wasm.gz + s.glue.gz + s.extras.gz;
  s.browserTotalGz = s.wasm.gz + s.browser.gz;
  s.wasmPtcJson = file("ptc-json.wasm");
  s.workerBrowser = file("worker.browser.mjs");
  s.extrasBrowser = file("extras.browser.mjs");
  // What a page fetches before its first PTC-JSON run (issue 38 item 3): the
  // engine without step functions (ptc.wasm follows on first use), browser.mjs
  // and the worker script (extras.browser.mjs follows on first use).
  s.pageGz = s.wasmPtcJson.gz + s.browser.gz + s.workerBrowser.gz;
  s.pageStepFunctionsGz = s.browserTotalGz + s.workerBrowser.gz;
  return s;
}

// ------------------------------------------------------------- cold start --

// A fresh `node` per sample: nothing is cached in-process between samples (the
// OS page cache is warm after the first, as it is for any server). A bare
// `node -e ""` is timed alongside, so the package's share of the wall time
// can be told from Node's own start-up.
function measureColdStart(samples, peer = "ptc-wasm") {
  const child = HERE + "coldstart-child.mjs";
  const inside = [];
  const wall = [];
  const bare = [];
  const parts = { importMs: [], createMs: [], firstRunMs: [] };
  for (let i = 0; i < samples; i++) {
    let t = now();
    const out = spawnSync(process.execPath, [child, peer], { encoding: "utf8" });
    wall.push(now() - t);
    if (out.status !== 0) engineFailed(`${peer} cold-start child`, `exit status ${out.status}\n${out.stderr}`);
    const m = JSON.parse(out.stdout.trim().split("\n").pop());
    if (!m.ok) wrongAnswer(`${peer} cold start, first run`, m.got, m.expected);
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
    // A peer far slower than the rest is not run on the biggest inputs, where
    // one round of it would take minutes (Monty: ~7 µs a row).
    if (n > (s.peer.maxRows ?? Infinity)) {
      s.skipped = `not run above ${fmtRows(s.peer.maxRows)} rows (too slow for this size)`;
      continue;
    }
    try {
      // A peer that keeps data between calls (ptc-wasm's resident context) is
      // handed the rows once, untimed.
      await s.peer.prepare?.(rows, limits);
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
  for (const s of state) s.peer.release?.();
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
// wrapper sends only those, as a binary row block (engine/ptc_json/projection.h,
// engine/core/row_block.h):
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

// -------------------------------------------------------------- workloads --

// Each workload measures, prints its detailed section and returns its lines
// of the summary table: { id, label, unit: "ms" | "bytes", cells: { peer:
// value } } (value = median time in ms, or bytes), plus the targets it judges:
// [label, "PASS" | "MISS" | "N/A ", detail]. `--only W1` runs one of them.

const line = "-".repeat(78);

// Peers are loaded once, by the first workload that needs them.
let loadedPeers;
async function peersOnce() {
  if (!loadedPeers) {
    progress("loading peers");
    loadedPeers = await createPeers();
    for (const { name, reason } of loadedPeers.skippedPeers) say(`SKIPPED peer ${name}: ${reason}`);
  }
  return loadedPeers;
}

function printThroughput(sizeResults) {
  say("W1 FILTER + SUM at the boundary: JS rows in, JS number out (warm; median of interleaved runs)");
  say("ratio = ptc-wasm time / peer time: below 1 means ptc-wasm is faster");
  say('"ptc (whole)" is ptc-wasm on the same question written so that the rows cross whole, as JSON');
  say('(no projection of the two fields read); "ptc resident" runs on rows loaded into the engine once');
  say("(runtime.load, outside the clock). Neither is a peer; see bench/README.md.");
  say(line);
  say(
    `${pad("rows", 7)}${pad("engine", 13)}${lpad("median", 11)}${lpad("min", 11)}${lpad("runs", 6)}${lpad("per row", 11)}${lpad("ptc/peer", 11)}`,
  );
  say(line);
  for (const { n, results } of sizeResults) {
    const ptcMs = results.find((r) => r.name === "ptc-wasm").medianMs;
    results.forEach((r, i) => {
      const head = pad(i === 0 ? fmtRows(n) : "", 7) + pad(r.name, 13);
      if (r.skipped) {
        say(`${head}  could not run: ${r.skipped}`);
        return;
      }
      const ratio = r.name === "ptc-wasm" ? "" : fmtRatio(ptcMs / r.medianMs);
      say(
        head +
          lpad(fmtTime(r.medianMs), 11) +
          lpad(fmtTime(r.minMs), 11) +
          lpad(r.runs, 6) +
          lpad(fmtTime(r.medianMs / n), 11) +
          lpad(ratio, 11),
      );
    });
    say(line);
  }
  say();
}

function printBreakdown(b) {
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

async function workloadW1() {
  const { ptc, peers } = await peersOnce();
  const sizeResults = [];
  let breakdown = null;
  for (const { n, rounds } of SIZES) {
    const res = await measureSize(
      peers.filter((p) => !p.tinyOnly),
      n,
      rounds,
    );
    if (n === BREAKDOWN_AT) {
      progress(`${fmtRows(n)} rows: ptc-wasm breakdown`);
      breakdown = await measureBreakdown(ptc, res.rows, QUICK ? 3 : 7);
    }
    res.rows = null; // let the rows go before the next size is generated
    sizeResults.push(res);
  }
  printThroughput(sizeResults);
  if (breakdown) printBreakdown(breakdown);

  const targets = [];
  for (const peerName of ["JSONata", "quickjs"]) {
    for (const { n, results } of sizeResults) {
      const p = results.find((r) => r.name === "ptc-wasm");
      const q = results.find((r) => r.name === peerName);
      const label = `W1 faster than ${peerName} at ${fmtRows(n)}`;
      if (p.skipped) targets.push([label, "MISS", `ptc-wasm could not run: ${p.skipped}`]);
      else if (q.skipped) targets.push([label, "N/A ", `${peerName} could not run`]);
      else targets.push([label, verdict(p.medianMs < q.medianMs), ratioDetail(p.medianMs, q.medianMs)]);
    }
  }
  // Issue 15 target 6: at 1M rows, ptc-wasm (rows crossing the boundary) at
  // most JMESPath's time (which reads the host's objects in place).
  const at1M = sizeResults.find((r) => r.n === 1_000_000)?.results;
  const p1M = at1M?.find((r) => r.name === "ptc-wasm");
  const j1M = at1M?.find((r) => r.name === "JMESPath");
  if (p1M && j1M) {
    const label = "W1 1M ≤ 1.0× JMESPath";
    if (p1M.skipped) targets.push([label, "MISS", `ptc-wasm could not run: ${p1M.skipped}`]);
    else if (j1M.skipped) targets.push([label, "N/A ", "JMESPath could not run"]);
    else targets.push([label, verdict(p1M.medianMs <= j1M.medianMs), ratioDetail(p1M.medianMs, j1M.medianMs)]);
  }
  const at100k = sizeResults.find((r) => r.n === 100_000)?.results;
  const resident = at100k?.find((r) => r.name === "ptc resident");
  const js = at100k?.find((r) => r.name === "plain JS");
  if (resident && !resident.skipped)
    targets.push([
      "W1 100k resident ≤ 1.5× plain JS",
      verdict(resident.medianMs <= 1.5 * js.medianMs),
      ratioDetail(resident.medianMs, js.medianMs),
    ]);
  const lines = sizeResults.map(({ n, results }) => ({
    id: `W1 ${fmtRows(n)}`,
    label: `W1 filter+sum ${fmtRows(n)} rows`,
    unit: "ms",
    cells: Object.fromEntries(results.filter((r) => !r.skipped).map((r) => [r.name, r.medianMs])),
  }));
  return { lines, targets, detail: { sizes: sizeResults, breakdown } };
}

async function workloadW4() {
  const { peers } = await peersOnce();
  progress("tiny call (10 rows, warm)");
  const batches = QUICK ? 15 : 41;
  const tiny = await measureTiny(
    peers.filter((p) => !p.prepare),
    batches,
  );
  say("W4 TINY CALL: 10 rows, warm; median over batches of calls (µs per call)");
  say('ptc-wasm gets the program as JSON text; "ptc (object)" as an object, which the package turns into');
  say("text on every call (it may have changed since the last). Not a peer; see bench/README.md.");
  say(line);
  say(
    `${pad("engine", 14)}${lpad("median", 12)}${lpad("min", 12)}${lpad("batches", 9)}${lpad("calls/batch", 13)}${lpad("ptc/peer", 11)}`,
  );
  say(line);
  const tinyPtc = tiny.find((t) => t.name === "ptc-wasm").medianMs;
  const logic = tiny.find((t) => t.name === "json-logic");
  for (const t of tiny) {
    say(
      pad(t.name, 14) +
        lpad(fmtTime(t.medianMs), 12) +
        lpad(fmtTime(t.minMs), 12) +
        lpad(batches, 9) +
        lpad(t.batch, 13) +
        lpad(t.name === "ptc-wasm" ? "" : fmtRatio(tinyPtc / t.medianMs), 11),
    );
  }
  say(line);
  say();
  return {
    lines: [
      {
        id: "W4",
        label: "W4 tiny call (10 rows)",
        unit: "ms",
        cells: Object.fromEntries(tiny.map((t) => [t.name, t.medianMs])),
      },
    ],
    // Issue 38: under 6 µs, and at most 0.8× json-logic-js (the interpreter in the host's heap) in the same rounds.
    targets: [
      ["W4 tiny call under 6 µs", verdict(tinyPtc < 0.006), `${fmtTime(tinyPtc)} per call`],
      ...(logic
        ? [
            [
              "W4 tiny call ≤ 0.8× json-logic",
              verdict(tinyPtc <= 0.8 * logic.medianMs),
              ratioDetail(tinyPtc, logic.medianMs),
            ],
          ]
        : []),
    ],
    detail: tiny,
  };
}

// The peers that have a cold-start child (bench/coldstart-child.mjs).
const COLD_PEERS = ["ptc-wasm", "JMESPath", "JSONata", "json-logic", "quickjs", "monty"];

async function workloadW5() {
  const samples = QUICK ? 3 : 7;
  const cold = {};
  for (const peer of COLD_PEERS) {
    progress(`cold start: ${peer} (${samples} fresh node processes)`);
    if (peer === "monty") {
      const { loadMonty } = await import("./monty.mjs");
      const m = await loadMonty();
      if (!m.ok) {
        say(`SKIPPED cold start of monty: ${m.reason}`);
        continue;
      }
    }
    cold[peer] = measureColdStart(samples, peer);
  }
  const c = cold["ptc-wasm"];
  say("W5 COLD START: fresh `node` child process; import + create + first run (10 rows); medians");
  say(line);
  say(
    `${pad("engine", 14)}${lpad("inside", 10)}${lpad("import", 10)}${lpad("create", 10)}${lpad("1st run", 10)}${lpad("wall", 10)}`,
  );
  say(line);
  for (const [peer, r] of Object.entries(cold))
    say(
      pad(peer, 14) +
        lpad(fmtTime(r.insideMs), 10) +
        lpad(fmtTime(r.importMs), 10) +
        lpad(fmtTime(r.createMs), 10) +
        lpad(fmtTime(r.firstRunMs), 10) +
        lpad(fmtTime(r.wallMs), 10),
    );
  say(line);
  say(`inside = import to first result, in the child; wall = the whole child process;`);
  say(`for comparison, a bare \`node -e ""\` takes ${fmtTime(c.bareNodeMs)} of wall time.`);
  say(
    `ptc-wasm's create = createRuntime(): read + compile + instantiate ptc-json.wasm (ptc.wasm: on first step-function use).`,
  );
  say();
  return {
    lines: [
      {
        id: "W5",
        label: "W5 cold start (in-process)",
        unit: "ms",
        cells: Object.fromEntries(Object.entries(cold).map(([k, r]) => [k, r.insideMs])),
      },
    ],
    targets: [
      [
        "W5 cold start under 12 ms",
        verdict(c.insideMs < 12),
        `${fmtTime(c.insideMs)} inside the child (process wall ${fmtTime(c.wallMs)})`,
      ],
    ],
    detail: cold,
  };
}

async function workloadSize() {
  const sizes = measureSizes();
  say("SIZE (gzip -9)");
  say(line);
  const kb = (b) => `${(b / 1000).toFixed(1)} KB`;
  say(`${pad("file", 60)}${pad("raw", 12)}gzip`);
  const row = (label, f) => say(`${pad(label, 60)}${pad(kb(f.raw), 12)}${kb(f.gz)}`);
  row("dist/ptc.wasm (the engine)", sizes.wasm);
  row("dist/node.mjs (JS glue, Node)", sizes.glue);
  row("dist/extras.cjs (Node: required on first use)", sizes.extras);
  row("dist/browser.mjs (glue, browsers)", sizes.browser);
  row("dist/extras.browser.mjs (browsers: fetched on first use)", sizes.extrasBrowser);
  say(`${pad("Node: wasm + glue + extras", 72)}${kb(sizes.totalGz)}`);
  say(`${pad("browser: wasm + browser.mjs", 72)}${kb(sizes.browserTotalGz)}`);
  // What a page fetches before its first run (worker mode, the default on a
  // page): the engine without step functions, browser.mjs and the worker
  // script; ptc.wasm once a step-function file runs (stepFunctions "lazy").
  row("dist/ptc-json.wasm (a page's engine before step functions)", sizes.wasmPtcJson);
  row("dist/worker.browser.mjs (engine worker, browsers)", sizes.workerBrowser);
  say(`${pad("page, first run: ptc-json.wasm + browser.mjs + worker.browser.mjs", 72)}${kb(sizes.pageGz)}`);
  say(`${pad("page, stepFunctions true: ptc.wasm + the same JS", 72)}${kb(sizes.pageStepFunctionsGz)}`);
  say();
  const named = fileURLToPath(new URL("../build/wasm/ptc_names.wasm", import.meta.url));
  if (existsSync(named) && codeBytes(named) === codeBytes(DIST + "ptc.wasm")) {
    sizes.parts = sizeParts(named);
    say("dist/ptc.wasm by part (each compressed on its own)");
    for (const part of sizes.parts) say(`${pad(`  ${part.name}`, 60)}${pad(kb(part.raw), 12)}${kb(part.gz)}`);
  } else say("(build/wasm/ptc_names.wasm is missing or from another build: npm run bench builds it, with the parts)");
  // The module a page fetches before its first run, likewise (ptc_json_names).
  const namedPtcJson = fileURLToPath(new URL("../build/wasm/ptc_json_names.wasm", import.meta.url));
  if (existsSync(namedPtcJson) && codeBytes(namedPtcJson) === codeBytes(DIST + "ptc-json.wasm")) {
    sizes.partsPtcJson = sizeParts(namedPtcJson);
    say("dist/ptc-json.wasm by part (each compressed on its own)");
    for (const part of sizes.partsPtcJson) say(`${pad(`  ${part.name}`, 60)}${pad(kb(part.raw), 12)}${kb(part.gz)}`);
  }
  say(line);
  say();
  return {
    lines: [{ id: "SIZE", label: "download, gzip (wasm+JS)", unit: "bytes", cells: { "ptc-wasm": sizes.totalGz } }],
    // KB here is 1000 bytes, the stricter reading. Issue 38 item 3: what a page
    // fetches before its first PTC-JSON run.
    targets: [
      [
        "page's first run under 150 KB gzip",
        verdict(sizes.pageGz < 150_000),
        `${(sizes.pageGz / 1000).toFixed(1)} KB (Node: wasm + JS ${(sizes.totalGz / 1000).toFixed(1)} KB)`,
      ],
    ],
    detail: sizes,
  };
}

// W3 (join) and GROUP (group-by), from bench/workloads.mjs: ptc-wasm, plain JS,
// JSONata, quickjs and Monty on the same questions.
async function plannedWorkload(id) {
  const { ptc } = await peersOnce();
  const measured = await measureWorkloads(ptc, { quick: QUICK, progress, only: [id] });
  reportWorkloads(measured, say);
  say();
  return {
    lines: measured.map(({ workload, results }) => ({
      id: workload,
      label: workload,
      unit: "ms",
      cells: Object.fromEntries(results.filter((r) => !r.skipped).map((r) => [r.name, r.medianMs])),
    })),
    targets: workloadTargets(measured),
    detail: measured,
  };
}

// TOKENS (bench/tokens.mjs): tool definitions, prompts and the corpus ratio, in o200k_base tokens.
async function workloadTokens() {
  const measured = await measureTokens();
  return { ...reportTokens(measured, say, line), detail: measured };
}

// WARN (bench/warnings.mjs): the per-read cost of the field-read warnings' tally.
async function workloadWarn() {
  const { createRuntime } = await import("../dist/node.mjs");
  const measured = await measureWarningsTally(await createRuntime(), { quick: QUICK, progress });
  reportWarningsTally(measured, say);
  say();
  return {
    lines: measured.map((m) => ({
      id: "WARN",
      label: `field reads, ${fmtRows(m.rows)} rows`,
      unit: "ms",
      cells: { tallied: m.tallied, untallied: m.untallied },
    })),
    targets: [],
    detail: measured,
  };
}

const verdict = (ok) => (ok ? "PASS" : "MISS");
const ratioDetail = (a, b) => `${fmtTime(a)} vs ${fmtTime(b)} (ratio ${fmtRatio(a / b)})`;

// In the order they run: the cold start first, before this process has loaded
// and warmed anything that could compete with the children for the CPU.
const WORKLOADS = {
  W5: workloadW5,
  W4: workloadW4,
  W1: workloadW1,
  W3: () => plannedWorkload("W3"),
  GROUP: () => plannedWorkload("GROUP"),
  SIZE: workloadSize,
  TOKENS: workloadTokens,
  WARN: workloadWarn,
};

// ------------------------------------------------------------------- main --

const only = ARGS.only.flatMap((s) => s.split(",")).map((s) => s.trim().toUpperCase());
const unknown = only.filter((id) => !(id in WORKLOADS));
if (unknown.length) {
  say(`unknown workload ${unknown.join(", ")}; known: ${Object.keys(WORKLOADS).join(", ")}`);
  process.exit(2);
}
const chosen = Object.keys(WORKLOADS).filter((id) => only.length === 0 || only.includes(id));

const started = now();
// The load average is printed because other work on the machine moves the
// absolute numbers more than anything measured here.
const loadNow = () => loadavg()[0].toFixed(2);
const machine = {
  cpu: cpus()[0]?.model.trim() ?? "unknown",
  cores: availableParallelism(),
  node: process.version,
  platform: `${process.platform}/${process.arch}`,
  loadStart: Number(loadNow()),
};
say(
  `ptc-wasm benchmark — ${machine.cpu}, ${machine.cores} cores, node ${machine.node}, ${machine.platform}, ` +
    `load average ${machine.loadStart}` +
    (QUICK ? " (--quick)" : "") +
    (only.length ? ` (--only ${chosen.join(",")})` : ""),
);
if (!globalThis.gc) say("note: run with --expose-gc for steadier large-input numbers");
say();

const results = {};
for (const id of chosen) results[id] = await WORKLOADS[id]();
if (loadedPeers) {
  say(
    `(ptc-wasm engine's linear memory after the last run: ${(loadedPeers.ptc.engineMemoryBytes / 1048576).toFixed(0)} MiB)`,
  );
  say();
}

const lines = Object.values(results).flatMap((r) => r.lines);
const targets = Object.values(results).flatMap((r) => r.targets);
machine.loadEnd = Number(loadNow());

printSummary(say, lines, machine);
say("TARGETS (measured, not asserted: a MISS does not fail the run)");
say(line);
for (const [label, v, detail] of targets) say(`${v}  ${pad(label, 34)}${detail}`);
say(line);

const run = {
  date: new Date().toISOString(),
  machine,
  quick: QUICK,
  workloads: chosen,
  lines,
  targets,
  detail: Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.detail])),
};
const { path, previous } = saveRun(run, { out: ARGS.out, compare: ARGS.compare });
if (previous) printDiff(say, previous, run);
say(
  `All answers matched plain JS. Took ${((now() - started) / 1000).toFixed(0)} s; load average at the end ` +
    `${machine.loadEnd}. JSON: ${path}`,
);
