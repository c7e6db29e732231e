// BROWSER (issue 38 item 4): on one page in headless Chromium, a filter +
// group_by + aggregate over 50,000 rows loaded once, on ptc-wasm in the default
// browser mode (the engine in a Web Worker) and in-process (`worker: false`),
// against quickjs-emscripten evaluating the same question in JS over the same
// rows held in its VM, and plain JS on the page's own objects; then engine
// start (createRuntime() to the first answer) on a fresh page, in a worker and
// in-process. Medians over interleaved rounds; a table with the ratios.
//
//   node bench/browser.mjs [--quick] [--rounds N] [--starts N]
//
// Needs dist/ (npm run build) and Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
// tests/browser/group-by-page.test.mjs runs it with few rounds and checks that
// the answers agree and the table is printed (no timed assertion).
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { serve } from "../scripts/serve.mjs";
import { CHROMIUM_ARGS } from "../tests/browser/helpers.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "dist");
export const ROWS = 50_000;

/**
 * A folder served as a site: the browser build of the package (what a page
 * fetches: browser.mjs, worker.browser.mjs, ptc-json.wasm; ptc.wasm and the
 * extras on first use) and quickjs-emscripten bundled for a page (quickjs.mjs,
 * its wasm beside it). Shared with tests/browser/resident-memory.test.mjs.
 */
export async function makeSite(site) {
  if (!existsSync(join(DIST, "browser.mjs"))) throw new Error("dist/browser.mjs is missing: run `npm run build`");
  mkdirSync(site, { recursive: true });
  for (const f of ["browser.mjs", "worker.browser.mjs", "ptc-json.wasm", "ptc.wasm", "extras.browser.mjs"])
    copyFileSync(join(DIST, f), join(site, f));
  const require = createRequire(import.meta.url);
  const variant = dirname(require.resolve("@jitl/quickjs-wasmfile-release-sync/package.json"));
  await build({
    stdin: {
      contents:
        'import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";\n' +
        'import variant from "@jitl/quickjs-wasmfile-release-sync";\n' +
        "export const quickjs = () => newQuickJSWASMModuleFromVariant(variant);\n",
      resolveDir: ROOT,
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    outfile: join(site, "quickjs.mjs"),
    logLevel: "error",
  });
  copyFileSync(join(variant, "dist", "emscripten-module.wasm"), join(site, "emscripten-module.wasm"));
}

/** A blank page of the server's origin (modules import from it). */
export async function blankPage(browser, server) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(`${server.url}blank.html`, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><meta charset=utf-8><title>bench</title>" }),
  );
  await page.goto(`${server.url}blank.html`);
  return { page, context };
}

/** The rows of an order export (14 fields); pages get this very function through withMakeRows. */
export function makeRows(n) {
  const pick = (list, i) => list[i % list.length];
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    order_id: `ORD-${String(i).padStart(8, "0")}`,
    customer: `customer-${i % 1000}`,
    email: `user${i % 1000}@example.com`,
    region: pick(["north", "south", "east", "west"], i),
    product: `Product ${i % 250}`,
    category: pick(["books", "games", "tools", "garden", "food"], i),
    quantity: (i % 7) + 1,
    unit_price: Math.round((i % 100) * 317) / 100,
    total: Math.round(((i % 7) + 1) * (i % 100) * 317) / 100,
    created_at: new Date(Date.UTC(2024, 0, 1) + i * 60000).toISOString(),
    status: pick(["paid", "shipped", "refunded"], i),
    notes: i % 10 === 0 ? "gift wrap, deliver after 5pm" : "",
    channel: pick(["web", "store", "phone"], i),
  }));
}

/** Gives a page `globalThis.makeRows` (the function above: a page cannot import this file). */
export async function withMakeRows(page) {
  await page.evaluate(`globalThis.makeRows = ${makeRows.toString()}`);
}

// The question: per category, over the orders not refunded, the total, the
// number of orders and the average quantity.
export const PROGRAM = {
  op: "pipe",
  steps: [
    { op: "load", name: "rows" },
    { op: "filter", where: { op: "neq", field: "status", value: "refunded" } },
    {
      op: "group_by",
      field: "category",
      aggs: { total: { op: "sum", field: "total" }, count: { op: "count" }, avg_qty: { op: "avg", field: "quantity" } },
    },
  ],
};

