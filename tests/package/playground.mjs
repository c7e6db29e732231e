// The package test's playground checks (run by tests/package/run.mjs, group
// "playground"): in a fresh project with the tarball installed, `npx ptc-wasm
// playground --port 0` prints a localhost URL and serves the page and its assets
// with a strict Content-Security-Policy; the page runs its first example (mock
// tools included, in their sandboxed frame) in Chromium with no request to
// another origin; `npx ptc-wasm playground --out dir` writes a folder that a
// plain static server (no headers) serves and that works the same; and the
// published package.json has no script that could fail in the installed copy.
/* global window, document */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "../../scripts/serve.mjs";
import { CHROMIUM_ARGS } from "../browser/helpers.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Starts `npx ptc-wasm playground ...args` in `cwd`; resolves to { url, stop() } once it prints its URL. */
function startPlayground(cwd, args) {
  const child = spawn("npx", ["--no-install", "ptc-wasm", "playground", ...args], { cwd, detached: true });
  let output = "";
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already ended
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (stop(), reject(new Error(`no URL printed within 60 s:\n${output}`))), 60_000);
    const read = (chunk) => {
      output += chunk;
      const url = /ptc-wasm playground: (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, stop });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => (clearTimeout(timer), reject(new Error(`exited with ${code}:\n${output}`))));
  });
}

/** The page at `url` in Chromium: its first example's run ends without an error; every request stays on its origin. */
async function runsInChromium(t, browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const origin = new URL(url).origin;
  const elsewhere = [];
  const errors = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.origin !== origin && !["data:", "about:", "blob:"].includes(u.protocol)) elsewhere.push(r.url());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__playground && window.__playground.runs >= 1, null, { timeout: 60_000 });
    const state = await page.evaluate(() => ({
      status: document.body.dataset.status,
      errorType: document.body.dataset.errorType,
      result: document.querySelector("#result")?.textContent ?? "",
    }));
    t.expect(!state.errorType, `the first example failed: ${state.errorType}: ${state.result.slice(0, 300)}`);
    t.expect(state.result.trim() !== "", "the first example showed no result");
    t.expect(!elsewhere.length, `requests to another origin: ${elsewhere.join(", ")}`);
    t.expect(!errors.length, `console errors: ${errors.join("\n")}`);
    return `${state.status}, result ${state.result.trim().slice(0, 60)}...`;
  } finally {
    await context.close();
  }
}

/** The policy's directives as a map of name -> sources. */
function directives(policy) {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

export async function playgroundChecks(t, core) {
  await t.check("the published package.json has no scripts (none of the checkout's would work installed)", () => {
    const installed = JSON.parse(readFileSync(join(core, "node_modules/ptc-wasm/package.json"), "utf8"));
    t.expect(!installed.scripts, `scripts in the installed copy: ${JSON.stringify(installed.scripts)}`);
    const r = t.run("npm", ["run"], { cwd: join(core, "node_modules/ptc-wasm") });
    t.expect(!/\bstart\b|\btest\b|\bplayground\b/.test(r.stdout), `npm run lists:\n${r.stdout}`);
  });
  await t.check("the tarball ships the playground without a copy of the engine's wasm", () => {
    const files = t.tarball.files;
    for (const f of ["dist/playground/index.html", "dist/playground/app.js", "dist/playground/tools-frame.html"])
      t.expect(files.includes(f), `missing from the tarball: ${f}`);
    const wasm = files.filter((f) => f.endsWith(".wasm"));
    // The engine and the engine without step functions (createRuntime({ stepFunctions: false })), once each.
    t.expect(
      JSON.stringify(wasm.sort()) === '["dist/ptc-json.wasm","dist/ptc.wasm"]',
      `.wasm files: ${wasm.join(", ")}`,
    );
  });

  let chromium;
  if (existsSync(CHROMIUM)) ({ chromium } = await import("playwright-core"));
  const browser = chromium && (await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }));
  const needBrowser = () => {
    if (!browser) throw new t.Skip(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
  };
  try {
    let served;
    await t.check("npx ptc-wasm playground --port 0 prints a localhost URL", async () => {
      served = await startPlayground(core, ["--port", "0"]);
      t.expect(/^http:\/\/127\.0\.0\.1:\d+\/$/.test(served.url), `not a localhost URL: ${served.url}`);
      return served.url;
    });
    if (served) {
      try {
        await t.check("the served page and its assets carry a strict Content-Security-Policy", async () => {
          for (const path of [
            "",
            "app.js",
            "app.css",
            "boot.js",
            "ptc/browser.mjs",
            "ptc/worker.browser.mjs",
            "ptc/ptc.wasm",
          ]) {
            const response = await fetch(served.url + path);
            t.expect(response.ok, `${path || "/"}: HTTP ${response.status}`);
            const policy = response.headers.get("content-security-policy") ?? "";
            const d = directives(policy);
            const script = d.get("script-src") ?? d.get("default-src") ?? [];
            t.expect(!policy.includes("'unsafe-inline'") || !script.includes("'unsafe-inline'"), `${path}: ${policy}`);
            t.expect(!script.includes("'unsafe-eval'") && script.includes("'wasm-unsafe-eval'"), `${path}: ${policy}`);
            t.expect(JSON.stringify(d.get("connect-src")) === `["'self'"]`, `${path}: connect-src of ${policy}`);
            t.expect(JSON.stringify(d.get("worker-src")) === `["'self'"]`, `${path}: worker-src of ${policy}`);
            t.expect(JSON.stringify(d.get("default-src")) === `["'none'"]`, `${path}: default-src of ${policy}`);
          }
          const wasm = await fetch(`${served.url}ptc/ptc.wasm`);
          t.expect(wasm.headers.get("content-type") === "application/wasm", "ptc.wasm is not application/wasm");
          // The mock tools' frame: eval for the tools text, in a sandbox, with no network and no inline script but its own.
          const frame = directives(
            (await fetch(`${served.url}tools-frame.html`)).headers.get("content-security-policy"),
          );
          t.expect(JSON.stringify(frame.get("default-src")) === `["'none'"]`, "tools-frame.html: default-src");
          t.expect(JSON.stringify(frame.get("sandbox")) === `["allow-scripts"]`, "tools-frame.html: sandbox");
          t.expect(!frame.get("script-src").includes("'unsafe-inline'"), "tools-frame.html: 'unsafe-inline'");
          const outside = await fetch(`${served.url}ptc/node.mjs`);
          t.expect(outside.status === 404, `ptc/ serves only the engine's files (node.mjs: ${outside.status})`);
        });
        await t.check(
          "the served playground runs its first example in Chromium, nothing fetched elsewhere",
          () => (needBrowser(), runsInChromium(t, browser, served.url)),
        );
      } finally {
        served.stop();
      }
    }

    await t.check("npx ptc-wasm playground --out dir: a plain static server serves a working playground", async () => {
      const out = join(core, "site");
      t.run("npx", ["--no-install", "ptc-wasm", "playground", "--out", out], { cwd: core });
      for (const f of ["index.html", "tools-frame.html", "ptc/ptc.wasm", "ptc/browser.mjs", "ptc/worker.browser.mjs"])
        t.expect(existsSync(join(out, f)), `--out wrote no ${f}`);
      needBrowser();
      const server = await serve({ root: out, port: 0 });
      try {
        return await runsInChromium(t, browser, server.url);
      } finally {
        await server.close();
      }
    });
  } finally {
    await browser?.close();
  }
}
