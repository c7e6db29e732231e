// Issue 28: no `any` reachable from the public types. A strict TypeScript user
// gets real types for every tool shape (tests/package/fixtures/types/ checks
// that the documented shapes compile); this scans what the package ships.
const fs = require("node:fs");
const path = require("node:path");

const typesDir = path.join(__dirname, "../../dist/types");

// The declarations' code without comments and string literals, where the word
// "any" is prose.
function code(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

function anyTypes(file) {
  const lines = code(fs.readFileSync(path.join(typesDir, file), "utf8")).split("\n");
  return lines.flatMap((line, i) => (/\bany\b/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

test("no declaration the package ships uses the type any", () => {
  const files = fs.readdirSync(typesDir).filter((f) => /\.d\.[cm]ts$/.test(f));
  expect(files.length).toBeGreaterThan(10);
  expect(files.flatMap(anyTypes)).toEqual([]);
});

test("the scan sees an any in code, not in comments or strings", () => {
  const scanned = code('/** any */ type A = "any"; // any\ntype B = Record<string, any>;');
  expect(scanned.split("\n").filter((l) => /\bany\b/.test(l))).toEqual(["type B = Record<string, any>;"]);
});

// Issue 33 point 4: typed tools. tests/js/types/*.ts compile under --strict
// against the built declarations (dist/types, through the package's own name);
// each line a `// @ts-expect-error` marks must be an error by itself, so the
// files are compiled again without those comments, expecting errors on exactly
// those lines and nowhere else.
const { spawnSync } = require("node:child_process");

const root = path.join(__dirname, "../..");
const fixtures = path.join(__dirname, "types");
// Inside the package, so that `import ... from "ptc-wasm"` resolves to the package itself.
const work = path.join(root, "build/type-tests");

function tsc(files) {
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    types: [],
    // ai's own declarations need @types/json-schema; ours are checked by the package test.
    skipLibCheck: true,
  };
  const config = path.join(work, `tsconfig.${path.basename(files[0], ".ts")}.json`);
  fs.writeFileSync(config, JSON.stringify({ compilerOptions, files }, null, 2));
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", config], {
    encoding: "utf8",
  });
  return { status: r.status, errors: r.stdout.split("\n").filter((l) => /error TS\d+/.test(l)) };
}

const directive = /^\s*\/\/ @ts-expect-error\b/;

describe.each(fs.readdirSync(fixtures).filter((f) => f.endsWith(".ts")))("%s", (file) => {
  beforeAll(() => fs.mkdirSync(work, { recursive: true }));

  test("compiles under --strict, every @ts-expect-error being an error", () => {
    const r = tsc([path.join(fixtures, file)]);
    expect(r.errors).toEqual([]);
    expect(r.status).toBe(0);
  }, 180_000);

  test("each marked line is an error by itself: without the markers, errors are on exactly those lines", () => {
    const lines = fs.readFileSync(path.join(fixtures, file), "utf8").split("\n");
    const marked = lines.flatMap((line, i) => (directive.test(line) ? [i + 2] : [])); // 1-based, the next line
    expect(marked.length).toBeGreaterThan(3);
    const stripped = path.join(work, file);
    fs.writeFileSync(stripped, lines.map((line) => (directive.test(line) ? "" : line)).join("\n"));
    const r = tsc([stripped]);
    const at = new Set(r.errors.map((e) => Number(/\((\d+),\d+\): error/.exec(e)?.[1])));
    expect({ lines: [...at].sort((a, b) => a - b), errors: r.errors }).toEqual({
      lines: marked,
      errors: expect.anything(),
    });
  }, 180_000);
});
