// The documentation runs, so that it cannot drift from the package: every fenced
// code block of README.md and docs/*.md is executed or checked, and every link
// resolves. Conventions for the blocks (each needs a language):
//   js    an ES module (CommonJS when it uses require and no import), run with Node
//         against the build (dist/, as `ptc-wasm`) from build/doc-snippets/, where
//         `examples/` is the repository's; it must exit 0, and where a console.log
//         statement is followed by `//` comment lines, those lines are what it
//         prints. All js blocks also type-check (tsc --strict, // @ts-check).
//   sh    run with bash -euo pipefail in the same folder (`npx ptc-wasm` is the
//         build), stdin empty; it must exit 0.
//   json  parsed; a PTC-JSON program ({"program": ...} or an operation {"op": ...})
//         must also validate, and when the line after the block reads
//         Result: `<json>`, it runs (on the context of the page's last json block
//         marked `<!-- context -->`) and returns that value.
//   text  not code.
// A block preceded by `<!-- not-run: <reason> -->` is skipped, for that reason.
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { ptcWasm, sameJson } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const snippets = path.join(root, "build/doc-snippets");
const REPO = "https://github.com/ptc-wasm/ptc-wasm";
const files = [
  "README.md",
  ...fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (file) => fs.readFileSync(path.join(root, file), "utf8");

/**
 * The fenced blocks of a markdown text: language, code, 1-based line, the
 * not-run reason or context mark before it, and the first line after it.
 */
function codeBlocks(text) {
  const lines = text.split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    while (++i < lines.length && !/^```\s*$/.test(lines[i]));
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === "") before--;
    let after = i + 1;
    while (after < lines.length && lines[after].trim() === "") after++;
    const mark = lines[before]?.trim() ?? "";
    const notRun = /^<!--\s*not-run:\s*(.+?)\s*-->$/.exec(mark);
    out.push({
      lang: open[1],
      code: lines.slice(start + 1, i).join("\n") + "\n",
      line: start + 1,
      notRun: notRun?.[1],
      isContext: /^<!--\s*context\s*-->$/.test(mark),
      after: lines[after] ?? "",
    });
  }
  return out;
}

/**
 * What a js block says it prints: the `//` lines right after each console.log
 * statement (which may span lines: it ends where its parentheses balance, and
 * lines that only close blocks may follow it), up to the next line that is not
 * such a comment (a blank line ends them too).
 */
function expectedOutput(code) {
  const lines = code.split("\n");
  const expected = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].includes("console.log(")) continue;
    const strip = (l) => l.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
    let depth = 0;
    let j = i;
    for (; j < lines.length; j++) {
      for (const c of strip(lines[j]).slice(j === i ? strip(lines[j]).indexOf("console.log(") : 0))
        depth += c === "(" ? 1 : c === ")" ? -1 : 0;
      if (depth <= 0) break;
    }
    let k = j + 1;
    while (k < lines.length && /^\s*[)\]}]+[);]*\s*$/.test(lines[k])) k++; // the ends of enclosing blocks
    for (; k < lines.length && /^\s*\/\/ ?/.test(lines[k]); k++) expected.push(lines[k].replace(/^\s*\/\/ ?/, ""));
    i = k - 1;
  }
  return expected.length ? expected.join("\n") : undefined;
}

const squash = (s) => s.replace(/\s+/g, " ").trim();
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
const headings = (file) => new Set([...read(file).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1])));

function run(command, args, options) {
  return spawnSync(command, args, { cwd: snippets, encoding: "utf8", timeout: 120_000, input: "", ...options });
}

beforeAll(() => {
  fs.rmSync(snippets, { recursive: true, force: true });
  fs.mkdirSync(snippets, { recursive: true });
  // The examples the snippets use, as in a clone (paths are relative to its root).
  fs.symlinkSync(path.join(root, "examples"), path.join(snippets, "examples"));
});

const jsFiles = [];
let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

