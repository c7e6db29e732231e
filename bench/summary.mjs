// The one-screen summary of a bench run (workloads × peers, then each peer's
// time as a multiple of plain JS), the JSON record of the run, and the diff
// against an earlier record.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_OUT = resolve(ROOT, "build/bench/latest.json");

// Columns in this order when present; any other peer comes after them. "ptc
// (whole)" and "ptc (object)" are variants shown in their workload's own
// section, not columns here.
const COLUMN_ORDER = ["plain JS", "JMESPath", "json-logic", "JSONata", "quickjs", "monty", "ptc-wasm", "ptc resident"];
const NOT_A_COLUMN = new Set(["ptc (whole)", "ptc (object)"]);
const BASELINE = "plain JS";

function compactTime(ms) {
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}
const compactBytes = (b) => `${(b / 1000).toFixed(0)} KB`;
const cell = (unit, v) =>
  v == null ? "–" : unit === "bytes" ? compactBytes(v) : unit === "tokens" ? `${v} tok` : compactTime(v);
function ratio(r) {
  if (r == null || !Number.isFinite(r)) return "–";
  return r >= 100 ? `${r.toFixed(0)}x` : r >= 10 ? `${r.toFixed(1)}x` : `${r.toFixed(2)}x`;
}

function columnsOf(lines) {
  const seen = new Set(lines.flatMap((l) => Object.keys(l.cells)).filter((n) => !NOT_A_COLUMN.has(n)));
  return [...COLUMN_ORDER.filter((n) => seen.has(n)), ...[...seen].filter((n) => !COLUMN_ORDER.includes(n))];
}

/** Prints the workloads × peers table: medians, then the same as multiples of plain JS. */
export function printSummary(say, lines, machine) {
  if (!lines.length) return;
  const columns = columnsOf(lines);
  const LABEL = 28;
  const W = Math.max(11, ...columns.map((c) => c.length + 2)); // names never run together
  const row = (label, cells) => say(label.padEnd(LABEL) + cells.map((c) => c.padStart(W)).join(""));
  const rule = "=".repeat(LABEL + W * columns.length);
  say(rule);
  say(
    `SUMMARY (medians) — ${machine.cpu}, ${machine.cores} cores, node ${machine.node}, ` +
      `load ${machine.loadStart} → ${machine.loadEnd}`,
  );
  say(rule);
  row("workload", columns);
  for (const l of lines)
    row(
      l.label,
      columns.map((c) => cell(l.unit, l.cells[c])),
    );
  const timed = lines.filter((l) => l.unit === "ms" && l.cells[BASELINE] != null);
  if (timed.length) {
    say("-".repeat(rule.length));
    row(`× ${BASELINE} (lower is better)`, columns);
    for (const l of timed)
      row(
        l.label,
        columns.map((c) => (l.cells[c] == null ? "–" : ratio(l.cells[c] / l.cells[BASELINE]))),
      );
  }
  say(rule);
  say();
}

/**
 * Writes the run's JSON (default build/bench/latest.json; the one it replaces
 * becomes previous.json next to it) and returns { path, previous }: the
 * record to compare with — the file given by --compare, else the replaced one.
 */
export function saveRun(run, { out, compare }) {
  const path = resolve(out ?? DEFAULT_OUT);
  mkdirSync(dirname(path), { recursive: true });
  let previous = null;
  if (compare) previous = JSON.parse(readFileSync(resolve(compare), "utf8"));
  if (existsSync(path)) {
    const replaced = resolve(dirname(path), "previous.json");
    renameSync(path, replaced);
    previous ??= JSON.parse(readFileSync(replaced, "utf8"));
  }
  writeFileSync(path, JSON.stringify(run, null, 2) + "\n");
  return { path, previous };
}

/** ptc-wasm's lines then and now: its median, and its multiple of plain JS. */
export function printDiff(say, before, after) {
  const then = new Map(before.lines.map((l) => [l.id, l]));
  const rows = [];
  for (const l of after.lines) {
    const b = then.get(l.id);
    if (!b) continue;
    for (const peer of ["ptc-wasm", "ptc resident"]) {
      const [x, y] = [b.cells[peer], l.cells[peer]];
      if (x == null || y == null) continue;
      const change = `${y >= x ? "+" : ""}${(((y - x) / x) * 100).toFixed(0)}%`;
      const xs = (v, c) => (v.cells[BASELINE] != null && l.unit === "ms" ? ratio(c / v.cells[BASELINE]) : "");
      rows.push(
        `${l.label.padEnd(28)}${peer.padEnd(14)}${cell(l.unit, x).padStart(10)} →${cell(l.unit, y).padStart(10)}` +
          `${change.padStart(7)}   ${xs(b, x) && `× JS ${xs(b, x)} → ${xs(l, y)}`}`,
      );
    }
  }
  if (!rows.length) return;
  say(
    `CHANGE since the run of ${before.date} (load then ${before.machine?.loadStart}, now ${after.machine.loadStart})`,
  );
  for (const r of rows) say(r);
  say();
}