// The same in JS: plain JS runs it on the page's objects, quickjs on its own copy.
// The same in JS, one pass (the fastest plain way to say it): plain JS runs it
// on the page's objects, quickjs on its own copy of the rows.
export const GROUP_JS = `(rows) => {
  const groups = new Map();
  for (const r of rows) {
    if (r.status === "refunded") continue;
    let g = groups.get(r.category);
    if (!g) groups.set(r.category, (g = { key: r.category, total: 0, count: 0, qty: 0 }));
    g.total += r.total;
    g.count += 1;
    g.qty += r.quantity;
  }
  return [...groups.values()].map((g) => ({ key: g.key, total: g.total, count: g.count, avg_qty: g.qty / g.count }));
}`;

export const ENGINES = ["ptc worker", "ptc in-process", "quickjs", "plain JS"];

/**
 * On one page: the rows made, loaded into each engine once (untimed), every
 * engine's answer, then `rounds` timed rounds, each engine once per round, the
 * order rotating. Returns the answers and the times (ms) per engine.
 */
async function groupByOnPage(page, { rounds, warmup }) {
  await withMakeRows(page);
  return page.evaluate(
    async ({ n, program, groupJs, rounds, warmup, engines }) => {
      const rows = globalThis.makeRows(n); // installed by withMakeRows
      const { createRuntime } = await import("/browser.mjs");
      const { quickjs } = await import("/quickjs.mjs");
      const text = JSON.stringify({ program }); // a model writes text; made once, outside the clock
      const ptc = async (worker) => {
        const rt = await createRuntime({ worker });
        const r = await rt.load({ rows }, { maxResidentBytes: 256 * 1024 * 1024 });
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        return async () => {
          const out = await rt.run(text, { resident: r.resident, timeoutMs: 60_000 });
          if (!out.ok) throw new Error(JSON.stringify(out.error));
          return out.result;
        };
      };
      const vm = (await quickjs()).newContext();
      vm.runtime.setMemoryLimit(-1);
      const json = vm.newString(JSON.stringify({ rows }));
      vm.setProp(vm.global, "text", json);
      json.dispose();
      vm.unwrapResult(
        vm.evalCode(`globalThis.data = JSON.parse(text); globalThis.text = undefined; globalThis.group = ${groupJs};`),
      ).dispose();
      const plain = new Function(`return ${groupJs}`)();
      const run = {
        "ptc worker": await ptc(true),
        "ptc in-process": await ptc(false),
        // The answer comes back as JSON text, as ptc-wasm's does, and is parsed on the page.
        quickjs: async () => {
          const h = vm.unwrapResult(vm.evalCode("JSON.stringify(group(data.rows))"));
          const s = vm.getString(h);
          h.dispose();
          return JSON.parse(s);
        },
        "plain JS": async () => plain(rows),
      };
      const answers = {};
      for (const e of engines) answers[e] = await run[e]();
      for (let i = 0; i < warmup; i++) for (const e of engines) await run[e]();
      const times = Object.fromEntries(engines.map((e) => [e, []]));
      for (let r = 0; r < rounds; r++)
        for (let k = 0; k < engines.length; k++) {
          const e = engines[(k + r) % engines.length];
          const t0 = performance.now();
          await run[e]();
          times[e].push(performance.now() - t0);
        }
      return { answers, times };
    },
    { n: ROWS, program: PROGRAM, groupJs: GROUP_JS, rounds, warmup, engines: ENGINES },
  );
}

