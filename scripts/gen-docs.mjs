// Writes docs/operations.md from the engine's operation table, the one source
// of truth for ops, and docs/errors.md from the error codes' table
// (js/src/types/error-codes.ts). `node scripts/gen-docs.mjs --check` fails if a
// committed file differs (a Jest test runs that check).
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createRuntime, ERROR_CODES } from "ptc-wasm";

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
      // Its keyed form (the op table's column): the key named after the op holds that field.
      const keyed = op.keyed ? ` Keyed form: \`${op.keyedShape}\`.` : "";
      lines.push(
        `| \`${op.name}\` | ${cell(fields)} | ${cell(op.description + keyed)} | \`${cell(JSON.stringify(op.example))}\` |`,
      );
    }
    lines.push("");
  }
  lines.push(
    "Implicit objects: an object without `op` in an expression position builds an object; its field values that are operations are evaluated, the others are literal.",
    "",
    'Keyed forms: an object without `op` whose first key names an operation with a keyed form (its description says so) is that operation, the key holding the field shown: `{"call": "charge", "args": {...}}` ([semantics.md](semantics.md#short-forms)).',
    "",
  );
  return lines.join("\n");
}

export function errorsMarkdown() {
  const cell = (s) => s.replaceAll("|", "\\|");
  const lines = [
    "# Error codes",
    "",
    "Generated from the table in `js/src/types/error-codes.ts` by `node scripts/gen-docs.mjs`; do not edit by hand.",
    "",
    "Every error is `{type, code, message, path?, position?}`. The `type` is one of the five of the",
    "spec (what kind of failure: see [semantics.md](semantics.md)); the `code` says why, in a stable",
    "snake_case name to branch on, where the `message` (written for a model to act on) may change.",
    "The package exports this table as `ERROR_CODES` and the type `ErrorCode`.",
    "",
    "| code | type | when | what to do |",
    "|---|---|---|---|",
  ];
  for (const e of ERROR_CODES) {
    const from = e.source === "package" ? " (from the package, not the engine)" : "";
    lines.push(
      `| \`${e.code}\` | ${e.types.map((t) => `\`${t}\``).join(", ")} | ${cell(e.when)}${from} | ${cell(e.fix)} |`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

// Run as a script (not imported): a relative argv[1] too, which the URL compare missed.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outputs = [
    ["operations.md", await operationsMarkdown()],
    ["errors.md", errorsMarkdown()],
  ];
  for (const [name, text] of outputs) {
    const path = new URL(`../docs/${name}`, import.meta.url);
    if (!process.argv.includes("--check")) writeFileSync(path, text);
    else if (readFileSync(path, "utf8") !== text) {
      console.error(`docs/${name} is out of date: run node scripts/gen-docs.mjs`);
      process.exit(1);
    }
  }
}
