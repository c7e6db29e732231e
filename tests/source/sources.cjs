// What the source checks read, with no build: the conformance corpus as files
// (with each case's line), and a TypeScript module of js/src as data (ERROR_CODES),
// compiled on the spot by esbuild, as the package's bundle compiles it.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "../..");

/**
 * The 1-based lines where the elements of the top-level "cases" array start
 * (the native suite finds them the same way: tests/cpp/test_support.cpp).
 */
function caseLines(text) {
  const lines = [];
  let line = 1;
  let depth = 0;
  let elementDepth = -1;
  let lastTopLevelString = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    else if (c === '"') {
      const start = i + 1;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (depth === 1) lastTopLevelString = text.slice(start, i);
    } else if (c === "{" || c === "[") {
      if (depth === elementDepth) lines.push(line);
      if (c === "[" && depth === 1 && lastTopLevelString === "cases") elementDepth = 2;
      depth++;
    } else if (c === "}" || c === "]") {
      depth--;
      if (depth < elementDepth) elementDepth = -1;
    }
  }
  return lines;
}

/**
 * The conformance files of a directory (relative to the repository), each with
 * its cases and the line where each case starts: [{file, path, cases: [{...case, line}]}].
 */
function loadCaseFiles(dir) {
  return fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(path.join(root, dir, file), "utf8");
      const lines = caseLines(text);
      const cases = JSON.parse(text).cases.map((c, i) => ({ ...c, line: lines[i] ?? 0 }));
      return { file, path: `${dir}/${file}`, cases };
    });
}

/**
 * The exports of a TypeScript file under js/src that imports only types (the
 * error-code table, say), read from the source rather than from dist/.
 */
function loadTypeScript(file) {
  const { transformSync } = require("esbuild");
  const { code } = transformSync(fs.readFileSync(path.join(root, file), "utf8"), {
    loader: "ts",
    format: "cjs",
    sourcefile: file,
  });
  const module = { exports: {} };
  new Function("module", "exports", "require", code)(module, module.exports, () => {
    throw new Error(`${file}: the source checks load only files that import types alone`);
  });
  return module.exports;
}

/** The C++ files (.cpp, .h) under `dir` (relative to the root), as root-relative paths with "/". */
function cppSources(dir) {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true })
    .filter((f) => f.endsWith(".cpp") || f.endsWith(".h"))
    .map((f) => path.join(dir, f).split(path.sep).join("/"));
}

/** C++ text without comments and string literals (raw strings too), lines kept: what the source scans read. */
function codeOf(text) {
  return text
    .replace(/R"\(([\s\S]*?)\)"/g, (m) => m.replace(/[^\n]/g, " "))
    .replace(/"(?:\\.|[^"\\\n])*"/g, '""')
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " "))
    .replace(/\/\/.*$/gm, "");
}

module.exports = { root, caseLines, loadCaseFiles, loadTypeScript, cppSources, codeOf };
