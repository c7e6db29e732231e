// What an op does is data of its op-table entry (engine/ptc_json/op_table.h:
// its apply function or Control case, how often it runs its expressions, its
// projection role...), so no switch in the engine names ops: a new op cannot
// be left out of one, nor silently run another op's code through a `default:`.
// The switches over an op's behaviour (Control, RowRole, Runs) have no
// `default:` either, so -Werror=switch names every one a new kind must reach.
// Reads the sources: it needs no build.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.join(__dirname, "..", "..");

function sources(dir) {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true })
    .filter((f) => f.endsWith(".cpp") || f.endsWith(".h"))
    .map((f) => path.join(dir, f).split(path.sep).join("/"));
}

/** The text without comments and string literals (raw strings too), lines kept. */
function code(text) {
  return text
    .replace(/R"\(([\s\S]*?)\)"/g, (m) => m.replace(/[^\n]/g, " "))
    .replace(/"(?:\\.|[^"\\\n])*"/g, '""')
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " "))
    .replace(/\/\/.*$/gm, "");
}

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

const BEHAVIOUR = /\bcase\s+(?:ptc::)?(?:Op|Control|RowRole|Runs)::/;

/** "file:line: ..." for each label that names an op and each default over ops or their behaviour. */
function problems(files) {
  const out = [];
  for (const file of files) {
    const text = code(fs.readFileSync(path.join(root, file), "utf8"));
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

test("no switch in the engine names ops, and none over their behaviour has a default", () => {
  expect(problems(sources("engine"))).toEqual([]);
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
