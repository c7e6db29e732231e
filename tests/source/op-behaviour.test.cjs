// What an op does is data of its op-table entry (engine/ptc_json/op_table.h:
// its apply function or Control case, how often it runs its expressions, its
// projection role...), so no switch in the engine names ops: a new op cannot
// be left out of one, nor silently run another op's code through a `default:`.
// The switches over an op's behaviour (Control, RowRole, Runs, Sees, Gives)
// have no `default:` either, so -Werror=switch names every one a new kind must
// reach.
// Reads the sources: it needs no build.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { cppSources, codeOf } = require("./sources.cjs");

const root = path.join(__dirname, "..", "..");

/** Each `switch (...) { ... }` of a file: its line and its body. */
function switches(text) {
  const found = [];
  for (const m of text.matchAll(/\bswitch\s*\(/g)) {
    const open = text.indexOf("{", m.index);
    let depth = 0;
    let end = open;
    for (; end < text.length; end++) {
      if (text[end] === "{") depth++;
      else if (text[end] === "}" && --depth === 0) break;
    }
    found.push({ line: text.slice(0, m.index).split("\n").length, body: text.slice(open, end + 1) });
  }
  return found;
}

const BEHAVIOUR = /\bcase\s+(?:ptc::)?(?:Op|Control|RowRole|Runs|Sees|Gives)::/;

/** "file:line: ..." for each label that names an op and each default over ops or their behaviour. */
function problems(files) {
  const out = [];
  for (const file of files) {
    const text = codeOf(fs.readFileSync(path.join(root, file), "utf8"));
    text.split("\n").forEach((line, i) => {
      if (/\bcase\s+(?:ptc::)?Op::/.test(line))
        out.push(`${file}:${i + 1}: a case label names an op (make it a field of the op's table entry)`);
    });
    for (const { line, body } of switches(text))
      if (BEHAVIOUR.test(body) && /\bdefault\s*:/.test(body))
        out.push(`${file}:${line}: a switch over ops or their behaviour has a default: (name every case)`);
  }
  return out;
}

// A list of ops in a condition (`op == Op::A || op == Op::B`) or in an array
// (`static constexpr Op kName[] = {Op::A, Op::B}`, a std::array of Op) is what
// a field of their table entries says once (refusesCalls, shortForm, the
// Compare role, sees, gives...): a new op that shares the property would be
// missed by the list. The lists kept, by file and ops, each with why it is not
// a property of the ops' entries.
const KEPT_LISTS = {
  "engine/step_functions/functions.cpp: StartsWith,EndsWith":
    "the text tests whose function form names a second parameter",
};

/** "file: A,B" for each condition that tests an op against two ops or more, and each array of ops. */
function opLists(files) {
  const out = [];
  const condition = /[=!]=\s*(?:ptc::)?Op::\w+(?:[^;{}]*?(?:\|\||&&)[^;{}]*?[=!]=\s*(?:ptc::)?Op::\w+)+/g;
  const array = /(?:\bOp\s+\w+\s*\[\s*\w*\s*\]|std::array<\s*(?:ptc::)?Op\s*,[^>]*>\s*\w+)\s*=?\s*\{[^;{}]*\}/g;
  for (const file of files) {
    const text = codeOf(fs.readFileSync(path.join(root, file), "utf8"));
    for (const m of [...text.matchAll(condition), ...text.matchAll(array)]) {
      const ops = [...new Set([...m[0].matchAll(/Op::(\w+)/g)].map((o) => o[1]))];
      if (ops.length > 1) out.push(`${file}: ${ops.join(",")}`);
    }
  }
  return out;
}

test("no new list of ops in a condition: a property of ops is a field of their table entries", () => {
  expect(opLists(cppSources("engine")).filter((l) => !(l in KEPT_LISTS))).toEqual([]);
});

test("every kept list of ops is still there (a list made table data leaves KEPT_LISTS)", () => {
  const found = new Set(opLists(cppSources("engine")));
  expect(Object.keys(KEPT_LISTS).filter((l) => !found.has(l))).toEqual([]);
});

test("the list check finds ops tested together or listed in an array, across lines, not a single op", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "op-lists-"));
  try {
    const file = path.join(dir, "planted.cpp");
    fs.writeFileSync(
      file,
      [
        "bool a(Op op) { return op == Op::GroupBy ||",
        "  op == Op::Scan; }",
        "bool b(const Node& n) { return n.op == Op::Call; }",
        "bool c(const Node& n) { if (n.op == Op::Let) return x; return n.op == Op::Pipe; }",
        "static constexpr Op kFolds[] = {Op::Sum,",
        "  Op::Avg};",
        "constexpr ptc::Op kOne[1] = {Op::Count};",
        "constexpr std::array<Op, 2> kPicks{Op::First, Op::Last};",
      ].join("\n"),
    );
    const rel = path.relative(root, file).split(path.sep).join("/");
    expect(opLists([rel])).toEqual([`${rel}: GroupBy,Scan`, `${rel}: Sum,Avg`, `${rel}: First,Last`]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Any comparison of an op with a named op (`n.op == Op::X`, `Op::X != op`, a
// ternary over ops) outside the op table restates a rule of that op's entry
// where a new op cannot see it (issue 34: at most 10, each said why here).
// The planner, the compiler's field rules, the warnings, the analysis and the
// projection read the entries instead (equality, picksFirst, folds,
// FieldSpec::excludes, Gives::KeyedKids, Control, RowRole).
const MAX_OP_COMPARISONS = 10;
const KEPT_COMPARISONS = {
  "engine/step_functions/functions.cpp: StartsWith":
    "step functions' function forms: the text tests name their second parameter (prefix, suffix) and take it " +
    "positionally (the step-function dialect's own table, not PTC-JSON's)",
  "engine/step_functions/functions.cpp: EndsWith": "as StartsWith",
  "engine/step_functions/functions.cpp: Round": "$round of null is null in step functions' expressions",
  "engine/ptc_json/ops/arithmetic.cpp: Floor": "floor and ceil share one apply function, which picks its rounding",
};

/** "file: Op" for each comparison of an op with a named op outside the op table, once per comparison. */
function opComparisons(files) {
  const out = [];
  const comparison = /[=!]=\s*(?:ptc::)?Op::(\w+)|(?:ptc::)?Op::(\w+)\s*[=!]=/g;
  for (const file of files.filter((f) => !/\/op_table[^/]*$/.test(f))) {
    const text = codeOf(fs.readFileSync(path.join(root, file), "utf8"));
    for (const m of text.matchAll(comparison)) out.push(`${file}: ${m[1] ?? m[2]}`);
  }
  return out;
}

test(`at most ${MAX_OP_COMPARISONS} comparisons with a named op outside the op table, each kept for a reason`, () => {
  const found = opComparisons(cppSources("engine"));
  expect(found.filter((c) => !(c in KEPT_COMPARISONS))).toEqual([]);
  expect(found.length).toBeLessThanOrEqual(MAX_OP_COMPARISONS);
  // A kept comparison that went leaves the list.
  expect(Object.keys(KEPT_COMPARISONS).filter((c) => !found.includes(c))).toEqual([]);
});

test("no field of a node is read by its position (kids[0]): by name (fieldRef, kidNamed, kidsOf)", () => {
  const positional = [];
  for (const file of cppSources("engine")) {
    const text = codeOf(fs.readFileSync(path.join(root, file), "utf8"));
    text.split("\n").forEach((line, i) => {
      if (/\bkids\s*\[\s*\d+\s*\]/.test(line)) positional.push(`${file}:${i + 1}`);
    });
  }
  expect(positional).toEqual([]);
});

test("the comparison check finds an op compared either way round and in a ternary", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "op-comparisons-"));
  try {
    const file = path.join(dir, "planted.cpp");
    fs.writeFileSync(
      file,
      [
        "bool a(const Node& n) { return n.op == Op::Eq; }",
        "bool b(Op op) { return Op::Sum != op; }",
        "int c(const Node& n) { return n.op == ptc::Op::First ? 1 : 2; }",
        "// n.op == Op::Count in a comment is not code",
        "bool d(const Node& n) { return specOf(n.op).control == Control::Pipe; }",
      ].join("\n"),
    );
    const rel = path.relative(root, file).split(path.sep).join("/");
    expect(opComparisons([rel])).toEqual([`${rel}: Eq`, `${rel}: Sum`, `${rel}: First`]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("no switch in the engine names ops, and none over their behaviour has a default", () => {
  expect(problems(cppSources("engine"))).toEqual([]);
});

test("the check finds a case label naming an op and a default over Control", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "op-behaviour-"));
  try {
    const file = path.join(dir, "planted.cpp");
    fs.writeFileSync(
      file,
      [
        "Value f(const Node& n) {",
        "  switch (n.op) {",
        "    case Op::Sum: return a();",
        "    default: return b();  // a forgotten op runs b",
        "  }",
        "  switch (specOf(n.op).control) {",
        "    case Control::None: return c();",
        "    default: return d();",
        "  }",
        "  switch (kind) {  // not about ops: a default is fine",
        "    case Kind::A: return e();",
        "    default: return g();",
        "  }",
        "}",
      ].join("\n"),
    );
    const rel = path.relative(root, file).split(path.sep).join("/");
    expect(problems([rel])).toEqual([
      `${rel}:3: a case label names an op (make it a field of the op's table entry)`,
      `${rel}:2: a switch over ops or their behaviour has a default: (name every case)`,
      `${rel}:6: a switch over ops or their behaviour has a default: (name every case)`,
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
