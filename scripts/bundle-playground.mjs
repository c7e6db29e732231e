#!/usr/bin/env node
// Builds the static playground into dist/playground/: index.html, app.js (the
// page, CodeMirror and the examples — examples/spec-examples.json and
// examples/step-functions/ — bundled and minified by esbuild), app.css,
// and ptc/ (the package's browser entry, its engine worker and ptc.wasm, copied
// from dist/ as they are; the package leaves ptc/ out and `npx ptc-wasm playground`
// serves its own dist/ files there instead), and tools-frame.html (the mock tools'
// sandboxed frame: tools-frame.ts inline, allowed by its hash). Every URL is relative, so the folder works at any
// sub-path of any static host.
//
//   node scripts/bundle-playground.mjs [--dev]     (--dev: no minification, source maps)
//
// Needs the package built first (bash scripts/build.sh, or npm run build).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const out = join(dist, "playground");
const dev = process.argv.includes("--dev");

for (const file of ["browser.mjs", "ptc.wasm", "ptc-json.wasm", "extras.browser.mjs"]) {
  if (!existsSync(join(dist, file))) {
    console.error(`bundle-playground: dist/${file} is missing; build the package first (bash scripts/build.sh)`);
    process.exit(1);
  }
}
const workerFile = "worker.browser.mjs";
const hasWorker = existsSync(join(dist, workerFile));

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "ptc"), { recursive: true });

// The page imports "ptc-wasm"; it stays a separate file next to its .wasm and worker.
const ptcExternal = {
  name: "ptc-wasm-external",
  setup(b) {
    b.onResolve({ filter: /^ptc-wasm$/ }, () => ({ path: "./ptc/browser.mjs", external: true }));
  },
};

// The step-function examples: examples/step-functions/index.json with each file's
// text as it is (a file is functions written one after another, not one JSON
// document, so it cannot be imported as JSON).
const stepFunctionExamples = {
  name: "step-function-examples",
  setup(b) {
    b.onResolve({ filter: /^virtual:step-function-examples$/ }, (a) => ({
      path: a.path,
      namespace: "step-function-examples",
    }));
    b.onLoad({ filter: /.*/, namespace: "step-function-examples" }, () => {
      const dir = join(root, "examples", "step-functions");
      const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
      const list = index.map((e) => ({ ...e, source: readFileSync(join(dir, e.file), "utf8") }));
      return {
        contents: JSON.stringify(list),
        loader: "json",
        watchFiles: [join(dir, "index.json"), ...index.map((e) => join(dir, e.file))],
      };
    });
  },
};

await build({
  entryPoints: { app: join(root, "playground/src/main.ts"), boot: join(root, "playground/src/boot.ts") },
  outdir: out,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["chrome109", "firefox115", "safari16"],
  minify: !dev,
  sourcemap: dev ? "linked" : false,
  legalComments: dev ? "inline" : "none",
  define: { __PTC_WORKER__: String(hasWorker) },
  plugins: [ptcExternal, stepFunctionExamples],
  logLevel: "warning",
});
await build({
  entryPoints: { app: join(root, "playground/src/style.css") },
  outdir: out,
  bundle: true,
  minify: !dev,
  logLevel: "warning",
});

// The page fetches ptc-json.wasm before its first run; ptc.wasm (step functions)
// and extras.browser.mjs on first use.
for (const file of [
  "browser.mjs",
  "ptc.wasm",
  "ptc-json.wasm",
  "extras.browser.mjs",
  ...(hasWorker ? [workerFile] : []),
])
  copyFileSync(join(dist, file), join(out, "ptc", file));

copyFileSync(join(root, "playground/index.html"), join(out, "index.html"));

// The mock tools' frame: its script inline, and a policy of its own that allows
// that script by its hash and eval (of the tools text) and nothing else: no
// network, no other script. Served, `npx ptc-wasm playground` sends the same
// policy as a header.
const frame = await build({
  entryPoints: [join(root, "playground/src/tools-frame.ts")],
  bundle: true,
  write: false,
  format: "iife",
  platform: "browser",
  target: ["chrome109", "firefox115", "safari16"],
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
const frameScript = frame.outputFiles[0].text.trim();
if (/<\/script/i.test(frameScript)) throw new Error("bundle-playground: tools-frame.ts's script contains </script");
const frameHash = createHash("sha256").update(frameScript).digest("base64");
writeFileSync(
  join(out, "tools-frame.html"),
  `<!doctype html><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-${frameHash}' 'unsafe-eval'">` +
    `<title>Mock tools sandbox</title><script>${frameScript}</script>\n`,
);

// Sizes: what a visitor downloads (gzip, as a static host would serve it).
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}
let raw = 0;
let gz = 0;
const rows = files(out)
  .filter((f) => !f.endsWith(".map"))
  .map((f) => {
    const bytes = readFileSync(f);
    const z = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += z;
    return `  ${relative(out, f).padEnd(24)} ${String(bytes.length).padStart(8)} B  ${String(z).padStart(7)} B gzip`;
  });
console.log(
  `playground: ${relative(process.cwd(), out) || out}/ (engine ${hasWorker ? "in a Web Worker" : "in the page"})`,
);
console.log(rows.join("\n"));
console.log(`  ${"total".padEnd(24)} ${String(raw).padStart(8)} B  ${String(gz).padStart(7)} B gzip`);