describe.each(files)("%s", (file) => {
  const blocks = codeBlocks(read(file));
  const name = (b) => `${file.replace(/[/.]/g, "_")}_${b.line}`;

  const runnable = blocks.filter((b) => !b.notRun).map((b) => [`line ${b.line} (${b.lang || "no language"})`, b]);
  // The context a json program runs on: the page's last context block before it.
  const contextOf = (block) => {
    const marked = blocks.filter((b) => b.isContext && b.line < block.line).at(-1);
    return marked ? JSON.parse(marked.code) : {};
  };
  (runnable.length ? test.each(runnable) : () => () => {})(
    "the block at %s runs",
    async (_, block) => {
      switch (block.lang) {
        case "js": {
          const commonjs = /\brequire\(/.test(block.code) && !/^\s*import\b/m.test(block.code);
          const target = path.join(snippets, `${name(block)}.${commonjs ? "cjs" : "mjs"}`);
          fs.writeFileSync(target, `// @ts-check\n${block.code}`);
          jsFiles.push(path.basename(target));
          const r = run(process.execPath, [target]);
          expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
          const wanted = expectedOutput(block.code);
          if (wanted !== undefined) expect(squash(r.stdout)).toBe(squash(wanted));
          break;
        }
        case "sh": {
          const target = path.join(snippets, `${name(block)}.sh`);
          fs.writeFileSync(target, `set -euo pipefail\n${block.code}`);
          const r = run("bash", [target]);
          expect({ status: r.status, stderr: r.status ? r.stderr : "" }).toEqual({ status: 0, stderr: "" });
          break;
        }
        case "json": {
          const value = JSON.parse(block.code);
          const program =
            value &&
            typeof value === "object" &&
            ("program" in value ? value : "op" in value ? { program: value } : null);
          if (program) expect(ptc.validate(program)).toEqual({ ok: true });
          const claimed = /^Result: `(.+)`$/.exec(block.after);
          if (claimed) {
            expect(program).toBeTruthy();
            const r = await ptc.run(program, { context: contextOf(block) });
            expect(r.ok ? r.result : ptc.formatError(r.error)).toEqual(expect.anything());
            if (!(r.ok && sameJson(r.result, JSON.parse(claimed[1]))))
              expect(r.ok ? r.result : r.error).toEqual(JSON.parse(claimed[1]));
          }
          break;
        }
        case "text":
          break;
        default:
          throw new Error(`give the block a language: js, sh, json or text (or mark it <!-- not-run: why -->)`);
      }
    },
    180_000,
  );

  test("its links resolve: relative ones in the repository (and, from README.md, in the tarball); the repository's absolute ones too", () => {
    const text = read(file).replace(/^```[\s\S]*?^```/gm, "");
    const packed = file === "README.md" ? packedFiles() : null;
    const broken = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const repoLink = new RegExp(`^${REPO}/(?:blob|tree)/main/([^#]+)`).exec(target);
      if (/^(https?:|mailto:)/.test(target) && !repoLink) continue;
      const [where, anchor] = (repoLink ? `/${repoLink[1]}` : target).split("#");
      const resolved = repoLink
        ? where.slice(1)
        : where
          ? path.posix.normalize(path.posix.join(path.posix.dirname(file), where))
          : file;
      if (!fs.existsSync(path.join(root, resolved))) broken.push(`${target}: no ${resolved} in the repository`);
      else if (anchor && resolved.endsWith(".md") && !headings(resolved).has(anchor))
        broken.push(`${target}: no heading #${anchor}`);
      else if (
        packed &&
        !repoLink &&
        !packed.some((f) => f === resolved || f.startsWith(`${resolved.replace(/\/$/, "")}/`))
      )
        broken.push(`${target}: ${resolved} is not in the package (link to ${REPO}/blob/main/${resolved})`);
    }
    expect(broken).toEqual([]);
  });
});

let packed;
function packedFiles() {
  if (!packed) {
    const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
      cwd: root,
      encoding: "utf8",
    });
    packed = JSON.parse(r.stdout)[0].files.map((f) => f.path);
  }
  return packed;
}

test("every js block type-checks against the package's types (tsc --strict)", () => {
  expect(jsFiles.length).toBeGreaterThan(5);
  const config = {
    compilerOptions: {
      allowJs: true,
      noEmit: true,
      strict: true,
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      types: ["node"],
      skipLibCheck: true,
      incremental: true,
      tsBuildInfoFile: "../doc-snippets.tsbuildinfo",
    },
    files: jsFiles,
  };
  fs.writeFileSync(path.join(snippets, "tsconfig.json"), JSON.stringify(config, null, 2));
  const r = run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", snippets]);
  expect(r.stdout + r.stderr).toBe("");
}, 180_000);
