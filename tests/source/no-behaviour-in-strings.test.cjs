// No behaviour hides in strings (issue 34 point 3): an op's `category` is text
// for readers (docs, prompt, schema), so the engine never decides anything by
// it; what an op does is a field of its table entry (op_table.h: rows, sees,
// gives...). Only the JSON exports of the tables read it.
// Reads the sources: it needs no build.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { cppSources, codeOf } = require("./sources.cjs");

const root = path.join(__dirname, "..", "..");

// The files that may read `category`, each with why.
const READERS = {
  "engine/ptc_json/op_table_text.cpp": "the op table as JSON (runtime.operations(), docs, prompt)",
  "engine/step_functions/step_table.cpp": "the step functions' functions as JSON (their category shown)",
};

/** "file:line" for each read of a `category` member. */
function categoryReads(files) {
  const out = [];
  for (const file of files) {
    codeOf(fs.readFileSync(path.join(root, file), "utf8"))
      .split("\n")
      .forEach((line, i) => {
        if (/(?:\.|->)\s*category\b/.test(line)) out.push(`${file}:${i + 1}`);
      });
  }
  return out;
}

test("the engine reads an op's category only where it exports the tables as JSON", () => {
  const reads = categoryReads(cppSources("engine"));
  expect(reads.filter((r) => !(r.split(":")[0] in READERS))).toEqual([]);
  // Each exporter still reads it: one that stopped leaves READERS.
  expect(Object.keys(READERS).filter((file) => !reads.some((r) => r.startsWith(`${file}:`)))).toEqual([]);
});

test("the check finds a category read, not the word in a comment or a string", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "category-reads-"));
  try {
    const file = path.join(dir, "planted.cpp");
    fs.writeFileSync(
      file,
      [
        "// spec.category is for readers",
        'const char* k = "spec.category";',
        'if (spec.category == std::string_view("comparison")) return 1;',
        "return p->category;",
      ].join("\n"),
    );
    const rel = path.relative(root, file).split(path.sep).join("/");
    expect(categoryReads([rel])).toEqual([`${rel}:3`, `${rel}:4`]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
