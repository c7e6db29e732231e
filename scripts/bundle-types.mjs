// The package's type declarations, from tsc's output in build/types/ (see
// tsconfig.json) into dist/types/: each module twice, as .d.mts for import and
// .d.cts for require, so that TypeScript sees the same module format as Node
// does in every module mode (a .d.ts in this "type": "module" package would
// claim to be ESM for the CommonJS entries too). Only the modules the public
// entries reach are copied, into one folder: js/src's layer folders are the
// code's layout, not the package's (module names are unique across them).
import { mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { posix } from "node:path";

const from = "build/types";
const to = "dist/types";
const entries = ["node", "browser", "editor", "agents/mcp", "agents/ai-sdk"];
// Relative specifiers in tsc's output: `from "../run/x.js"` and `import("./x.js")`.
const relative = /(\bfrom\s*|\bimport\s*\(\s*)(["'])(\.{1,2}\/[\w./-]+)\.js\2/g;
// The module a specifier of module `name` names, relative to build/types.
const target = (name, spec) => posix.normalize(posix.join(posix.dirname(name), spec));
// `ai` is ESM only: a CommonJS declaration must say it imports its types as ESM.
const esmOnly = new Set(["ai"]);

function reachable() {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const m of readFileSync(`${from}/${name}.d.ts`, "utf8").matchAll(relative)) visit(target(name, m[3]));
  };
  entries.forEach(visit);
  return [...seen].sort();
}

function flavour(text, name, ext) {
  let out = text.replace(
    relative,
    (_, lead, quote, spec) => `${lead}${quote}./${posix.basename(target(name, spec))}.${ext}${quote}`,
  );
  // (A declaration imports nothing but types: `import { type A }` and `import type { A }` both
  // become `import type { A }`, the form that may carry the attribute.)
  if (ext === "cjs")
    out = out.replace(/^import\s*(?:type\s+)?\{([^}]*)\}\s*from\s*(["'])([^"']+)\2;/gm, (line, names, quote, spec) =>
      esmOnly.has(spec)
        ? `import type {${names.replace(/\btype\s+/g, "")}} from ${quote}${spec}${quote} with { "resolution-mode": "import" };`
        : line,
    );
  return out;
}

rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
// Declarations that earlier builds wrote beside the bundles.
for (const f of readdirSync("dist")) if (f.endsWith(".d.ts")) rmSync(`dist/${f}`);
const written = new Map();
for (const name of reachable()) {
  const flat = posix.basename(name);
  if (written.has(flat))
    throw new Error(`bundle-types: js/src/${name}.ts and js/src/${written.get(flat)}.ts share a name`);
  written.set(flat, name);
  const text = readFileSync(`${from}/${name}.d.ts`, "utf8");
  writeFileSync(`${to}/${flat}.d.mts`, flavour(text, name, "mjs"));
  writeFileSync(`${to}/${flat}.d.cts`, flavour(text, name, "cjs"));
}
