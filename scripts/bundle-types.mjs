// The package's type declarations, from tsc's output in build/types/ (see
// tsconfig.json) into dist/types/: each module twice, as .d.mts for import and
// .d.cts for require, so that TypeScript sees the same module format as Node
// does in every module mode (a .d.ts in this "type": "module" package would
// claim to be ESM for the CommonJS entries too). Only the modules the public
// entries reach are copied.
import { mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync } from "node:fs";

const from = "build/types";
const to = "dist/types";
const entries = ["node", "browser", "mcp", "ai-sdk"];
// Relative specifiers in tsc's output: `from "./x.js"` and `import("./x.js")`.
const relative = /(\bfrom\s*|\bimport\s*\(\s*)(["'])\.\/([\w.-]+)\.js\2/g;
// `ai` is ESM only: a CommonJS declaration must say it imports its types as ESM.
const esmOnly = new Set(["ai"]);

function reachable() {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const m of readFileSync(`${from}/${name}.d.ts`, "utf8").matchAll(relative)) visit(m[3]);
  };
  entries.forEach(visit);
  return [...seen].sort();
}

function flavour(text, ext) {
  let out = text.replace(relative, (_, lead, quote, name) => `${lead}${quote}./${name}.${ext}${quote}`);
  // (A declaration imports nothing but types: `import { type A }` becomes `import type { A }`,
  // the form that may carry the attribute.)
  if (ext === "cjs")
    out = out.replace(/^import\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\2;/gm, (line, names, quote, spec) =>
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
for (const name of reachable()) {
  const text = readFileSync(`${from}/${name}.d.ts`, "utf8");
  writeFileSync(`${to}/${name}.d.mts`, flavour(text, "mjs"));
  writeFileSync(`${to}/${name}.d.cts`, flavour(text, "cjs"));
}
