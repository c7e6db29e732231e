#!/usr/bin/env node
// Screenshots of the embedded editor (examples/vite-editor, built by Vite as the
// browser test builds it) at desktop (1280 px) and phone (390 px) width, light
// scheme, into docs/images/ for the README. Needs dist/ (npm run build).
//   node scripts/editor-screenshots.mjs
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { buildEditorExample } from "../tests/browser/editor-site.mjs";
import { CHROMIUM_ARGS, ROOT } from "../tests/browser/helpers.mjs";
import { serve } from "./serve.mjs";

const out = join(ROOT, "docs", "images");
mkdirSync(out, { recursive: true });
const site = await buildEditorExample(join(ROOT, "test-artifacts", "vite-editor"));
const server = await serve({ root: site, port: 0 });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: CHROMIUM_ARGS,
});
try {
  for (const [name, width, height] of [
    ["editor-desktop", 1280, 440],
    ["editor-phone", 390, 844],
  ]) {
    const context = await browser.newContext({
      viewport: { width, height },
      deviceScaleFactor: 1,
      colorScheme: "light",
    });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('.ptc-editor[data-status="ok"]', { timeout: 30_000 });
    // Hover an op, so the picture shows the op table's help as well.
    const box = await page.locator(".ptc-editor .cm-line span", { hasText: '"filter"' }).first().boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator(".cm-ptcHover").waitFor();
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(`docs/images/${name}.png (${width}x${height})`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
