// Peer adapters: every engine answers the same question, "sum of amount over
// the rows whose category is travel", through the same interface:
//
//   peer.run(rows, limits) -> Promise<number>
//
// The timed region is the whole call: a JS array of objects goes in, a JS
// number comes out. Anything an engine needs to do to get the data across its
// boundary (JSON.stringify, copying into wasm memory, parsing inside) is inside
// the call, because a caller pays for it. What is done once per process
// (loading and compiling a wasm module, compiling an expression) is done in
// setup(), outside the timed region: the runs measured are warm.
import { createRuntime } from "../dist/node.mjs";
import jmespath from "jmespath";
import jsonata from "jsonata";
import jsonLogic from "json-logic-js";
import { getQuickJS, shouldInterruptAfterDeadline } from "quickjs-emscripten";

import { PTC_PROGRAM, PTC_PROGRAM_TEXT, PTC_PROGRAM_WHOLE_ROWS } from "./data.mjs";
import { LimitError } from "./limit-error.mjs";
import { loadMonty, MONTY_W1 } from "./monty.mjs";

export { PTC_PROGRAM };

// The unsandboxed lower bound: what the same work costs with no isolation and
// no data crossing at all.
function plainJs(rows) {
  return rows.filter((r) => r.category === "travel").reduce((s, r) => s + r.amount, 0);
}

export { LimitError };

// Runs a ptc program and unwraps the result: a limit is a LimitError, any other
// failure (a wrong or rejected program, an engine fault) a plain Error.
async function ptcRun(ptc, program, rows, limits) {
  const r = await ptc.run(program, {
    context: { rows },
    timeoutMs: limits.timeoutMs,
    maxHeapBytes: limits.maxHeapBytes,
  });
  if (!r.ok) {
    const message = `${r.error.type}: ${r.error.message}`;
    if (r.error.type === "timeout" || r.error.type === "memory_exceeded") throw new LimitError(message);
    throw new Error(`ptc-wasm failed: ${message}`);
  }
  return r.result;
}

// ptc-wasm on rows loaded into the engine once (runtime.load), outside the
// clock: each call runs the program on them, nothing crosses. Not a peer: it
// shows what a session that keeps its data in the engine pays per program.
function residentPeer(ptc) {
  let resident;
  return {
    name: "ptc resident",
    async prepare(rows, limits) {
      const loaded = await ptc.load({ rows }, { maxResidentBytes: limits.maxHeapBytes * 4 });
      if (!loaded.ok) throw new LimitError(`${loaded.error.type}: ${loaded.error.message}`);
      resident = loaded.resident;
    },
    release() {
      resident?.close();
      resident = undefined;
    },
    async run(rows, limits) {
      const r = await ptc.run(PTC_PROGRAM_TEXT, {
        resident,
        timeoutMs: limits.timeoutMs,
        maxHeapBytes: limits.maxHeapBytes,
      });
      if (!r.ok) throw new Error(`ptc-wasm (resident) failed: ${r.error.type}: ${r.error.message}`);
      return r.result;
    },
  };
}

export async function createPeers() {
  const ptc = await createRuntime();
  // Monty is a native addon: where its binary does not install or load, the
  // peer is left out and the report says why.
  const monty = await loadMonty();

  // JSONata compiles an expression into an AST once; evaluate() is what runs per
  // call (ptc-wasm likewise caches compiled programs by their text).
  const jsonataExpr = jsonata('$sum(rows[category="travel"].amount)');

  // JMESPath's one public way to evaluate is search(data, expression), which
  // parses the expression on every call (compile() returns an AST that no
  // public function runs): what its users pay per call.
  const jmespathExpr = "sum(rows[?category=='travel'].amount)";

  // json-logic has no sum: reduce over a filter. Rules are interpreted on every
  // apply(), there is nothing to precompile.
  const logicRule = {
    reduce: [
      { filter: [{ var: "rows" }, { "===": [{ var: "category" }, "travel"] }] },
      { "+": [{ var: "accumulator" }, { var: "current.amount" }] },
      0,
    ],
  };

  // One QuickJS wasm module per process (like ptc-wasm's compiled module), but a
  // fresh runtime + context for every run: that is what isolating untrusted
  // code per request costs. The data crosses as JSON text and is parsed inside
  // the sandbox; the answer comes back as JSON text.
  const QuickJS = await getQuickJS();
  const quickjsSource =
    "JSON.stringify(JSON.parse(input).filter((r) => r.category === 'travel').reduce((s, r) => s + r.amount, 0))";
  function quickjsRun(rows, limits) {
    const runtime = QuickJS.newRuntime();
    try {
      runtime.setMemoryLimit(limits.maxHeapBytes);
      runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
      const vm = runtime.newContext();
      try {
        const text = vm.newString(JSON.stringify(rows));
        vm.setProp(vm.global, "input", text);
        text.dispose();
        const result = vm.evalCode(quickjsSource);
        if (result.error) {
          const err = vm.dump(result.error);
          result.error.dispose();
          const message = typeof err === "object" && err ? `${err.name}: ${err.message}` : String(err);
          // QuickJS reports its memory limit as "out of memory" and the
          // interrupt handler's deadline as "interrupted".
          if (/out of memory|interrupted/i.test(message)) throw new LimitError(`quickjs: ${message}`);
          throw new Error(`quickjs failed: ${message}`);
        }
        const json = vm.getString(result.value);
        result.value.dispose();
        return JSON.parse(json);
      } finally {
        vm.dispose();
      }
    } finally {
      runtime.dispose();
    }
  }

  return {
    ptc, // exposed for the breakdown, which runs other programs on the same runtime
    peers: [
      { name: "ptc-wasm", run: (rows, limits) => ptcRun(ptc, PTC_PROGRAM_TEXT, rows, limits) },
      // Not a peer: ptc-wasm given the program as an object, which the package
      // turns into text on every call. Only in W4, where that cost shows.
      { name: "ptc (object)", tinyOnly: true, run: (rows, limits) => ptcRun(ptc, PTC_PROGRAM, rows, limits) },
      // Not a peer: ptc-wasm itself with the rows crossing whole (no projection).
      { name: "ptc (whole)", run: (rows, limits) => ptcRun(ptc, PTC_PROGRAM_WHOLE_ROWS, rows, limits) },
      residentPeer(ptc),
      { name: "plain JS", run: (rows) => plainJs(rows) },
      { name: "JMESPath", run: (rows) => jmespath.search({ rows }, jmespathExpr) },
      { name: "JSONata", run: (rows) => jsonataExpr.evaluate({ rows }) },
      { name: "json-logic", run: (rows) => jsonLogic.apply(logicRule, { rows }) },
      { name: "quickjs", run: (rows, limits) => quickjsRun(rows, limits) },
      ...(monty.ok ? [{ name: "monty", run: monty.runner(MONTY_W1, "rows"), maxRows: 100_000 }] : []),
    ],
    // Peers that could not be loaded here, with the reason: [{ name, reason }].
    skippedPeers: monty.ok ? [] : [{ name: "monty", reason: monty.reason }],
  };
}

export { plainJs, ptcRun };