/** createRuntime() to the first answer, on a fresh page (nothing compiled or cached yet). */
async function startOnFreshPage(browser, server, worker) {
  const { page, context } = await blankPage(browser, server);
  try {
    return await page.evaluate(async (w) => {
      const { createRuntime } = await import("/browser.mjs");
      const t0 = performance.now();
      const rt = await createRuntime({ worker: w });
      const made = performance.now();
      const r = await rt.run('{"program":{"op":"literal","value":1}}');
      const t1 = performance.now();
      if (!r.ok || r.result !== 1) throw new Error(JSON.stringify(r));
      rt.close?.();
      return { totalMs: t1 - t0, createMs: made - t0 };
    }, worker);
  } finally {
    await context.close();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Whether two answers are the same groups (totals to a relative 1e-9: float sums). */
export function sameGroups(a, b) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const close = (x, y) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  return a.every(
    (g, i) =>
      g.key === b[i].key && g.count === b[i].count && close(g.total, b[i].total) && close(g.avg_qty, b[i].avg_qty),
  );
}

/**
 * Runs the whole measurement; returns { answers, groupBy: {engine: {median, min, times}}, start: {...}, table }.
 * `log` receives the printed lines.
 */
export async function measureBrowser({ rounds = 31, warmup = 5, starts = 7, log = console.log } = {}) {
  const site = join(ROOT, "build", "bench", "browser-site");
  await makeSite(site);
  const server = await serve({ root: site, port: 0, requireIndex: false });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    const { page, context } = await blankPage(browser, server);
    let onPage;
    try {
      onPage = await groupByOnPage(page, { rounds, warmup });
    } finally {
      await context.close();
    }
    const startTimes = { "ptc worker": [], "ptc in-process": [] };
    for (let i = 0; i < starts; i++)
      for (const [name, worker] of i % 2
        ? [
            ["ptc in-process", false],
            ["ptc worker", true],
          ]
        : [
            ["ptc worker", true],
            ["ptc in-process", false],
          ])
        startTimes[name].push((await startOnFreshPage(browser, server, worker)).totalMs);
    const version = browser.version();
    const result = report(onPage, startTimes, { rounds, starts, version }, log);
    return { answers: onPage.answers, ...result };
  } finally {
    await browser.close();
    await server.close();
  }
}

function report({ answers, times }, startTimes, { rounds, starts, version }, log) {
  const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
  const ratio = (x) => `${x.toFixed(2)}x`;
  const groupBy = {};
  for (const [e, t] of Object.entries(times)) groupBy[e] = { median: median(t), min: Math.min(...t) };
  const start = {};
  for (const [e, t] of Object.entries(startTimes)) start[e] = { median: median(t), min: Math.min(...t) };
  const q = groupBy.quickjs.median;
  const js = groupBy["plain JS"].median;
  const lines = [
    `BROWSER: headless Chromium ${version}, ${cpus().length} cores (${cpus()[0]?.model.trim()}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
    `group-by on one page: ${ROWS.toLocaleString("en")} rows loaded once, filter + group_by + sum/count/avg; medians of ${rounds} interleaved rounds`,
    `${"engine".padEnd(18)}${"median".padStart(10)}${"min".padStart(10)}${"/ quickjs".padStart(11)}${"/ plain JS".padStart(12)}`,
  ];
  for (const [e, { median: m, min }] of Object.entries(groupBy))
    lines.push(
      `${e.padEnd(18)}${ms(m).padStart(10)}${ms(min).padStart(10)}${ratio(m / q).padStart(11)}${ratio(m / js).padStart(12)}`,
    );
  const agree = Object.values(answers).every((a) => sameGroups(a, answers["plain JS"]));
  lines.push(`answers agree: ${agree ? "yes" : "NO"}`);
  lines.push(`engine start on a fresh page (createRuntime() to the first answer): medians of ${starts}`);
  for (const [e, { median: m, min }] of Object.entries(start))
    lines.push(`${e.padEnd(18)}${ms(m).padStart(10)}${ms(min).padStart(10)}`);
  const targets = [
    ["group-by in a worker <= quickjs", groupBy["ptc worker"].median <= q],
    ["engine start in a worker < 150 ms", start["ptc worker"].median < 150],
  ];
  for (const [what, ok] of targets) lines.push(`target ${what}: ${ok ? "PASS" : "MISS"}`);
  for (const l of lines) log(l);
  return { groupBy, start, agree, targets, lines };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      rounds: { type: "string" },
      starts: { type: "string" },
    },
  });
  const rounds = Number(values.rounds ?? (values.quick ? 11 : 31));
  const starts = Number(values.starts ?? (values.quick ? 3 : 7));
  const { agree } = await measureBrowser({ rounds, starts, warmup: values.quick ? 2 : 5 });
  if (!agree) process.exitCode = 1;
}
