// Writes the fuzz targets' seeds and dictionaries (scripts/fuzz.sh runs it
// before every run; nothing it writes is committed):
//   <out>/seeds/program/   every PTC-JSON conformance case as program / context / memory / answers
//   <out>/seeds/workflow/  every step-function case as file / entry / input / answers
//   <out>/seeds/json/      every JSON text those cases hold (programs, contexts, tool results,
//                          malformed sources), each once
//   <out>/<target>.dict    libFuzzer dictionaries: the op table's and the step table's names
//                          (from `fuzz_tables`, the engine's own JSON export), JSON tokens, the framing
// Usage: node tests/fuzz/gen-inputs.mjs <out dir> <fuzz_tables binary>
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [out, tablesBinary] = process.argv.slice(2);
if (!out || !tablesBinary) {
  console.error("usage: node tests/fuzz/gen-inputs.mjs <out dir> <fuzz_tables binary>");
  process.exit(2);
}

const SEPARATOR = "\n---\n"; // tests/fuzz/fuzz_support.h, splitParts

function cases(dir) {
  const folder = path.join(root, dir);
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .flatMap((f) => JSON.parse(fs.readFileSync(path.join(folder, f), "utf8")).cases);
}

// A case's mock tools as answers (fuzz_support.h, driveRun), in the order they
// are declared: the calls' order is the program's, so a seed's answers are a
// good guess, not a replay.
function answer(mock) {
  if (mock === undefined || mock === null) return "null";
  if ("throws" in mock) return "!" + mock.throws;
  if ("returnsNonJson" in mock) return "?fault";
  if (mock.hangs) return "?timeout";
  if ("aborts" in mock) return "?abort";
  if (mock.echo) return "{}";
  return JSON.stringify(mock.returns ?? null);
}
function answers(tools) {
  return Object.values(tools ?? {}).flatMap((m) => (m && m.sequence ? m.sequence.map(answer) : [answer(m)]));
}

const seeds = { program: new Map(), workflow: new Map(), json: new Map() };
const add = (target, text) => {
  if (typeof text === "string" && text.length > 0)
    seeds[target].set(createHash("sha1").update(text).digest("hex"), text);
};
const json = (v) => (v === undefined ? "" : JSON.stringify(v));

for (const c of cases("tests/conformance")) {
  const program = c.source ?? JSON.stringify(c.program);
  add("program", [program, json(c.context), json(c.memory), ...answers(c.tools)].join(SEPARATOR));
  for (const text of [program, json(c.context), json(c.memory), ...answers(c.tools)]) add("json", text);
}
for (const c of cases("tests/conformance-workflows")) {
  const source = c.sourceFile
    ? fs.readFileSync(path.join(root, c.sourceFile), "utf8")
    : (c.source ?? (c.functions ?? []).map((f) => JSON.stringify(f) + "\n").join(""));
  add("workflow", [source, c.entry ?? "", json(c.input), ...answers(c.tools)].join(SEPARATOR));
  add("json", source);
  add("json", json(c.input));
}

for (const [target, texts] of Object.entries(seeds)) {
  const dir = path.join(out, "seeds", target);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of texts) fs.writeFileSync(path.join(dir, name), text);
}

// The engine's tables: every name and key they hold, and every choice.
const [ops, language] = execFileSync(tablesBinary, { encoding: "utf8", maxBuffer: 1 << 26 })
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));
function names(table) {
  const found = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        if ((k === "name" || k === "key" || k === "op") && typeof x === "string") found.add(x);
        else if (k === "choices" && Array.isArray(x)) x.forEach((c) => typeof c === "string" && found.add(c));
        else walk(x);
      }
  };
  walk(table);
  return [...found].sort();
}

const jsonTokens = ["{", "}", "[", "]", ":", ",", '"', "true", "false", "null", "-0", "1e308", "0.1", "\\u", "\\ud800"];
const framing = [SEPARATOR, "!", "?timeout", "?abort", "?fault"];
const quoted = (words) => words.map((w) => JSON.stringify(w));
const dicts = {
  program: [...jsonTokens, ...framing, '"program"', '"op"', '"$_.', '"$', ...quoted(names(ops))],
  // A file's header keys are not in the step table; $references and operators are.
  workflow: [
    ...jsonTokens,
    ...framing,
    ...quoted(["function", "input", "output", "steps", "text", "number", "boolean", "list", "result"]),
    '"$',
    ...quoted(names(language)),
  ],
  json: [...jsonTokens, "\\n", "\\\\", "\\/", "1E+2", "-1.5e-7", "\ufeff", "\u00e9", "\u{1f600}"],
};
// libFuzzer's format: one quoted token a line, with \\, \" and \xNN escapes.
const escape = (s) =>
  [...Buffer.from(s, "latin1")]
    .map((b) =>
      b === 0x5c
        ? "\\\\"
        : b === 0x22
          ? '\\"'
          : b < 0x20 || b > 0x7e
            ? "\\x" + b.toString(16).padStart(2, "0")
            : String.fromCharCode(b),
    )
    .join("");
for (const [target, tokens] of Object.entries(dicts)) {
  const lines = [...new Set(tokens)].map((t) => `"${escape(Buffer.from(t, "utf8").toString("latin1"))}"`);
  fs.writeFileSync(path.join(out, `${target}.dict`), lines.join("\n") + "\n");
}
console.log(
  `fuzz inputs: ${Object.entries(seeds)
    .map(([t, s]) => `${s.size} ${t} seeds`)
    .join(", ")}; dictionaries of ${Object.entries(dicts)
    .map(([t, d]) => `${new Set(d).size} ${t}`)
    .join(", ")} tokens`,
);
