// Child process for the cold-start measurement (W5): a fresh Node that has
// never loaded the engine imports it, gets it ready and runs one small
// question (W1 on 10 rows). It prints its own timings as one JSON line; the
// parent adds the wall time of the whole process (Node's own startup and exit
// included).
//
//   node bench/coldstart-child.mjs [ptc-wasm|JMESPath|JSONata|json-logic|quickjs|monty]
//
// The data and programs are built before the clock starts: they are the
// caller's, not the engine's, cost. "create" is what an engine needs once
// before its first run (ptc-wasm: createRuntime(); JSONata: compiling the
// expression; quickjs: loading its wasm module; Monty: parsing the program).
import { generateRows, PTC_PROGRAM as program } from "./data.mjs";

const peer = process.argv[2] ?? "ptc-wasm";
const rows = generateRows(10);
const expected = rows.filter((r) => r.category === "travel").reduce((s, r) => s + r.amount, 0);

// Per peer: import() → module, create(module) → runner, runner() → number.
const PEERS = {
  "ptc-wasm": {
    load: () => import(new URL("../dist/node.mjs", import.meta.url).href),
    create: (m) => m.createRuntime(),
    run: async (ptc) => {
      const r = await ptc.run(program, { context: { rows } });
      return r.ok ? r.result : r.error;
    },
  },
  JMESPath: {
    load: () => import("jmespath"),
    create: (m) => m.default, // nothing to prepare: search() parses the expression each call
    run: (jmespath) => jmespath.search({ rows }, "sum(rows[?category=='travel'].amount)"),
  },
  JSONata: {
    load: () => import("jsonata"),
    create: (m) => m.default('$sum(rows[category="travel"].amount)'),
    run: (expr) => expr.evaluate({ rows }),
  },
  "json-logic": {
    load: () => import("json-logic-js"),
    create: (m) => m.default,
    run: (logic) =>
      logic.apply(
        {
          reduce: [
            { filter: [{ var: "rows" }, { "===": [{ var: "category" }, "travel"] }] },
            { "+": [{ var: "accumulator" }, { var: "current.amount" }] },
            0,
          ],
        },
        { rows },
      ),
  },
  quickjs: {
    load: () => import("quickjs-emscripten"),
    create: (m) => m.getQuickJS(),
    run: (QuickJS) =>
      QuickJS.evalCode(
        `${JSON.stringify(rows)}.filter((r) => r.category === 'travel').reduce((s, r) => s + r.amount, 0)`,
      ),
  },
  monty: {
    load: async () => (await import("./monty.mjs")).requireMonty(),
    create: async (m) => {
      const { MONTY_W1 } = await import("./monty.mjs");
      return new m.Monty(MONTY_W1, { inputs: ["rows"] });
    },
    run: (m) => m.run({ inputs: { rows } }),
  },
};

const chosen = PEERS[peer];
if (!chosen) throw new Error(`unknown peer '${peer}'; known: ${Object.keys(PEERS).join(", ")}`);

const t0 = performance.now(); // ms since this process started: Node's own boot
const module = await chosen.load();
const t1 = performance.now();
const engine = await chosen.create(module);
const t2 = performance.now();
const got = await chosen.run(engine);
const t3 = performance.now();

const ok = typeof got === "number" && Math.abs(got - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
process.stdout.write(
  JSON.stringify({
    ok,
    got,
    expected,
    nodeBootMs: t0,
    importMs: t1 - t0,
    createMs: t2 - t1,
    firstRunMs: t3 - t2,
    totalMs: t3 - t0,
  }) + "\n",
);
