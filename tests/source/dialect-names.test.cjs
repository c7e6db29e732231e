// The second dialect has one name, step functions (issue 34 item 4): its folder's
// files say what they hold without a `workflow_` prefix, its C++ namespace is
// ptc::step_functions, and both dialects' public option and result types are
// declared in js/src/types/, the layer every other imports. Public names that
// keep "workflow" (runWorkflow, the run_workflow tool, the RunKind "workflow"
// in signed states) stay as they are: CONTRIBUTING's glossary says so once.
// Reads the sources: it needs no build.
const fs = require("node:fs");
const path = require("node:path");
const { root, cppSources, codeOf } = require("./sources.cjs");

const read = (file) => fs.readFileSync(path.join(root, file), "utf8");

test("no file of engine/step_functions/ is named after workflows", () => {
  const named = fs.readdirSync(path.join(root, "engine/step_functions")).filter((f) => /^workflow/.test(f));
  expect(named).toEqual([]);
});

test("the dialect's C++ namespace is ptc::step_functions, never ptc::workflow", () => {
  const cpp = ["engine", "wasm", "tests/cpp", "tests/fuzz"].flatMap((dir) => cppSources(dir));
  const found = [];
  for (const file of cpp)
    codeOf(read(file))
      .split("\n")
      .forEach((line, i) => {
        if (/\bnamespace\s+(?:ptc::)?workflow\b|(?<![\w:])(?:ptc::)?workflow::/.test(line))
          found.push(`${file}:${i + 1}`);
      });
  // bench/size-parts.mjs sorts the wasm's functions into parts by namespace.
  expect(read("bench/size-parts.mjs")).not.toMatch(/ptc::workflow::/);
  expect(found).toEqual([]);
  expect(read("engine/step_functions/file.h")).toMatch(/\bnamespace ptc::step_functions\b/);
});

// Each dialect's options and results as a host passes and receives them.
const PUBLIC_OPTION_AND_RESULT_TYPES = [
  "RunOptions",
  "ValidateOptions",
  "RunResult",
  "WorkflowOptions",
  "ValidateWorkflowOptions",
  "WorkflowResult",
];

/** The js/src files (root-relative) that declare `export interface|type <name>`. */
function declaring(name) {
  const ts = fs
    .readdirSync(path.join(root, "js/src"), { recursive: true })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join("js/src", f).split(path.sep).join("/"));
  const declaration = new RegExp(`^export\\s+(?:interface|type)\\s+${name}\\b`, "m");
  return ts.filter((file) => declaration.test(read(file)));
}

test("both dialects' public option and result types are declared in js/src/types/, and only there", () => {
  const where = Object.fromEntries(PUBLIC_OPTION_AND_RESULT_TYPES.map((name) => [name, declaring(name)]));
  for (const [name, files] of Object.entries(where)) {
    expect({ name, files: files.filter((f) => !f.startsWith("js/src/types/")) }).toEqual({ name, files: [] });
    expect({ name, count: files.length }).toEqual({ name, count: 1 });
  }
});

test("the package's entry exports them from js/src/types/ (the public .d.ts keeps its names)", () => {
  const index = read("js/src/index.ts");
  const fromTypes = (name) =>
    [...index.matchAll(/export\s+type\s*(\*|\{[^}]*\})\s*from\s*"\.\/(types\/[\w-]+)\.js"/g)].some(
      ([, what, module]) =>
        declaring(name).includes(`js/src/${module}.ts`) &&
        (what === "*" ||
          what
            .slice(1, -1)
            .split(",")
            .some((n) => n.trim() === name)),
    );
  expect(PUBLIC_OPTION_AND_RESULT_TYPES.filter((name) => !fromTypes(name))).toEqual([]);
});

test("CONTRIBUTING's glossary gives the dialect's one name and the public names that keep 'workflow'", () => {
  const glossary = read("CONTRIBUTING.md").split("## Glossary")[1] ?? "";
  expect(glossary).toMatch(/\*\*Step functions\*\*/);
  expect(glossary).toMatch(/step-function file/);
  expect(glossary).toMatch(/runWorkflow/);
  expect(glossary).toMatch(/run_workflow/);
});
