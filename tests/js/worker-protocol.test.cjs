// The engine worker's side of worker mode, spoken to directly in its own
// protocol (js/src/runtimes/worker-protocol.ts): both dialects start the same
// way (one "run" message, one payload), and a tool call's args reach the
// caller's thread as the engine wrote them, in the call status text, parsed
// once there (issue 27).
const fs = require("node:fs");
const path = require("node:path");
const { Worker } = require("node:worker_threads");

const root = path.join(__dirname, "../..");
const wasm = new WebAssembly.Module(fs.readFileSync(path.join(root, "dist/ptc.wasm")));

/** A worker and the messages it posts, taken one at a time. */
function engineWorker() {
  const worker = new Worker(path.join(root, "dist/worker.node.mjs"));
  const inbox = [];
  const waiting = [];
  worker.on("message", (message) => (waiting.length ? waiting.shift()(message) : inbox.push(message)));
  worker.postMessage({ type: "init", module: wasm });
  return {
    post: (message) => worker.postMessage(message),
    next: () => (inbox.length ? Promise.resolve(inbox.shift()) : new Promise((resolve) => waiting.push(resolve))),
    end: () => worker.terminate(),
  };
}

const submittedAt = () => performance.timeOrigin + performance.now();

test("a PTC-JSON call's args cross as the engine wrote them, and its answer ends the run", async () => {
  const w = engineWorker();
  try {
    const program = JSON.stringify({
      program: { op: "call", tool: "lookup", args: { q: "café", n: 1.5, deep: [[{ a: null }]] } },
    });
    const engineOptions = JSON.stringify({ tools: ["lookup"] });
    w.post({ type: "run", id: 1, program, engineOptions, kind: "program", submittedAt: submittedAt() });
    expect(await w.next()).toEqual({ type: "payload?", id: 1, loads: [] });
    w.post({ type: "payload", id: 1, payload: { context: "{}", memory: "{}" } });
    const calls = await w.next();
    expect(calls.type).toBe("calls");
    expect(calls.statuses).toHaveLength(1);
    const [status] = calls.statuses;
    expect(typeof status).toBe("string");
    expect(status).toContain('"args":{"q":"café","n":1.5,"deep":[[{"a":null}]]}');
    const [call] = JSON.parse(status).calls;
    expect(call).toMatchObject({ tool: "lookup", path: "/program" });
    w.post({ type: "outcome", id: 1, call: call.id, outcome: { kind: "value", text: '{"found":true}' } });
    const done = await w.next();
    expect(done.type).toBe("done");
    expect(JSON.parse(done.status)).toMatchObject({ state: "done", ok: true, result: { found: true } });
  } finally {
    await w.end();
  }
});

test("a step-function run starts as a program does: prepared, then its input is the one payload", async () => {
  const w = engineWorker();
  try {
    const program = JSON.stringify({
      function: "greet",
      input: { name: "text" },
      output: "any",
      steps: [{ let: "r", call: "hello", args: { to: "$input.name" } }, { return: "$r" }],
    });
    const engineOptions = JSON.stringify({ tools: ["hello"] });
    w.post({ type: "run", id: 7, program, engineOptions, kind: "workflow", submittedAt: submittedAt() });
    expect(await w.next()).toEqual({ type: "payload?", id: 7, loads: [] });
    w.post({ type: "payload", id: 7, payload: { context: '{"name":"Ada"}', memory: "" } });
    const calls = await w.next();
    expect(calls.statuses.map((s) => JSON.parse(s).calls.map((c) => [c.tool, c.args]))).toEqual([
      [["hello", { to: "Ada" }]],
    ]);
    const [call] = JSON.parse(calls.statuses[0]).calls;
    w.post({ type: "outcome", id: 7, call: call.id, outcome: { kind: "value", text: '"hi Ada"' } });
    const done = await w.next();
    expect(JSON.parse(done.status)).toMatchObject({ ok: true, result: "hi Ada" });
  } finally {
    await w.end();
  }
});
