// What each part of the engine's wasm costs: reads build/wasm/ptc_names.wasm
// (the same module as dist/ptc.wasm with a names section, CMakeLists.txt's
// ptc_names) and sorts every function body into a part by its (demangled) name.
// Each part is compressed on its own, so the parts' gzip sizes add up to a
// little more than the whole file's.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

// A function belongs to the namespace of its own name (a sort of ptc::Values is
// libc++'s std::sort); the first part whose prefix it has.
const PARTS = [
  ["step-function dialect", /^ptc::step_functions::/],
  ["PTC-JSON and the host API", /^ptc::|^ptc[A-Z]/],
  ["nlohmann/json", /^nlohmann::/],
  ["fast_float (number parsing)", /^fast_float::/],
  ["Embind", /^emscripten::|embind/],
  ["libc++", /^std::/],
  ["libc, malloc, unwinding, bindings", /^/],
];

/** "void std::__2::__sort<ptc::X>(int*, int*)" → "std::__2::__sort". */
function qualifiedName(name) {
  let text = name.replaceAll("(anonymous namespace)", "anonymous").replace(/ \(\.resume\)$| \(\.destroy\)$/, "");
  // Strip template arguments and parameter lists, innermost first.
  for (let before = ""; before !== text;) {
    before = text;
    text = text.replace(/<[^<>]*>/g, "").replace(/\([^()]*\)/g, "");
  }
  return text
    .replace(/(\s+(const|volatile|noexcept|&&|&))+$/, "")
    .trim()
    .split(" ")
    .at(-1);
}

function leb128(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return [value, at];
  }
}

/** The sections of a wasm module: id → [start, end) (custom sections by name). */
function sections(bytes) {
  const found = new Map();
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at++];
    let size;
    [size, at] = leb128(bytes, at);
    if (id === 0) {
      const [nameLength, nameAt] = leb128(bytes, at);
      const name = new TextDecoder().decode(bytes.subarray(nameAt, nameAt + nameLength));
      found.set(name, [nameAt + nameLength, at + size]);
    } else found.set(id, [at, at + size]);
    at += size;
  }
  return found;
}

/** How many functions the module imports: their indices come before the bodies'. */
function importedFunctions(bytes, [start]) {
  let [count, at] = leb128(bytes, start);
  let functions = 0;
  while (count--) {
    for (let k = 0; k < 2; k++) {
      const [length, next] = leb128(bytes, at);
      at = next + length; // module, then field name
    }
    const kind = bytes[at++];
    if (kind === 0) {
      functions++;
      [, at] = leb128(bytes, at); // type index
    } else if (kind === 1) {
      at++; // element type
      const [flags, next] = leb128(bytes, at);
      [, at] = leb128(bytes, next);
      if (flags & 1) [, at] = leb128(bytes, at);
    } else if (kind === 2) {
      const [flags, next] = leb128(bytes, at);
      [, at] = leb128(bytes, next);
      if (flags & 1) [, at] = leb128(bytes, at);
    } else if (kind === 3)
      at += 2; // global: type, mutability
    else if (kind === 4) [, at] = leb128(bytes, at + 1); // tag: attribute, type
  }
  return functions;
}

/** Function index → name, from the "name" section's function names. */
function functionNames(bytes, [start, end]) {
  const names = new Map();
  let at = start;
  while (at < end) {
    const kind = bytes[at++];
    const [size, body] = leb128(bytes, at);
    if (kind === 1) {
      let [count, p] = leb128(bytes, body);
      while (count--) {
        let index, length;
        [index, p] = leb128(bytes, p);
        [length, p] = leb128(bytes, p);
        names.set(index, new TextDecoder().decode(bytes.subarray(p, p + length)));
        p += length;
      }
    }
    at = body + size;
  }
  return names;
}

