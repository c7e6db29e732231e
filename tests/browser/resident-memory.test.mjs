// Data held once (issue 37 point 4): what the renderer process's memory grows
// by when a page that already holds 50,000 parsed rows hands them to the
// runtime (`runtime.load`, the default browser mode: the engine in a Web
// Worker), after a forced garbage collection (page and worker) and a memory
// pressure signal, measured as the process's RSS (WebAssembly memory is
// invisible to the JS heap figures). Printed for ptc-wasm and, for scale, for
// quickjs-emscripten holding the same rows in the page (a devDependency).
// The assertion is a bound with room for a loaded machine (see RATIO_BOUND);
// the figures are what the report quotes.
//   node --test tests/browser/resident-memory.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serve } from "../../scripts/serve.mjs";
import { makeSite, withMakeRows } from "../../bench/browser.mjs";
import { CHROMIUM_ARGS, ROOT } from "./helpers.mjs";

const SITE = join(ROOT, "test-artifacts", "resident-memory");
const ROWS = 50_000;
// Growth over the JSON's size that fails the test. Measured on this machine
// (2 cores, headless Chromium): 5.2x-5.3x before the data was held once, 4.8x
// once the runtime kept no text of it (tests/js/worker-resident-once.test.cjs
// asserts that exactly), 3.2x since the engine reads the text a piece at
// a time (its wasm memory 16 -> 40 MiB, was 16 -> 69: the whole text no longer
// stays in its high-water mark; tests/js/resident-pieces.test.cjs), holds the
// short strings repeated across rows once and lets rows share their key index,
// 2.45x since rows hold their keys once (a shape: the first row holds them,
// the others only their values; the engine's values 27 -> 16.7 MiB, its wasm
// memory 16 -> 28 MiB; tests/cpp/resident_footprint_test.cpp says where the
// rest goes: a row's 14 values of 16 bytes, 224 of its 402 bytes, and its two
// strings of its own, 128), 2.30x since the load's transient peak is smaller
// (pieces of 256 KiB, not 1 MiB; the rows list is the stack its items
// collected on, not a copy made while the stack was held: the load's peak
// over its values 2.6 -> 0.9 MiB, tests/cpp/memory_test.cpp's
// AResidentLoadPeaksLittleAboveTheValuesItKeeps).
// Readings vary by about 0.05x; a text of the data kept again (+1.0x) fails it.
// The target, 1.5x, is not met: the engine's values alone take 1.38x
// the JSON in malloc's chunks (1.21x by its own count), and about 1.1x more is
// outside them (the wasm memory's high-water
// mark over the values, the packed copies of the text).
const RATIO_BOUND = 2.5;

let server;
let browser;
before(async () => {
  await makeSite(SITE); // the browser build and quickjs-emscripten for a page (bench/browser.mjs)
  server = await serve({ root: SITE, port: 0, requireIndex: false });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // One renderer process (the page and its worker), gc() in every isolate.
    args: [...CHROMIUM_ARGS, "--renderer-process-limit=1", "--js-flags=--expose-gc"],
  });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** RSS of the renderer process(es), in bytes (from /proc, the PIDs from the browser). */
