// The TypeScript declaration of the Embind module (`interface EmbindModule` in
// js/src) against what the wasm module really exposes, both ways: every function
// the bindings register is declared, every declared function is registered with
// as many parameters, and the parameter and result types agree with the C++
// signatures in wasm/bindings.cpp. A binding added, removed or changed on one
// side only fails here instead of at run time.
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const root = path.join(__dirname, "../..");

/** The EmbindModule interface: its methods with parameter types, and its properties. */
function declaredModule() {
  const files = fs
    .readdirSync(path.join(root, "js/src"), { recursive: true })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(root, "js/src", f));
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes("interface EmbindModule")) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const decl = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === "EmbindModule");
    if (!decl) continue;
    const methods = new Map();
    const properties = new Map();
    for (const member of decl.members) {
      const name = member.name.getText(source);
      if (ts.isMethodSignature(member))
        methods.set(name, {
          params: member.parameters.map((p) => p.type.getText(source)),
          names: member.parameters.map((p) => p.name.getText(source)),
          result: member.type.getText(source),
        });
      else properties.set(name, member.type.getText(source));
    }
    return { file: path.relative(root, file), methods, properties };
  }
  throw new Error("no `interface EmbindModule` in js/src");
}

/** The Embind module as the package instantiates it (js/src/engine/engine.ts), from the build. */
function instantiatedModule() {
  const glue = path.join(root, "build/wasm/ptc.cjs");
  if (!fs.existsSync(glue)) throw new Error("build/wasm/ptc.cjs is missing: run `npm run build`");
  const wasm = new WebAssembly.Module(fs.readFileSync(path.join(root, "dist/ptc.wasm")));
  const m = {
    instantiateWasm(imports, done) {
      done(new WebAssembly.Instance(wasm, imports));
      return {};
    },
    print: () => {},
    printErr: () => {},
  };
  require(glue)(m);
  return m;
}

/** Embind's functions carry their C++ parameter count as `argCount`; the runtime's own functions do not. */
function registeredFunctions(m) {
  return new Map(
    Object.keys(m)
      .filter((k) => typeof m[k] === "function" && typeof m[k].argCount === "number")
      .map((k) => [k, m[k].argCount]),
  );
}

/** The signatures of the functions wasm/bindings.cpp binds, as TypeScript types. */
function cppSignatures() {
  const text = fs.readFileSync(path.join(root, "wasm/bindings.cpp"), "utf8");
  const tsType = {
    "std::string": "string",
    void: "void",
    int: "number",
    double: "number",
    size_t: "number",
    uintptr_t: "number",
    // A JS function (emscripten::val) that writes a text's next piece into wasm memory (loadResident).
    TextReader: "(buffer: number, capacity: number, restart: boolean) => number",
  };
  const bound = [...text.matchAll(/emscripten::function\("(\w+)", &(\w+)\)/g)];
  const signatures = new Map();
  for (const [, name, fn] of bound) {
    const sig = text.match(new RegExp(`^([\\w:]+) ${fn}\\(([^)]*)\\)`, "m"));
    if (!sig) throw new Error(`wasm/bindings.cpp: no signature found for ${fn}`);
    const params = sig[2].trim() ? sig[2].split(",").map((p) => p.trim()) : [];
    const types = [sig[1], ...params.map((p) => p.replace(/\s+\w+$/, ""))].map((t) => tsType[t] ?? `<C++ ${t}>`);
    const names = params.map((p) => p.match(/(\w+)$/)[1]);
    signatures.set(name, { result: types[0], params: types.slice(1), names });
  }
  return signatures;
}

const declared = declaredModule();
const embind = instantiatedModule();
const registered = registeredFunctions(embind);

test("the bindings register functions, and the declaration declares them", () => {
  expect(registered.size).toBeGreaterThan(10);
  expect(declared.methods.size).toBeGreaterThan(10);
});

test("every function the wasm module registers is declared in EmbindModule", () => {
  const undeclared = [...registered.keys()].filter((name) => !declared.methods.has(name));
  expect({ file: declared.file, undeclared }).toEqual({ file: declared.file, undeclared: [] });
});

test("every declared function is registered, with as many parameters", () => {
  const wrong = [];
  for (const [name, { params }] of declared.methods) {
    if (typeof embind[name] !== "function") wrong.push(`${name}: not in the wasm module`);
    else if (registered.has(name) && registered.get(name) !== params.length)
      wrong.push(`${name}: declared with ${params.length} parameters, registered with ${registered.get(name)}`);
  }
  expect(wrong).toEqual([]);
});

test("declared parameter and result types match the C++ signatures in wasm/bindings.cpp", () => {
  const signatures = cppSignatures();
  expect([...signatures.keys()].sort()).toEqual([...registered.keys()].sort());
  const wrong = [];
  for (const [name, cpp] of signatures) {
    const decl = declared.methods.get(name);
    if (!decl) continue; // reported above
    if (JSON.stringify(decl.params) !== JSON.stringify(cpp.params) || decl.result !== cpp.result)
      wrong.push(
        `${name}: declared (${decl.params.join(", ")}) => ${decl.result}, C++ (${cpp.params.join(", ")}) => ${cpp.result}`,
      );
  }
  expect(wrong).toEqual([]);
});

// One argument order from the C++ Engine through the bindings to EngineInstance
// (issue 27): a declaration whose names follow the bindings' cannot swap two
// arguments of the same type unnoticed.
test("declared parameter names are the bindings' own, in their order", () => {
  const wrong = [];
  for (const [name, cpp] of cppSignatures()) {
    const decl = declared.methods.get(name);
    if (decl && JSON.stringify(decl.names) !== JSON.stringify(cpp.names))
      wrong.push(`${name}: declared (${decl.names.join(", ")}), bound (${cpp.names.join(", ")})`);
  }
  expect(wrong).toEqual([]);
});

test("the Emscripten runtime members EmbindModule declares are exported (the wasm link flags)", () => {
  const runtimeMembers = [...declared.methods.keys()].filter((name) => !registered.has(name));
  expect(runtimeMembers.filter((name) => typeof embind[name] !== "function")).toEqual([]);
  for (const [name, type] of declared.properties) {
    expect([name, type, embind[name]?.constructor?.name]).toEqual([name, type, type]);
  }
});

// The declaration is generated from the bindings (scripts/gen-embind-types.mjs),
// not written by hand: a binding changed without regenerating fails here (and
// the wasm build).
test("EmbindModule is the one generated from wasm/bindings.cpp, and it is current", () => {
  expect(declared.file).toBe(path.join("js", "src", "engine", "embind.generated.ts"));
  const check = require("node:child_process").spawnSync(
    process.execPath,
    [path.join(root, "scripts/gen-embind-types.mjs"), "--check"],
    { encoding: "utf8" },
  );
  expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: "" });
});
