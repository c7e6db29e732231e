// examples/vite-editor built as a consumer would: its files in a fresh folder
// whose node_modules/ptc-wasm is this repository (its package.json exports, its
// dist/), then `vite build` with no configuration. Used by editor.test.mjs and
// scripts/editor-screenshots.mjs.
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers.mjs";

export const EXAMPLE = join(ROOT, "examples", "vite-editor");

/** Builds the example into `work`/dist and returns that folder. */
export async function buildEditorExample(work) {
  if (!existsSync(join(ROOT, "dist", "editor.mjs")))
    throw new Error("dist/editor.mjs is missing: run `npm run build` (or node scripts/bundle.mjs)");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, "node_modules"), { recursive: true });
  cpSync(EXAMPLE, work, { recursive: true, filter: (f) => !f.includes("node_modules") && !f.endsWith("/dist") });
  symlinkSync(ROOT, join(work, "node_modules", "ptc-wasm"), "dir");
  const { build } = await import("vite");
  await build({
    root: work,
    configFile: false,
    logLevel: "warn",
    build: { outDir: join(work, "dist"), chunkSizeWarningLimit: 2048 },
  });
  return join(work, "dist");
}