async function rendererRss() {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
    let total = 0;
    for (const p of processInfo.filter((p) => p.type === "renderer")) {
      const status = readFileSync(`/proc/${p.id}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
    }
    return total;
  } finally {
    await cdp.detach();
  }
}

/** Collects garbage in the page and its workers, asks the renderer to give memory back, then reads RSS. */
async function settledRss(page) {
  const session = await page.context().newCDPSession(page);
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => globalThis.gc());
    for (const w of page.workers()) await w.evaluate(() => globalThis.gc && globalThis.gc());
    await session.send("Memory.simulatePressureNotification", { level: "critical" });
    await page.waitForTimeout(300);
  }
  await session.detach();
  return rendererRss();
}

/** A page of the server's origin that has made `ROWS` rows (globalThis.rows) and knows their JSON's size. */
async function pageWithRows() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(`${server.url}blank.html`, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><meta charset=utf-8><title>rows</title>" }),
  );
  await page.goto(`${server.url}blank.html`);
  await withMakeRows(page);
  const jsonBytes = await page.evaluate((n) => {
    globalThis.rows = globalThis.makeRows(n);
    return new TextEncoder().encode(JSON.stringify({ rows: globalThis.rows })).length;
  }, ROWS);
  return { page, context, jsonBytes };
}

const MiB = (n) => `${(n / 1048576).toFixed(1)} MiB`;

test("resident data in the default browser mode: renderer RSS growth over the page's own rows", async () => {
  const { page, context, jsonBytes } = await pageWithRows();
  try {
    const wasmBefore = await page.evaluate(async () => {
      const { createRuntime } = await import("/browser.mjs");
      globalThis.rt = await createRuntime();
      const warm = await globalThis.rt.run({ program: { op: "literal", value: 1 } });
      if (!warm.ok) throw new Error(JSON.stringify(warm));
      return globalThis.rt.workerEngineBytesForTesting();
    });
    const before = await settledRss(page);
    const loaded = await page.evaluate(async () => {
      const r = await globalThis.rt.load({ rows: globalThis.rows }, { maxResidentBytes: 256 * 1024 * 1024 });
      if (!r.ok) return { error: r.error };
      globalThis.resident = r.resident;
      const count = await globalThis.rt.run(
        { program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "count" }] } },
        { resident: r.resident },
      );
      const wasmBytes = await globalThis.rt.workerEngineBytesForTesting();
      return {
        inWorker: globalThis.rt.constructor.name,
        count: count.ok && count.result,
        engineBytes: r.resident.memoryBytes,
        wasmBytes,
      };
    });
    // The worker packs the text after the load and the runtime then drops its
    // own (worker-core.ts): measured once that is done (an internal field).
    const packed = await page
      .waitForFunction(() => globalThis.resident.spec.text === "", null, { timeout: 60_000 })
      .then(
        () => true,
        () => false,
      );
    const afterLoad = await settledRss(page);
    const growth = afterLoad - before;
    const ratio = growth / jsonBytes;
    console.log(`ptc-wasm: the runtime dropped its text of the data: ${packed}`);
    console.log(
      `ptc-wasm (worker): ${ROWS} rows, JSON ${MiB(jsonBytes)}; renderer RSS ${MiB(before)} -> ${MiB(afterLoad)}: ` +
        `+${MiB(growth)} = ${ratio.toFixed(2)}x the JSON (the engine's values: ${MiB(loaded.engineBytes)}, its wasm memory ${MiB(wasmBefore)} -> ${MiB(loaded.wasmBytes)})`,
    );
    assert.equal(loaded.count, ROWS, JSON.stringify(loaded));
    assert.equal(loaded.inWorker, "WorkerRuntime");
    assert.ok(ratio <= RATIO_BOUND, `growth ${ratio.toFixed(2)}x the JSON, over ${RATIO_BOUND}x`);
  } finally {
    await context.close();
  }
});

test("for scale: quickjs-emscripten holding the same rows in the page", async () => {
  const { page, context, jsonBytes } = await pageWithRows();
  try {
    await page.evaluate(async () => {
      const { quickjs } = await import("/quickjs.mjs");
      globalThis.qjs = (await quickjs()).newContext();
      globalThis.qjs.runtime.setMemoryLimit(-1);
      globalThis.qjs.unwrapResult(globalThis.qjs.evalCode("1")).dispose();
    });
    const before = await settledRss(page);
    const count = await page.evaluate(() => {
      const vm = globalThis.qjs;
      const text = vm.newString(JSON.stringify({ rows: globalThis.rows }));
      vm.setProp(vm.global, "text", text);
      text.dispose();
      vm.unwrapResult(vm.evalCode("globalThis.data = JSON.parse(text); globalThis.text = undefined;")).dispose();
      const n = vm.unwrapResult(vm.evalCode("data.rows.length"));
      const out = vm.getNumber(n);
      n.dispose();
      return out;
    });
    const afterLoad = await settledRss(page);
    const growth = afterLoad - before;
    console.log(
      `quickjs-emscripten (in the page): renderer RSS ${MiB(before)} -> ${MiB(afterLoad)}: ` +
        `+${MiB(growth)} = ${(growth / jsonBytes).toFixed(2)}x the JSON`,
    );
    assert.equal(count, ROWS);
  } finally {
    await context.close();
  }
});
