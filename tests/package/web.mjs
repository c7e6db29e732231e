// The package test's browser consumers (run by tests/package/run.mjs): the
// README's Vite, webpack and esbuild recipes build tests/package/fixtures/web/app.js
// in fresh consumer projects, and the plain <script type=module> page imports the
// package from node_modules, with and without a Content-Security-Policy. Each
// output is served from Node and loaded in Chromium, with the default (a worker
// on a page) and with { worker: false } (in-process);
// the page shows the runtime's answers (or what failed) in <body data-answer>.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "../../scripts/serve.mjs";
import { CHROMIUM_ARGS } from "../browser/helpers.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ANSWER = { sum: 200.5, called: 42 };
const CSP = "script-src 'self' 'wasm-unsafe-eval'";
const ESBUILD_BARE = "npx esbuild app.js --bundle --format=esm --outdir=bare";
const ESBUILD_IIFE =
  "npx esbuild app.js --bundle --outfile=iife/app.js && cp node_modules/ptc-wasm/dist/{ptc-json.wasm,ptc.wasm,worker.browser.mjs} iife/";
const page = (script, module = true) =>
  `<!doctype html><meta charset="utf-8"><body><script ${module ? 'type="module" ' : ""}src="${script}"></script>\n`;

/** The repository's bundlers in a consumer's node_modules, as `npm install --save-dev` would put them. */
export function linkTools(root, dir, packages, bins) {
  for (const name of packages) symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name));
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  for (const bin of bins)
    symlinkSync(readlinkSync(join(root, "node_modules/.bin", bin)), join(dir, "node_modules/.bin", bin));
}

/** Opens `url` in a fresh context and returns what the page answered. */
async function answerOf(browser, url) {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(String(e)));
    await tab.goto(url);
    try {
      await tab.waitForFunction(() => document.body?.dataset.answer, null, { timeout: 30_000 });
    } catch {
      throw new Error(
        `no answer from ${url} within 30 s${errors.length ? `; page errors:\n${errors.join("\n")}` : ""}`,
      );
    }
    return JSON.parse(await tab.evaluate(() => document.body.dataset.answer));
  } finally {
    await context.close();
  }
}

/** Checks a page's answers in both modes (the default: a worker; in-process), at `url` (with `query` added). */
async function checkModes(t, browser, name, url, query = "") {
  for (const worker of [true, false])
    await t.check(`${name}${worker ? " (the default: worker mode)" : ", in-process ({ worker: false })"}`, async () => {
      const q = [worker ? "" : "inprocess", query].filter(Boolean).join("&");
      const got = await answerOf(browser, `${url}${q ? `?${q}` : ""}`);
      const want = { worker, ...ANSWER };
      t.expect(
        JSON.stringify(got) === JSON.stringify(want),
        `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`,
      );
    });
}

/** checkModes on `path` of the static files in `site`, served with `headers`. */
async function checkBothModes(t, browser, name, site, path, { headers, query = "" } = {}) {
  const server = await serve({ root: site, port: 0, requireIndex: false, headers });
  try {
    await checkModes(t, browser, name, `${server.url}${path}`, query);
  } finally {
    await server.close();
  }
}

/** Vite's dev server in `dir` on a free port; resolves to its URL and a stop(). */
function viteDev(dir) {
  return new Promise((resolve, reject) => {
    // Started without npx, so that stopping it ends vite itself (npx leaves it running).
    const vite = join(dir, "node_modules/.bin/vite");
    const child = spawn(process.execPath, [vite, "--host", "127.0.0.1", "--port", "0"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`vite did not start within 60 s:\n${output}`));
    }, 60_000);
    const read = (d) => {
      output += d;
      // eslint-disable-next-line no-control-regex -- its banner is coloured
      const url = /Local:\s+(http:\/\/\S+)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ""))?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, stop: () => child.kill() });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => reject(new Error(`vite exited with ${code}:\n${output}`)));
  });
}

