// Group-by on a page (issue 38 item 4): bench/browser.mjs with few rounds. On
// one page in headless Chromium, 50,000 rows loaded once into ptc-wasm in the
// default browser mode (a worker) and in-process, the same filter + group_by +
// aggregate as JS in quickjs-emscripten and plain JS; and engine start on a
// fresh page. Checks that every engine gives the same groups and that the table
// (with both group-by figures, the ratios and the start times) is printed; no
// timed assertion: the figures are for the report (`node bench/browser.mjs`).
//   node --test tests/browser/group-by-page.test.mjs
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { serve } from "../../scripts/serve.mjs";
import { blankPage, ENGINES, makeSite, measureBrowser, sameGroups } from "../../bench/browser.mjs";
import { CHROMIUM_ARGS, ROOT } from "./helpers.mjs";

test("group-by on a page: ptc-wasm (worker and in-process), quickjs-emscripten and plain JS agree; the table is printed", async () => {
  const printed = [];
  const { answers, groupBy, start, lines } = await measureBrowser({
    rounds: 3,
    warmup: 1,
    starts: 1,
    log: (line) => {
      printed.push(line);
      console.log(line);
    },
  });
  assert.deepEqual(Object.keys(answers), ENGINES);
  assert.equal(answers["plain JS"].length, 5, JSON.stringify(answers["plain JS"]));
  for (const engine of ENGINES)
    assert.ok(sameGroups(answers[engine], answers["plain JS"]), `${engine}: ${JSON.stringify(answers[engine])}`);
  for (const engine of ENGINES) assert.ok(Number.isFinite(groupBy[engine].median), engine);
  for (const engine of ["ptc worker", "ptc in-process"]) assert.ok(Number.isFinite(start[engine].median), engine);
  assert.deepEqual(printed, lines);
  const table = printed.join("\n");
  assert.match(table, /^ptc worker +[\d.]+ ms +[\d.]+ ms +[\d.]+x +[\d.]+x$/m);
  assert.match(table, /^quickjs +[\d.]+ ms/m);
  assert.match(table, /answers agree: yes/);
  assert.match(table, /engine start on a fresh page/);
});

// Engine start in a worker: the page starts the worker while it fetches and
// compiles the .wasm, so the worker's script loads meanwhile (it used to start
// at the first run, after the .wasm). Asserted as structure: a worker exists
// once createRuntime() has resolved, before any run.
test("createRuntime() on a page starts its engine worker before the first run", async () => {
  const site = join(ROOT, "test-artifacts", "group-by-page");
  await makeSite(site);
  const server = await serve({ root: site, port: 0, requireIndex: false });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    const { page } = await blankPage(browser, server);
    const started = page.waitForEvent("worker", { timeout: 30_000 }).then(
      (w) => w.url(),
      () => "no worker",
    );
    const kind = await page.evaluate(async () => {
      const { createRuntime } = await import("/browser.mjs");
      globalThis.rt = await createRuntime();
      return globalThis.rt.constructor.name;
    });
    assert.equal(kind, "WorkerRuntime");
    assert.match(await started, /worker\.browser\.mjs$/);
    // And it answers.
    const answer = await page.evaluate(
      async () => (await globalThis.rt.run('{"program":{"op":"literal","value":7}}')).result,
    );
    assert.equal(answer, 7);
  } finally {
    await browser.close();
    await server.close();
  }
});

// The early start must not lose what a worker that fails says: a page whose
// worker script is missing gets runs that say which file to serve, as before.
test("a worker script that does not load, started early, still fails the first run saying what to serve", async () => {
  const site = join(ROOT, "test-artifacts", "group-by-page-no-worker");
  await makeSite(site);
  rmSync(join(site, "worker.browser.mjs"));
  const server = await serve({ root: site, port: 0, requireIndex: false });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    const { page } = await blankPage(browser, server);
    const r = await page.evaluate(async () => {
      const { createRuntime } = await import("/browser.mjs");
      const rt = await createRuntime();
      // Let the failed script's error arrive before anyone runs.
      await new Promise((resolve) => setTimeout(resolve, 500));
      return rt.run('{"program":{"op":"literal","value":1}}', { timeoutMs: 5000 });
    });
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.match(r.error.message, /worker\.browser\.mjs/);
    assert.match(r.error.message, /did not load or start/);
  } finally {
    await browser.close();
    await server.close();
  }
});
