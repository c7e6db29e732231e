// Writes docs/operations.md from the engine's operation table, the one source
// of truth for ops. `node scripts/gen-docs.mjs --check` fails if the committed
// file differs (a Jest test runs that check).
import { readFileSync, writeFileSync } from "node:fs";
import { createRuntime } from "ptc-wasm";

export async function operationsMarkdown() {
  const ops = (await createRuntime()).operations();
  const lines = [
    "# PTC-JSON operations",
    "",
    "Generated from the engine's operation table by `node scripts/gen-docs.mjs`; do not edit by hand.",
    "Exact semantics and edge cases: [semantics.md](semantics.md).",
    "",
  ];
  const categories = [...new Set(ops.map((o) => o.category))];
  for (const category of categories) {
    lines.push(`## ${category[0].toUpperCase()}${category.slice(1)}`, "");
    lines.push("| op | fields | description | example |", "|---|---|---|---|");
    for (const op of ops.filter((o) => o.category === category)) {
      const fields = op.fields.length
        ? op.fields
            .map(
              (f) => `\`${f.name}\` (${f.kind}${f.presence === "required" ? "" : `, ${f.presence.replace("_", " ")}`})`,
            )
            .join(", ")
        : "—";
      const cell = (s) => s.replaceAll("|", "\\|");
      lines.push(
        `| \`${op.name}\` | ${cell(fields)} | ${cell(op.description)} | \`${cell(JSON.stringify(op.example))}\` |`,
      );
    }
    lines.push("");
  }
  lines.push(
    "Implicit objects: an object without `op` in an expression position builds an object; its field values that are operations are evaluated, the others are literal.",
    "",
  );
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = new URL("../docs/operations.md", import.meta.url);
  const text = await operationsMarkdown();
  if (process.argv.includes("--check")) {
    if (readFileSync(path, "utf8") !== text) {
      console.error("docs/operations.md is out of date: run node scripts/gen-docs.mjs");
      process.exit(1);
    }
  } else {
    writeFileSync(path, text);
  }
}
