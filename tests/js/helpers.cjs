// Shared test helpers: the package under test and structural JSON equality.
const path = require("node:path");

const ptcWasm = require(path.join(__dirname, "../../dist/node.cjs"));

/** Structural equality with numbers by value and object key order ignored. */
function sameJson(a, b) {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { ptcWasm, sameJson, sleep };
