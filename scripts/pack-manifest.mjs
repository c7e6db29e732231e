#!/usr/bin/env node
// npm pack / npm publish: the published package.json carries no "scripts". Every
// script here is for a checkout (it calls scripts/, tests/ or devDependencies that
// the package does not ship), so in an installed copy each would fail.
//
//   node scripts/pack-manifest.mjs strip     (prepack: keeps the original in build/)
//   node scripts/pack-manifest.mjs restore   (postpack: puts it back, byte for byte)
//
// npm runs postpack from the manifest it read before prepack, so the restore runs
// although the file on disk has no scripts then. A pack that failed between the
// two leaves the copy behind: the next strip (or restore) puts it back first.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = join(root, "package.json");
const kept = join(root, "build", "package.json.unpacked");

function restore() {
  if (!existsSync(kept)) return;
  copyFileSync(kept, manifest);
  rmSync(kept);
}

const command = process.argv[2];
if (command === "restore") restore();
else if (command === "strip") {
  restore();
  const text = readFileSync(manifest, "utf8");
  mkdirSync(dirname(kept), { recursive: true });
  writeFileSync(kept, text);
  const { scripts: _, ...published } = JSON.parse(text);
  writeFileSync(manifest, `${JSON.stringify(published, null, 2)}\n`);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}
