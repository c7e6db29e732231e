// Shared set-up of the browser tests: the static server in-process, Debian's
// Chromium through playwright-core, and screenshots in test-artifacts/playground/.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "../../scripts/serve.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SITE = join(ROOT, "dist", "playground");
export const ARTIFACTS = join(ROOT, "test-artifacts", "playground");

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

export function requireSite() {
  if (!existsSync(join(SITE, "index.html")))
    throw new Error("dist/playground is missing: run `node scripts/bundle-playground.mjs` (after the package build)");
}

export async function startAll() {
  requireSite();
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await serve({ root: SITE, port: 0 });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * dist/ served as it is (no index page) and a browser: the set-up of the tests
 * that load the package on a page of their own.
 */
export async function startDist() {
  const dist = join(ROOT, "dist");
  if (!existsSync(join(dist, "browser.mjs"))) throw new Error("dist/browser.mjs is missing: run `npm run build`");
  const server = await serve({ root: dist, port: 0, requireIndex: false });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** The text of the hover tip an editor shows over the first span of `lineSelector` holding `text`. */
export async function hoverText(page, lineSelector, text) {
  const box = await page.locator(lineSelector, { hasText: text }).first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tip = page.locator(".cm-ptcHover");
  await tip.waitFor();
  const shown = await tip.innerText();
  await page.mouse.move(1, 1);
  await tip.waitFor({ state: "detached" });
  return shown;
}

/**
 * Opens the playground; records every request and console error. `path` is
 * appended to the server URL (a hash, or a sub-path).
 */
export async function openPage(
  browser,
  baseUrl,
  { path = "", viewport = { width: 1440, height: 900 }, waitForResult = true, colorScheme = "light" } = {},
) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(baseUrl + path);
  if (waitForResult) await waitForRuns(page, 1);
  return { page, context, requests, errors };
}

/** Waits until the page has finished at least `n` runs in total. */
export async function waitForRuns(page, n, timeout = 10_000) {
  await page.waitForFunction((k) => window.__playground && window.__playground.runs >= k, n, { timeout });
}

/** Waits for a run that finishes after now (edits are debounced). */
export async function nextRun(page, action, timeout = 10_000) {
  const before = await page.evaluate(() => window.__playground.runs);
  await action();
  await waitForRuns(page, before + 1, timeout);
  // A second debounced edit may still be queued; let it settle.
  await page.waitForFunction(() => document.body.dataset.status !== "running", null, { timeout });
}

export const resultText = (page) => page.locator("#result").innerText();

export function shot(page, name) {
  return page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** Text of an editor ("program", "context", "tools"). */
export const editorText = (page, which) =>
  page.evaluate((w) => window.__playground.views[w].state.doc.toString(), which);

/** Replaces a whole editor's text (like a paste). */
export const setEditor = (page, which, text) =>
  page.evaluate(
    ([w, t]) => {
      const view = window.__playground.views[w];
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t }, userEvent: "input.paste" });
    },
    [which, text],
  );

/** Selects the nth occurrence of `needle` in an editor and focuses it; false when it is not there. */
export const selectInEditor = (page, which, needle, nth = 0) =>
  page.evaluate(
    ([w, n, k]) => {
      const view = window.__playground.views[w];
      const text = view.state.doc.toString();
      let at = -1;
      for (let i = 0; i <= k; i++) at = text.indexOf(n, at + 1);
      if (at < 0) return false;
      view.dispatch({ selection: { anchor: at, head: at + n.length } });
      view.focus();
      return true;
    },
    [which, needle, nth],
  );