/** The key words a missing-file error must hold: the file to copy, the option, the URL that failed. */
function expectAdvice(t, text, url, file, option) {
  for (const words of [url, "HTTP 404", `node_modules/ptc-wasm/dist/${file}`, option])
    t.expect(String(text).includes(words), `the error does not say ${JSON.stringify(words)}: ${text}`);
}

export async function webChecks(t) {
  let chromium;
  await t.check("Chromium for the browser consumers", async () => {
    if (!existsSync(CHROMIUM)) throw new t.Skip(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
    ({ chromium } = await import("playwright-core"));
  });
  if (!chromium) return;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const bundlers = [
      { name: "Vite", tools: ["vite"], bins: ["vite"], out: "dist", page: null },
      {
        name: "webpack",
        tools: ["webpack", "webpack-cli"],
        bins: ["webpack", "webpack-cli"],
        out: "dist",
        page: page("main.js", false),
      },
      { name: "esbuild", tools: ["esbuild"], bins: ["esbuild"], out: "public", page: page("app.js") },
    ];
    for (const b of bundlers) {
      const dir = t.consumer(b.name.toLowerCase(), t.tarball.path);
      cpSync(join(t.fixtures, "web"), dir, { recursive: true });
      linkTools(t.root, dir, b.tools, b.bins);
      let built = false;
      await t.check(`${b.name}: the README's recipe builds the consumer app`, () => {
        t.run("bash", ["-euo", "pipefail", "-c", t.recipe(b.name)], { cwd: dir, timeout: 300_000 });
        if (b.page) writeFileSync(join(dir, b.out, "index.html"), b.page);
        built = true;
      });
      if (built)
        await checkBothModes(
          t,
          browser,
          `${b.name}: the built page answers in Chromium`,
          join(dir, b.out),
          "index.html",
        );
      if (b.name === "Vite") {
        let dev;
        await t.check("Vite: the dev server starts (vite)", async () => void (dev = await viteDev(dir)));
        if (dev)
          try {
            await checkModes(t, browser, "Vite: the dev server's page answers in Chromium", dev.url);
          } finally {
            dev.stop();
          }
      }
      if (b.name !== "esbuild") continue;

      // esbuild's default format (iife, a classic script): the files next to the script.
      let iife = false;
      await t.check("esbuild --format=iife (its default): builds, the engine files copied beside it", () => {
        t.run("bash", ["-euo", "pipefail", "-c", ESBUILD_IIFE], { cwd: dir });
        writeFileSync(join(dir, "iife/index.html"), page("app.js", false));
        iife = true;
      });
      if (iife)
        await checkBothModes(t, browser, "esbuild iife: the page answers in Chromium", join(dir, "iife"), "index.html");

      // Without the engine files beside the bundle: the errors say what to do; the options point elsewhere.
      t.run("bash", ["-euo", "pipefail", "-c", ESBUILD_BARE], { cwd: dir });
      writeFileSync(join(dir, "bare/index.html"), page("app.js"));
      mkdirSync(join(dir, "bare/assets"));
      for (const f of ["ptc.wasm", "worker.browser.mjs"])
        cpSync(join(dir, "node_modules/ptc-wasm/dist", f), join(dir, "bare/assets", f));
      const server = await serve({ root: join(dir, "bare"), port: 0, requireIndex: false });
      try {
        await t.check(
          "esbuild without ptc-json.wasm beside the bundle: the error names the file, the option, the URL",
          async () => {
            const got = await answerOf(browser, `${server.url}index.html`);
            expectAdvice(t, got.thrown, `${server.url}ptc-json.wasm`, "ptc-json.wasm", "createRuntime({ wasm:");
            return got.thrown;
          },
        );
        await t.check(
          "esbuild without worker.browser.mjs beside the bundle: the run's error names the file, the option, the URL",
          async () => {
            const got = await answerOf(browser, `${server.url}index.html?wasm=/assets/ptc.wasm`);
            t.expect(got.worker === true, `not a worker runtime: ${JSON.stringify(got)}`);
            expectAdvice(t, got.sum, `${server.url}worker.browser.mjs`, "worker.browser.mjs", "workerUrl:");
            // Nor may it blame the run: a worker that never started is not retried.
            t.expect(
              !/undefined|run it again/.test(got.sum),
              `the error says "undefined" or "run it again": ${got.sum}`,
            );
            return got.sum;
          },
        );
        await t.check("a page served for the .wasm (an SPA fallback) is named as not the .wasm", async () => {
          const got = await answerOf(browser, `${server.url}index.html?wasm=/index.html`);
          for (const words of ["is not the engine's .wasm", "text/html", "node_modules/ptc-wasm/dist/ptc.wasm"])
            t.expect(
              String(got.thrown).includes(words),
              `the error does not say ${JSON.stringify(words)}: ${got.thrown}`,
            );
          return got.thrown;
        });
      } finally {
        await server.close();
      }
      await checkBothModes(
        t,
        browser,
        "esbuild with the files elsewhere and the wasm/workerUrl options",
        join(dir, "bare"),
        "index.html",
        {
          query: "wasm=/assets/ptc.wasm&workerUrl=/assets/worker.browser.mjs",
        },
      );
    }

    // A plain page: a module script that imports the package's browser build from node_modules.
    const plain = t.consumer("plain", t.tarball.path);
    mkdirSync(join(plain, "page"));
    writeFileSync(join(plain, "page/index.html"), page("app.js"));
    const app = readFileSync(join(t.fixtures, "web/app.js"), "utf8").replace(
      'from "ptc-wasm"',
      'from "/node_modules/ptc-wasm/dist/browser.mjs"',
    );
    writeFileSync(join(plain, "page/app.js"), app);
    await checkBothModes(t, browser, "a plain <script type=module> page", plain, "page/index.html");
    await checkBothModes(t, browser, `the plain page under Content-Security-Policy: ${CSP}`, plain, "page/index.html", {
      headers: { "content-security-policy": CSP },
    });
    // The header is in force: without 'wasm-unsafe-eval' the engine may not compile.
    const strict = await serve({
      root: plain,
      port: 0,
      requireIndex: false,
      headers: { "content-security-policy": "script-src 'self'" },
    });
    try {
      await t.check(
        "the same page under script-src 'self' alone fails to compile the engine (the CSP is in force)",
        async () => {
          const got = await answerOf(browser, `${strict.url}page/index.html`);
          t.expect(/wasm-unsafe-eval|WebAssembly/.test(got.thrown ?? ""), `unexpected answer: ${JSON.stringify(got)}`);
        },
      );
    } finally {
      await strict.close();
    }
    // A CSP that refuses workers: the default's runs say so and name the way out; in-process works.
    const noWorkers = `${CSP}; worker-src 'none'`;
    const refused = await serve({
      root: plain,
      port: 0,
      requireIndex: false,
      headers: { "content-security-policy": noWorkers },
    });
    try {
      await t.check(
        `the plain page under ${noWorkers}: the default's run names worker-src and { worker: false }`,
        async () => {
          const got = await answerOf(browser, `${refused.url}page/index.html`);
          for (const words of ["worker-src", "createRuntime({ worker: false })"])
            t.expect(
              String(got.sum).includes(words),
              `the error does not say ${JSON.stringify(words)}: ${JSON.stringify(got)}`,
            );
          return got.sum;
        },
      );
      await t.check(`the plain page under ${noWorkers}, in-process ({ worker: false }): answers`, async () => {
        const got = await answerOf(browser, `${refused.url}page/index.html?inprocess`);
        const want = { worker: false, ...ANSWER };
        t.expect(
          JSON.stringify(got) === JSON.stringify(want),
          `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`,
        );
      });
    } finally {
      await refused.close();
    }
  } finally {
    await browser.close();
  }
}
