// Bundles the TypeScript package with the Emscripten glue into dist/:
// node.mjs (ESM), node.cjs (CommonJS), browser.mjs, plus ptc.wasm and .d.ts.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

const common = { bundle: true, target: "es2022", sourcemap: false, legalComments: "none", logLevel: "warning" };
mkdirSync("dist", { recursive: true });
await Promise.all([
  build({ ...common, entryPoints: ["js/src/node.ts"], outfile: "dist/node.mjs", format: "esm", platform: "node" }),
  build({
    ...common,
    entryPoints: ["js/src/node.ts"],
    outfile: "dist/node.cjs",
    format: "cjs",
    platform: "node",
    // CommonJS has no import.meta: locate the .wasm from __filename instead.
    define: { "import.meta.url": "__ptcModuleUrl" },
    banner: { js: 'const __ptcModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  }),
  build({ ...common, entryPoints: ["js/src/browser.ts"], outfile: "dist/browser.mjs", format: "esm", platform: "browser" }),
  // Engine workers for createRuntime({ worker: true }).
  build({ ...common, entryPoints: ["js/src/worker-node.ts"], outfile: "dist/worker.node.mjs", format: "esm", platform: "node" }),
  build({ ...common, entryPoints: ["js/src/worker-browser.ts"], outfile: "dist/worker.browser.mjs", format: "esm", platform: "browser" }),
]);
copyFileSync("build/wasm/ptc.wasm", "dist/ptc.wasm");
