// ptc-wasm/editor embedded in an app (issue 37 point 2): examples/vite-editor
// built by Vite with no configuration (editor-site.mjs), served under a strict
// Content-Security-Policy (no inline script, no eval, no inline style), opened
// in headless Chromium at desktop and phone width. The editor runs the program
// in the default runtime (a Web Worker), shows the result and the tool calls,
// marks errors at their place, completes and explains ops from the op table.
//   node --test tests/browser/editor.test.mjs
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serve } from "../../scripts/serve.mjs";
import { buildEditorExample } from "./editor-site.mjs";
import { ARTIFACTS, CHROMIUM_ARGS, hoverText, ROOT } from "./helpers.mjs";

export const STRICT_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'; connect-src 'self'; img-src 'self' data:";

let server;
mkdirSync(ARTIFACTS, { recursive: true });
let browser;
before(async () => {
  const site = await buildEditorExample(join(ROOT, "test-artifacts", "vite-editor"));
  server = await serve({ root: site, port: 0, headers: { "content-security-policy": STRICT_CSP } });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** The example page at a width; console errors (CSP violations among them) and requests are kept. */
async function open(width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(server.url);
  await page.waitForSelector('.ptc-editor[data-status="ok"]', { timeout: 30_000 });
  return { page, context, errors, requests };
}

/** The text the error marks cover (a mark is split where the syntax colours change). */
async function markedText(page) {
  const marks = page.locator(".ptc-editor .cm-lintRange-error");
  await marks.first().waitFor();
  return (await marks.allTextContents()).join("");
}

async function waitUntil(check, timeout = 10_000) {
  const end = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not so within ${timeout} ms: ${check}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Replaces the program's text as a paste would. The selection is deleted first:
 * Chromium's own editing of text typed over a selection of coloured spans tries
 * a style attribute, which the policy refuses (CodeMirror redraws the line
 * anyway; harmless, but a console error).
 */
async function paste(page, text) {
  await page.click(".ptc-editor .cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

test("the embedded editor runs the app's program in a worker under a strict CSP: result and tool calls", async () => {
  const { page, context, errors, requests } = await open();
  try {
    const result = JSON.parse(await page.locator(".ptc-editor__result").innerText());
    assert.deepEqual(result, [
      { id: 1, total: 250, customer: "Ada" },
      { id: 3, total: 130.5, customer: "Ada" },
    ]);
    const calls = await page.locator(".ptc-editor__calls li").allInnerTexts();
    assert.equal(calls.length, 2);
    assert.match(calls[0], /customer_name \{"id":\s*"c1"\}/);
    // The engine is in a worker (the page has no wasm instance of its own), and nothing left the origin.
    assert.ok(
      requests.some((u) => /worker\.browser-[\w-]+\.js$/.test(u)),
      "the worker script was loaded",
    );
    assert.deepEqual(
      requests.filter((u) => !u.startsWith(server.url)),
      [],
    );
    assert.deepEqual(errors, [], "no console errors (a CSP violation would be one)");
  } finally {
    await context.close();
  }
});

test("an error is marked at its place in the program, with the engine's message; fixing it runs again", async () => {
  const { page, context, errors } = await open();
  try {
    const bad = '{"program": {"op": "pipe", "steps": [\n  {"op": "load", "name": "orders"},\n  {"op": "fliter"}\n]}}';
    await paste(page, bad);
    await page.waitForSelector('.ptc-editor[data-status="error"]');
    assert.equal(await markedText(page), '{"op": "fliter"}');
    assert.match(await page.locator(".ptc-editor__error").innerText(), /Did you mean 'filter'\?/);
    assert.equal(await page.locator(".ptc-editor__result").getAttribute("class"), "ptc-editor__result stale");
    // A JSON syntax error: at its byte, the token there.
    await paste(page, '{"program": {"op": "load" "name": "orders"}}');
    await page.waitForSelector(".ptc-editor__error:not([hidden])");
    await waitUntil(async () => (await markedText(page)) === '"name"');
    await paste(page, '{"program": {"op": "pipe", "steps": [{"op": "load", "name": "orders"}, {"op": "count"}]}}');
    await page.waitForSelector('.ptc-editor[data-status="ok"]');
    assert.equal(await page.locator(".ptc-editor__result").innerText(), "4");
    assert.equal(await page.locator(".ptc-editor .cm-lintRange-error").count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("completion offers the op table's ops and the op's fields; hover explains an op and a field", async () => {
  const { page, context } = await open();
  try {
    await paste(page, '{"program": {"op": "fi');
    const options = page.locator(".cm-tooltip-autocomplete li");
    await options.first().waitFor();
    const labels = await options.allInnerTexts();
    assert.ok(
      labels.some((l) => l.startsWith("filter")),
      `ops completed: ${labels.join(" | ")}`,
    );

    await paste(
      page,
      '{"program": {"op": "pipe", "steps": [{"op": "load", "name": "orders"}, {"op": "sort_by", "field": "total", "order": "desc"}]}}',
    );
    await page.keyboard.press("Escape");
    const hoverOver = (text) => hoverText(page, ".ptc-editor .cm-line span", text);
    assert.match(await hoverOver('"sort_by"'), /^sort_by · [\w ]+\n.+/);
    assert.match(await hoverOver('"order"'), /^order · \w+ · optional\n.*\(sort_by\)/s);
  } finally {
    await context.close();
  }
});

test("a tool call in the panel marks the node that made it", async () => {
  const { page, context } = await open();
  try {
    await page.locator(".ptc-editor__call").first().click();
    await page.waitForSelector(".ptc-editor .cm-traceMark");
    const marked = await page.locator(".ptc-editor .cm-traceMark").allInnerTexts();
    assert.match(marked.join(""), /"customer": \{[\s\S]*"call"/);
  } finally {
    await context.close();
  }
});

test("at phone width the panel goes under the editor; nothing overflows the page", async () => {
  for (const width of [1280, 390]) {
    const { page, context, errors } = await open(width);
    try {
      const editor = await page.locator(".ptc-editor__program").boundingBox();
      const panel = await page.locator(".ptc-editor__panel").boundingBox();
      if (width === 1280) assert.ok(panel.x > editor.x + editor.width - 1, "side by side at 1280 px");
      else assert.ok(panel.y >= editor.y + editor.height - 1, "stacked at 390 px");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at ${width} px`);
      await page.screenshot({ path: join(ARTIFACTS, `editor-${width}.png`) });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});
