// The browser default never freezes the page (issue 37 point 3): createRuntime()
// with no options, on a page, runs the engine in a Web Worker. Measured on the
// page in headless Chromium, the package's own browser build (dist/): the
// longest gap between animation frames during a CPU-bound run that times out
// after 1 s, and the time from an abort (300 ms into a run allowed 10 s) to its
// settling. Both figures are printed for the default and for { worker: false }
// (in-process, the default before); the assertions are only what a loaded
// machine still meets: frames during the run, the abort's own result long
// before the run's timeout.
//   node --test tests/browser/default-runtime.test.mjs
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startDist } from "./helpers.mjs";

const PAGE = "blank.html"; // answered by the test itself: an empty page of the server's origin

let server;
let browser;
let started;
before(async () => {
  started = await startDist();
  ({ server, browser } = started);
});
after(() => started?.close());

/** A fresh page at the server's origin; its console warnings and errors are kept. */
async function openBlank() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(`${server.url}${PAGE}`, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><meta charset=utf-8><title>ptc</title>" }),
  );
  const console = [];
  page.on("console", (m) => ["warning", "error"].includes(m.type()) && console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => console.push(`pageerror: ${e}`));
  await page.goto(`${server.url}${PAGE}`);
  return { page, context, console };
}

/**
 * On the page: a runtime made with `options` (undefined: the default), a warm-up
 * run, then two CPU-bound runs while requestAnimationFrame records frames: one
 * that times out after 1 s, one aborted 300 ms in (its timeout 10 s).
 */
function measure(page, options) {
  return page.evaluate(async (options) => {
    const { createRuntime, Runtime, WorkerRuntime } = await import("/browser.mjs");
    const rt = await createRuntime(options ?? undefined);
    const kind = rt instanceof WorkerRuntime ? "WorkerRuntime" : rt instanceof Runtime ? "Runtime" : "?";
    const warm = await rt.run({ program: { op: "literal", value: "warm" } });
    // Each of 30,000 rows counts the 30,000 rows: minutes of work, never finished here.
    const rows = Array.from({ length: 30000 }, (_, i) => i);
    const count = {
      op: "pipe",
      steps: [{ op: "load", name: "rows" }, { op: "filter", where: { op: "gt", value: 3 } }, { op: "count" }],
    };
    const runaway = {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "rows" },
          { op: "map", expr: count },
        ],
      },
    };

    const frames = [];
    let recording = true;
    const tick = (t) => {
      frames.push(t);
      if (recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const nextFrame = () => new Promise((r) => requestAnimationFrame(r));
    /** The longest gap between frames from the last one before `from` to the first one after `to`. */
    const gaps = (from, to) => {
      const first = Math.max(
        0,
        frames.findLastIndex((t) => t <= from),
      );
      const end = frames.findIndex((t) => t >= to);
      const window = frames.slice(first, end < 0 ? frames.length : end + 1);
      let longest = 0;
      for (let i = 1; i < window.length; i++) longest = Math.max(longest, window[i] - window[i - 1]);
      return { longestGapMs: Math.round(longest), framesDuring: frames.filter((t) => t > from && t < to).length };
    };

    // 1. A runaway stopped by its own timeoutMs of 1 s.
    let start = performance.now();
    const timedOut = await rt.run(runaway, { context: { rows }, timeoutMs: 1000 });
    let end = performance.now();
    await nextFrame();
    const runaway1s = { error: timedOut.error?.type, runMs: Math.round(end - start), ...gaps(start, end) };

    // 2. A runaway allowed 10 s, aborted 300 ms in.
    const controller = new AbortController();
    let abortedAt;
    start = performance.now();
    const settling = rt.run(runaway, { context: { rows }, timeoutMs: 10000, signal: controller.signal });
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort(new Error("stopped by the page"));
    }, 300);
    const aborted = await settling;
    end = performance.now();
    await nextFrame();
    // In-process the timer cannot fire before the run ends: count from when it was due.
    const abortFrom = abortedAt !== undefined && abortedAt <= end ? abortedAt : start + 300;
    const abort = {
      error: aborted.error?.type,
      message: aborted.error?.message,
      runMs: Math.round(end - start),
      abortToSettleMs: Math.round(end - abortFrom),
      ...gaps(start, end),
    };
    recording = false;
    const after = await rt.run({ program: { op: "add", left: 1, right: 2 } });
    rt.close();
    return { kind, warm: warm.result, runaway1s, abort, after: after.result };
  }, options ?? null);
}

