// What a page downloads before its first PTC-JSON run (issue 38 item 3): what
// the wasm and its glue carry. Sizes are deterministic for one build, so they
// are asserted.
const fs = require("node:fs");
const path = require("node:path");

const dist = path.join(__dirname, "../../dist");
const read = (file) => fs.readFileSync(path.join(dist, file));

// The engine's libraries compile with -fno-rtti (CMakeLists.txt): nothing asks a
// callback its type, and each std::function otherwise kept its lambda's mangled
// name and type_info in the data section (1.2 KB gzip of ptc-json.wasm).
test.each(["ptc-json.wasm", "ptc.wasm"])("%s carries no type names of std::function callbacks", (file) => {
  expect(read(file).includes("NSt3__210__function6__func")).toBe(false);
});