/** Every function body of a module with a names section: { name (as demangled), code }. */
function* functionBodies(bytes, found) {
  if (!found.has("name")) throw new Error("no names section (link it with --profiling-funcs)");
  const names = functionNames(bytes, found.get("name"));
  const first = importedFunctions(bytes, found.get(2));
  let [count, at] = leb128(bytes, found.get(10)[0]);
  for (let index = first; count--; index++) {
    const [size, body] = leb128(bytes, at);
    yield { name: names.get(index) ?? "", code: bytes.subarray(at, body + size) };
    at = body + size;
  }
}

/**
 * The module's code by function, largest first: { name (demangled, whole),
 * group (without template arguments and parameters), raw } in bytes; what the
 * parts are made of (`node bench/size-parts.mjs <file.wasm> [count]` prints them).
 */
export function functionSizes(path) {
  const bytes = readFileSync(path);
  return [...functionBodies(bytes, sections(bytes))]
    .map(({ name, code }) => ({ name, group: qualifiedName(name), raw: code.length }))
    .sort((a, b) => b.raw - a.raw);
}

/** Bytes of a module's code section: the same for dist/ptc.wasm and ptc_names.wasm of one build. */
export function codeBytes(path) {
  const [start, end] = sections(readFileSync(path)).get(10);
  return end - start;
}

/**
 * The parts of the module at `path`, largest first: { name, raw, gz } (bytes),
 * with the data section (the messages, the op table's texts) as a part of its own.
 */
export function sizeParts(path) {
  const bytes = readFileSync(path);
  const found = sections(bytes);
  if (!found.has("name")) throw new Error(`${path} has no names section (link it with --profiling-funcs)`);
  const bodies = new Map(PARTS.map(([name]) => [name, []]));
  for (const { name, code } of functionBodies(bytes, found))
    bodies.get(PARTS.find(([, pattern]) => pattern.test(qualifiedName(name)))[0]).push(code);
  const parts = [...bodies].map(([name, list]) => {
    const code = Buffer.concat(list);
    return { name: `code: ${name}`, raw: code.length, gz: gzipSync(code, { level: 9 }).length };
  });
  const [dataStart, dataEnd] = found.get(11);
  const data = bytes.subarray(dataStart, dataEnd);
  parts.push({
    name: "data: messages, op and step tables' texts",
    raw: data.length,
    gz: gzipSync(data, { level: 9 }).length,
  });
  return parts.sort((a, b) => b.raw - a.raw);
}

// `node bench/size-parts.mjs [file.wasm] [count]`: the parts, then the biggest
// functions and the biggest groups of functions (a template's instantiations,
// a coroutine's pieces are one group) of a names build (default:
// build/wasm/ptc_json_names.wasm, the module a page fetches before its first run).
if (import.meta.url === `file://${process.argv[1]}`) {
  const path = process.argv[2] ?? "build/wasm/ptc_json_names.wasm";
  const count = Number(process.argv[3] ?? 40);
  const kb = (b) => `${(b / 1000).toFixed(1)} KB`.padStart(10);
  for (const part of sizeParts(path)) console.log(`${kb(part.raw)}${kb(part.gz)} gz  ${part.name}`);
  const functions = functionSizes(path);
  console.log(`\n${functions.length} functions; the ${count} biggest (raw bytes):`);
  for (const f of functions.slice(0, count)) console.log(`${String(f.raw).padStart(8)}  ${f.name.slice(0, 150)}`);
  const groups = new Map();
  for (const f of functions) {
    const g = groups.get(f.group) ?? { raw: 0, n: 0 };
    g.raw += f.raw;
    g.n++;
    groups.set(f.group, g);
  }
  console.log(`\nthe ${count} biggest groups (name without template arguments: raw bytes, functions):`);
  for (const [group, g] of [...groups].sort((a, b) => b[1].raw - a[1].raw).slice(0, count))
    console.log(`${String(g.raw).padStart(8)} ${String(g.n).padStart(5)}  ${group}`);
}
