// The code's layers point down only, so that a newcomer can read it from the
// ground up: a file may import (or #include) files of its own layer or of the
// layers below, never one above, and no set of files imports itself round in a
// cycle (type imports included: a cycle closed by types still means no file of
// it can be read first). Reads the sources, not dist/: it needs no build.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..", "..");

// Bottom first. A folder of js/src is a layer; the files at the top of js/src
// are the entries, which compose the layers.
const JS_LAYERS = ["util", "types", "engine", "run", "gate", "runtimes", "extras", "agents", "editor", "(entries)"];
// engine/ folders, then the bindings in wasm/.
const ENGINE_LAYERS = ["core", "ptc_json", "step_functions", "api", "wasm"];

function filesUnder(dir, ext) {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true })
    .filter((f) => ext.some((e) => f.endsWith(e)))
    .map((f) => path.join(dir, f).split(path.sep).join("/"));
}

/** Relative imports of a TypeScript file: import/export ... from, import(), import type. */
function tsImports(file) {
  const text = fs.readFileSync(path.join(root, file), "utf8").replace(/^\s*(\/\/|\*|\/\*).*$/gm, "");
  const found = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(["'])(\.{1,2}\/[^"']+)\1/gm)) {
    if (m[2].includes("/build/")) continue; // the Emscripten glue, built from engine/ and wasm/
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2])).replace(/\.js$/, ".ts");
    found.push({
      how: "import",
      spec: m[2],
      target: fs.existsSync(path.join(root, target)) ? target : target.replace(/\.ts$/, ".d.ts"),
    });
  }
  return found;
}

/** `#include "..."` of an engine or bindings file (paths are relative to engine/). */
function cppIncludes(file) {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  return [...text.matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)].map((m) => ({
    how: "#include",
    spec: m[1],
    target: `engine/${m[1]}`,
  }));
}

function jsLayer(file) {
  const rel = file.slice("js/src/".length);
  return rel.includes("/") ? rel.split("/")[0] : "(entries)";
}

function engineLayer(file) {
  return file.startsWith("wasm/") ? "wasm" : file.split("/")[1];
}

/**
 * Every broken rule of a graph, as "file: import 'spec' ..." lines: an import
 * from a higher layer, a file in no layer, an import of a missing file, and each
 * cycle (the files round it).
 */
function problems(files, importsOf, layerOf, layers) {
  const out = [];
  const graph = new Map();
  for (const file of files) {
    const own = layers.indexOf(layerOf(file));
    if (own < 0) out.push(`${file}: in no layer (layers, bottom first: ${layers.join(", ")})`);
    const edges = [];
    for (const { how, spec, target } of importsOf(file)) {
      if (!fs.existsSync(path.join(root, target))) {
        out.push(`${file}: ${how} '${spec}' names no file (${target})`);
        continue;
      }
      edges.push(target);
      const theirs = layers.indexOf(layerOf(target));
      if (own >= 0 && theirs > own)
        out.push(`${file}: ${how} '${spec}' reaches up from layer ${layerOf(file)} to layer ${layerOf(target)}`);
    }
    graph.set(file, edges);
  }
  // Cycles: a depth-first walk; an edge back to a file on the current path closes one.
  const state = new Map(); // 1: on the path, 2: done
  const stack = [];
  const seen = new Set();
  const visit = (file) => {
    state.set(file, 1);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 1) {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        const key = [...cycle.slice(0, -1)].sort().join(" ");
        if (!seen.has(key)) {
          seen.add(key);
          out.push(`import cycle: ${cycle.join(" -> ")}`);
        }
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 2);
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return out;
}

test("js/src: every import points to its own layer or one below, and no imports form a cycle", () => {
  const files = filesUnder("js/src", [".ts"]);
  expect(files.length).toBeGreaterThan(30);
  expect(problems(files, tsImports, jsLayer, JS_LAYERS)).toEqual([]);
});

test("engine: every #include points to its own layer or one below, and no includes form a cycle", () => {
  const files = [...filesUnder("engine", [".h", ".cpp"]), ...filesUnder("wasm", [".cpp"])];
  expect(files.length).toBeGreaterThan(60);
  expect(problems(files, cppIncludes, engineLayer, ENGINE_LAYERS)).toEqual([]);
});

test("the check finds an upward import and a cycle", () => {
  const graph = {
    "js/src/types/a.ts": [{ how: "import", spec: "../run/b.js", target: "js/src/run/b.ts" }],
    "js/src/run/b.ts": [{ how: "import", spec: "../types/a.js", target: "js/src/types/a.ts" }],
  };
  const exists = fs.existsSync;
  fs.existsSync = () => true;
  try {
    expect(problems(Object.keys(graph), (f) => graph[f], jsLayer, JS_LAYERS)).toEqual([
      "js/src/types/a.ts: import '../run/b.js' reaches up from layer types to layer run",
      "import cycle: js/src/types/a.ts -> js/src/run/b.ts -> js/src/types/a.ts",
    ]);
  } finally {
    fs.existsSync = exists;
  }
});