function print(label, m) {
  console.log(
    `# ${label} (${m.kind}): 1 s runaway: longest frame gap ${m.runaway1s.longestGapMs} ms, ` +
      `${m.runaway1s.framesDuring} frames during ${m.runaway1s.runMs} ms; ` +
      `abort 300 ms in: settled ${m.abort.abortToSettleMs} ms after the abort (${m.abort.error}), ` +
      `longest frame gap ${m.abort.longestGapMs} ms`,
  );
}

test("createRuntime() on a page runs in a worker: the page keeps its frames and an abort settles long before the timeout", async () => {
  const { page, context, console: messages } = await openBlank();
  try {
    const m = await measure(page);
    print("default, createRuntime()", m);
    assert.equal(m.kind, "WorkerRuntime");
    assert.equal(m.warm, "warm");
    // The 1 s runaway ends by its own timeout, and the page painted meanwhile
    // (in-process the page gets no frame until the run ends).
    assert.equal(m.runaway1s.error, "timeout");
    assert.ok(m.runaway1s.framesDuring >= 3, `only ${m.runaway1s.framesDuring} frames during a 1 s run`);
    // The aborted run settles as aborted, not by its 10 s timeout.
    assert.equal(m.abort.error, "execution_error", JSON.stringify(m.abort));
    assert.match(m.abort.message, /stopped by the page/);
    assert.ok(m.abort.runMs < 9000, `the aborted run took ${m.abort.runMs} ms`);
    assert.ok(m.abort.framesDuring >= 1, `no frame during the aborted run: ${JSON.stringify(m.abort)}`);
    assert.equal(m.after, 3, "the runtime works after both");
    assert.deepEqual(messages, []);
  } finally {
    await context.close();
  }
});

test("{ worker: false } runs in-process, as the default did: the figures it costs (printed, for comparison)", async () => {
  const { page, context, console: messages } = await openBlank();
  try {
    const m = await measure(page, { worker: false });
    print("in-process, createRuntime({ worker: false })", m);
    assert.equal(m.kind, "Runtime");
    assert.equal(m.runaway1s.error, "timeout");
    assert.equal(m.after, 3);
    assert.deepEqual(messages, []);
  } finally {
    await context.close();
  }
});

test("a page without Worker runs in-process and says so once on the console", async () => {
  const { page, context, console: messages } = await openBlank();
  try {
    const kinds = await page.evaluate(async () => {
      delete window.Worker;
      const { createRuntime, Runtime } = await import("/browser.mjs");
      const runtimes = [await createRuntime(), await createRuntime()];
      const r = await runtimes[0].run({ program: { op: "add", left: 1, right: 2 } });
      return { runtimes: runtimes.map((rt) => rt instanceof Runtime), result: r.result };
    });
    assert.deepEqual(kinds, { runtimes: [true, true], result: 3 });
    assert.equal(messages.length, 1, messages.join("\n"));
    assert.match(messages[0], /^warning: ptc-wasm: this page has no Worker[\s\S]*\{ worker: false \}/);
  } finally {
    await context.close();
  }
});

test("inside a Web Worker the default is in-process (no page to freeze)", async () => {
  const { page, context, console: messages } = await openBlank();
  try {
    // A worker script of the page's origin (a blob: worker cannot import the
    // package: a bundled dependency builds a URL from its location at import).
    await page.route(`${server.url}in-worker.mjs`, (route) =>
      route.fulfill({
        contentType: "text/javascript",
        body: `import { createRuntime, Runtime } from "/browser.mjs";
          const rt = await createRuntime();
          const r = await rt.run({ program: { op: "add", left: 1, right: 2 } });
          postMessage({ inProcess: rt instanceof Runtime, result: r.result });`,
      }),
    );
    const got = await page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const worker = new Worker("/in-worker.mjs", { type: "module" });
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message || "the worker failed"));
        }),
    );
    assert.deepEqual(got, { inProcess: true, result: 3 });
    assert.deepEqual(messages, []);
  } finally {
    await context.close();
  }
});
