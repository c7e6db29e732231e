// Bundles the TypeScript package with the Emscripten glue into dist/:
// node.mjs (ESM), node.cjs (CommonJS), browser.mjs, plus ptc.wasm and the
// extras.cjs that both Node builds require on first use (the type
// declarations come from tsc and scripts/bundle-types.mjs);
// the agent entries mcp.{mjs,cjs} and ai-sdk.{mjs,cjs}; the embeddable editor,
// editor.mjs (browsers); and the CLI, cli.mjs.
import { build } from "esbuild";
import { chmodSync, copyFileSync, mkdirSync } from "node:fs";

// Minified without keepNames: its name-setting calls cost half a millisecond of
// every import and 3 KB gzip. Public classes name themselves (static blocks).
const common = {
  bundle: true,
  minify: true,
  target: "es2022",
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
};
// CommonJS has no import.meta: locate the .wasm from __filename instead. And
// import() becomes a lazy require(): Jest's CommonJS sandbox, among others,
// refuses dynamic imports (node.ts loads worker_threads on first use).
const cjs = {
  format: "cjs",
  supported: { "dynamic-import": false },
  define: { "import.meta.url": "__ptcModuleUrl" },
  banner: { js: 'const __ptcModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
};
// The agent entries and the CLI use the runtime entry next to them rather than a
// copy of it, and leave their dependencies (MCP SDK, zod, ai) to the installer.
const siblings = (ext) => ({
  name: "siblings",
  setup(b) {
    b.onResolve({ filter: /^\.\/(node|agents\/mcp)\.js$/ }, (args) =>
      args.importer.endsWith("cli.ts") || args.path === "./node.js"
        ? { path: args.path.replace(/^\.\/(agents\/)?/, "./").replace(/\.js$/, ext), external: true }
        : undefined,
    );
  },
});
const agentDeps = ["@modelcontextprotocol/sdk", "zod", "ai"];
// ptc-wasm/editor imports the browser entry next to it (one runtime, one worker
// and .wasm lookup) and bundles CodeMirror, which the package does not depend on.
const browserSibling = {
  name: "browser-sibling",
  setup(b) {
    b.onResolve({ filter: /^\.\/browser\.js$/ }, () => ({ path: "./browser.mjs", external: true }));
  },
};

// browser.mjs imports the extras on first use from the file next to it, left
// out of its bundle (a page's first run does not need them).
const extrasChunk = {
  name: "extras-chunk",
  setup(b) {
    b.onResolve({ filter: /^\.\/extras\/extras\.js$/ }, () => ({ path: "./extras.browser.mjs", external: true }));
  },
};

mkdirSync("dist", { recursive: true });
await Promise.all([
  build({ ...common, entryPoints: ["js/src/node.ts"], outfile: "dist/node.mjs", format: "esm", platform: "node" }),
  build({ ...common, ...cjs, entryPoints: ["js/src/node.ts"], outfile: "dist/node.cjs", platform: "node" }),
  // Prompts, schemas and the tool-args validator, required by node.{mjs,cjs} on
  // first use (js/src/extras/extras.ts says why apart).
  build({
    ...common,
    entryPoints: ["js/src/extras/extras.ts"],
    outfile: "dist/extras.cjs",
    format: "cjs",
    platform: "node",
  }),
  build({
    ...common,
    entryPoints: ["js/src/browser.ts"],
    outfile: "dist/browser.mjs",
    format: "esm",
    platform: "browser",
    plugins: [extrasChunk],
  }),
  // The extras of browsers, fetched by browser.mjs on first use (browser.ts).
  build({
    ...common,
    entryPoints: ["js/src/extras/extras.ts"],
    outfile: "dist/extras.browser.mjs",
    format: "esm",
    platform: "browser",
  }),
  build({
    ...common,
    entryPoints: ["js/src/editor.ts"],
    outfile: "dist/editor.mjs",
    format: "esm",
    platform: "browser",
    plugins: [browserSibling],
  }),
  // Engine workers for createRuntime({ worker: true }).
  build({
    ...common,
    entryPoints: ["js/src/runtimes/worker-node.ts"],
    outfile: "dist/worker.node.mjs",
    format: "esm",
    platform: "node",
  }),
  build({
    ...common,
    entryPoints: ["js/src/runtimes/worker-browser.ts"],
    outfile: "dist/worker.browser.mjs",
    format: "esm",
    platform: "browser",
  }),
  // ptc-wasm/mcp and ptc-wasm/ai-sdk.
  ...["mcp", "ai-sdk"].flatMap((name) => [
    build({
      ...common,
      entryPoints: [`js/src/agents/${name}.ts`],
      outfile: `dist/${name}.mjs`,
      format: "esm",
      platform: "node",
      external: agentDeps,
      plugins: [siblings(".mjs")],
    }),
    build({
      ...common,
      ...cjs,
      entryPoints: [`js/src/agents/${name}.ts`],
      outfile: `dist/${name}.cjs`,
      platform: "node",
      external: agentDeps,
      plugins: [siblings(".cjs")],
    }),
  ]),
  // npx ptc-wasm
  build({
    ...common,
    entryPoints: ["js/src/cli.ts"],
    outfile: "dist/cli.mjs",
    format: "esm",
    platform: "node",
    external: agentDeps,
    plugins: [siblings(".mjs")],
    banner: { js: "#!/usr/bin/env node" },
  }),
]);
chmodSync("dist/cli.mjs", 0o755);
copyFileSync("build/wasm/ptc.wasm", "dist/ptc.wasm");
// The engine without the step-function dialect: createRuntime({ stepFunctions: false }).
copyFileSync("build/wasm/ptc_json.wasm", "dist/ptc-json.wasm");
