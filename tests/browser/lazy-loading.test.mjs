// What a page fetches before its first PTC-JSON run (issue 38 item 3):
// createRuntime() with no options loads the engine without the step-function
// dialect (ptc-json.wasm), browser.mjs and the worker script; the module with
// both dialects (ptc.wasm) is fetched when a step-function file first runs, and
// the prompts and schemas (extras.browser.mjs) when first needed (runtime.preload(),
// or a run whose tools declare JSON Schema parameters). Headless Chromium, the
// package's own browser build (dist/), in a worker (the default) and in-process.
//   node --test tests/browser/lazy-loading.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { ROOT, startDist } from "./helpers.mjs";

// The files a page fetches before its first PTC-JSON run, and their bytes of
// zlib's gzip at level 9 (as npm run bench's SIZE counts them; tests/js/download-size.test.cjs
// holds the same budget for the files alone): 273.7 KB before the engine was
// built without RTTI and its glue cleaned of unused functions, 270.6 KB since;
// 263.9 KB once most sorts went through one instantiation (sortPositions).
const FIRST_RUN_FILES = {
  worker: ["browser.mjs", "ptc-json.wasm", "worker.browser.mjs"],
  inProcess: ["browser.mjs", "ptc-json.wasm"],
};
const PAGE_BUDGET = 270_000; // 268.9 KB with the workflow verbs' keyed forms (download-size.test.cjs)
const gzipBytes = (file) => gzipSync(readFileSync(join(ROOT, "dist", file)), { level: 9 }).length;

const PAGE = "blank.html"; // answered by the test itself: an empty page of the server's origin

let server;
let browser;
let started;
before(async () => {
  started = await startDist();
  ({ server, browser } = started);
});
after(() => started?.close());

/** A fresh page at the server's origin, with every file of the server it requested (its worker's too). */
async function openBlank() {
  const context = await browser.newContext();
  const fetched = [];
  context.on("request", (r) => {
    const url = new URL(r.url());
    if (url.origin === new URL(server.url).origin && !url.pathname.endsWith(PAGE)) fetched.push(url.pathname.slice(1));
  });
  const page = await context.newPage();
  await page.route(`${server.url}${PAGE}`, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><meta charset=utf-8><title>ptc</title>" }),
  );
  const errors = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
  await page.goto(`${server.url}${PAGE}`);
  return { page, context, fetched, errors };
}

const program = { program: { op: "mul", left: { op: "load", name: "n" }, right: 2 } };
const workflow = JSON.stringify({
  function: "main",
  input: { n: "number" },
  output: "number",
  steps: [{ return: "$input.n" }],
});

for (const worker of [undefined, false]) {
  const label = worker === undefined ? "createRuntime()" : "createRuntime({ worker: false })";
  test(`${label}: ptc.wasm and the extras are fetched only when first used`, async () => {
    const { page, context, fetched, errors } = await openBlank();
    try {
      const step = (name) => page.evaluate((name) => window.__step(name), name);
      await page.evaluate(
        async ({ worker, program, workflow }) => {
          const { createRuntime } = await import("/browser.mjs");
          const rt = await createRuntime(worker === null ? undefined : { worker });
          const steps = {
            run: async () => {
              const r = await rt.run(program, { context: { n: 21 } });
              return r.ok ? r.result : r.error;
            },
            promptBefore: () => {
              try {
                return rt.prompt();
              } catch (e) {
                return `threw: ${e.message}`;
              }
            },
            workflow: async () => (await rt.runWorkflow(workflow, { input: { n: 5 } })).result,
            validateWorkflow: () => rt.validateWorkflow(workflow).ok,
            preload: async () => {
              await rt.preload();
              return rt.prompt().includes('"op"');
            },
            close: () => rt.close(),
          };
          window.__step = (name) => steps[name]();
        },
        { worker: worker ?? null, program, workflow },
      );
      assert.equal(await step("run"), 42);
      const beforeFirstRun = [...fetched];
      // These files and no other (no ptc.wasm, no extras.browser.mjs), each once.
      assert.deepEqual(
        [...beforeFirstRun].sort(),
        worker === undefined ? FIRST_RUN_FILES.worker : FIRST_RUN_FILES.inProcess,
        beforeFirstRun.join(", "),
      );
      const transferred = beforeFirstRun.reduce((sum, file) => sum + gzipBytes(file), 0);
      assert.ok(transferred < PAGE_BUDGET, `the page fetched ${transferred} B gzip before its first run`);

      assert.equal(await step("workflow"), 5);
      assert.ok(fetched.includes("ptc.wasm"), fetched.join(", "));
      assert.equal(await step("validateWorkflow"), true);

      // The prompts are not at hand until fetched: the method says how to wait for them.
      assert.match(await step("promptBefore"), /^threw: .*await runtime\.preload\(\)/);
      assert.equal(await step("preload"), true);
      assert.ok(fetched.includes("extras.browser.mjs"), fetched.join(", "));
      assert.equal(fetched.filter((f) => f === "ptc.wasm").length, 1, fetched.join(", "));
      await step("close");
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test("a run whose tools declare JSON Schema parameters fetches the args checks first, and they apply", async () => {
  const { page, context, fetched, errors } = await openBlank();
  try {
    const message = await page.evaluate(async () => {
      const { createRuntime } = await import("/browser.mjs");
      const rt = await createRuntime();
      const tools = {
        double: { parameters: { type: "object", properties: { n: { type: "number" } } }, execute: ({ n }) => n * 2 },
      };
      const r = await rt.run({ program: { op: "call", tool: "double", args: { n: "21" } } }, { tools });
      rt.close();
      return r.error?.message;
    });
    assert.match(message, /at \/n: expected number, got string "21"/);
    assert.ok(fetched.includes("extras.browser.mjs"), fetched.join(", "));
    assert.ok(!fetched.includes("ptc.wasm"), fetched.join(", "));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
