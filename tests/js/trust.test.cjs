// Approvals, resumes and replays a host can trust (issue 24), in both modes:
// approval checks fail closed, decisions land on the call they name, a state
// signed with the host's key refuses any change, write tools get a call
// identity that is the same on every resume, the journal keeps what the program
// sent, and odd or huge input is a typed error that touches nothing else.
const path = require("node:path");
const fs = require("node:fs");
const os = require("node:os");
const { spawnSync } = require("node:child_process");
const { ptcWasm, sleep } = require("./helpers.cjs");

const chain = (...steps) => ({ op: "pipe", steps });
const pipe = (...steps) => ({ program: chain(...steps) });
const call = (tool, args) => ({ op: "call", tool, ...(args ? { args } : {}) });
const literal = (value) => ({ op: "literal", value });
const v = (name) => ({ op: "var", name });
const tryCall = (tool, args) => ({
  op: "try",
  expr: call(tool, args),
  catch: { op: "var", name: "error", field: "message" },
});
// Bindings one after the other: let a = ... in let b = ... in body.
const lets = (pairs, body) =>
  pairs.reduceRight((inner, [name, value]) => ({ op: "let", bindings: { [name]: value }, in: inner }), body);
const viaJson = (value) => JSON.parse(JSON.stringify(value));

// One refund (an approval check decides), then a write that never asks.
const refundThenLog = {
  program: lets(
    [
      ["r", call("refund", { id: "b", amount: 500 })],
      ["l", call("log", { what: "refunded" })],
    ],
    v("r"),
  ),
};

function recorder(extra = {}) {
  const tool = {
    effect: "write",
    calls: [],
    execute: (args, identity) => {
      // The call's ids (its signal, which every call gets, is tests/js/cancellation.test.cjs's subject).
      tool.calls.push({ args: viaJson(args), identity: { runId: identity.runId, callId: identity.callId } });
      return { done: args };
    },
    ...extra,
  };
  return tool;
}

describe.each([
  ["in-process", {}],
  ["worker", { worker: true }],
])("%s", (_mode, createOptions) => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime(createOptions);
  });
  afterAll(() => rt.close());

  test("an approval check answering anything but false asks (fails closed); only false runs the call", async () => {
    const answers = [true, 1, "yes", "over the limit", {}, [], undefined, null, Promise.resolve("later"), 0, ""];
    for (const answer of answers) {
      const refund = recorder({ approval: () => answer });
      const r = await rt.run(refundThenLog, { tools: { refund, log: recorder() } });
      expect({ answer, status: r.status, ran: refund.calls.length }).toEqual({ answer, status: "suspended", ran: 0 });
      expect(r.pending[0]).toMatchObject({ tool: "refund", reason: "approval" });
    }
    const refund = recorder({ approval: () => false });
    const r = await rt.run(refundThenLog, { tools: { refund, log: recorder() } });
    expect(r.ok).toBe(true);
    expect(refund.calls.length).toBe(1);
  });

  test("decisions land on the pending call they name, whatever the order of results and however alike the calls", async () => {
    // Two calls alike in tool and args, at two paths: deny the first, approve the second.
    const program = {
      program: {
        op: "list",
        items: [tryCall("refund", { id: "x" }), tryCall("refund", { id: "x" })],
      },
    };
    const r = await rt.run(program, { tools: { refund: recorder({ approval: true }) } });
    expect(r.status).toBe("suspended");
    const [first, second] = r.pending;
    expect(first.path).not.toBe(second.path);
    expect(first.id).not.toBe(second.id);
    const refund = recorder();
    const results = { [second.id]: { approved: true }, [first.id]: { approved: false, reason: "no" } };
    const resumed = await rt.resume(viaJson(r.state), { results, tools: { refund } });
    expect(resumed.result).toEqual(["Tool 'refund' failed: the call was denied: no", { done: { id: "x" } }]);
    expect(refund.calls.length).toBe(1);
  });

  test("pending ids are the same on every run of the same program with the same answers", async () => {
    const tools = { refund: recorder({ approval: true }), log: recorder() };
    const a = await rt.run(refundThenLog, { tools });
    const b = await rt.run(refundThenLog, { tools });
    expect(a.pending.map((p) => p.id)).toEqual(b.pending.map((p) => p.id));
    expect(a.state.runId).not.toBe(b.state.runId);
  });

  test("resuming one state twice gives each write the same call identity both times", async () => {
    const r = await rt.run(refundThenLog, { tools: { refund: recorder({ approval: true }), log: recorder() } });
    const state = viaJson(r.state);
    const [held] = r.pending;
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const refund = recorder();
      const log = recorder();
      const resumed = await rt.resume(viaJson(state), {
        results: { [held.id]: { approved: true } },
        tools: { refund, log },
      });
      expect(resumed.ok).toBe(true);
      runs.push({ refund: refund.calls, log: log.calls });
    }
    const [one, two] = runs;
    expect(one.refund).toEqual([{ args: { id: "b", amount: 500 }, identity: { runId: state.runId, callId: held.id } }]);
    expect(two).toEqual(one); // the same calls, with the same identities: a tool can tell the second time
    expect(one.log[0].identity).toEqual({ runId: state.runId, callId: expect.stringMatching(/^call-/) });
  });

  test("the journal keeps the args the program sent, not what the tool made of them", async () => {
    const charge = {
      effect: "write",
      count: 0,
      execute: (args) => {
        charge.count++;
        args.currency ??= "EUR"; // fills a default in place
        return { charged: args.amount };
      },
    };
    const program = {
      program: lets(
        [
          ["c", call("charge", { amount: 10 })],
          ["k", call("confirm", { ok: true })],
        ],
        v("c"),
      ),
    };
    const tools = { charge, confirm: recorder({ approval: true }) };
    const r = await rt.run(program, { tools, journal: true });
    expect(r.state.journal[0].args).toEqual({ amount: 10 });
    const resumed = await rt.resume(viaJson(r.state), { results: { [r.pending[0].id]: { approved: true } }, tools });
    expect(resumed).toMatchObject({ ok: true, result: { charged: 10 } });
    expect(charge.count).toBe(1); // not charged again on resume
  });

  test("a value left undefined in resume results or in a replay entry is null (no crash)", async () => {
    const program = { program: lets([["x", call("refund", { id: "b" })]], v("x")) };
    const r = await rt.run(program, { tools: { refund: recorder({ approval: true }) } });
    const tools = { refund: recorder() }; // named, never called
    const resumed = await rt.resume(viaJson(r.state), { results: { [r.pending[0].id]: { value: undefined } }, tools });
    expect(resumed).toMatchObject({ ok: true, result: null });
    const replayed = await rt.run(program, {
      tools,
      replay: [{ tool: "refund", path: r.pending[0].path, args: { id: "b" }, value: undefined }],
    });
    expect(replayed).toMatchObject({ ok: true, result: null });
  });

  describe("a state signed with the host's key (stateKey)", () => {
    const key = "host secret";
    const tools = () => ({ refund: recorder({ approval: true }), log: recorder() });
    let r;
    beforeAll(async () => {
      r = await rt.run(refundThenLog, { tools: tools(), stateKey: key, maxToolCalls: 5, maxHeapBytes: 200_000 });
    });
    const resume = (state, options = {}) =>
      rt.resume(state, { results: { [r.pending[0].id]: { approved: true } }, tools: tools(), ...options });

    test("resumes with the same key, and the next state is signed too", async () => {
      expect(r.state.mac).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
      const again = await resume(viaJson(r.state), { stateKey: key });
      expect(again).toMatchObject({ ok: true, result: { done: { id: "b", amount: 500 } } });
      const resuspended = await rt.resume(viaJson(r.state), { tools: tools(), stateKey: key });
      expect(resuspended.state.mac).toBe(r.state.mac); // nothing decided: the same state
      const bytes = await rt.run(refundThenLog, { tools: tools(), stateKey: new TextEncoder().encode(key) });
      expect(await resume(viaJson(bytes.state), { stateKey: key })).toMatchObject({ ok: true }); // the same key as bytes
    });

    test("any change is refused: limits, journal, memory, pending, program with its hash recomputed", async () => {
      const changes = {
        limits: (s) => (s.limits = { maxToolCalls: 2 ** 30, maxHeapBytes: 9e15 }),
        memory: (s) => (s.memory = { admin: true }),
        runId: (s) => (s.runId = "run-other"),
        pending: (s) => (s.pending[0].args.amount = 1),
        program: (s) => (s.source = s.source.replace('"log"', '"refund"')), // its hash recomputed below
      };
      for (const [what, change] of Object.entries(changes)) {
        const s = viaJson(r.state);
        change(s);
        if (what === "program") {
          // Recompute the unkeyed hash as an attacker can: only the mac stops it.
          const unsigned = await rt.run(JSON.parse(s.source), { tools: tools() });
          s.hash = unsigned.state.hash;
        }
        const got = await resume(s, { stateKey: key });
        expect({ what, error: got.error }).toEqual({
          what,
          error: expect.objectContaining({ code: "bad_state", message: expect.stringContaining("mac does not match") }),
        });
      }
      const other = await resume(viaJson(r.state), { stateKey: "another key" });
      expect(other.error).toMatchObject({ code: "bad_state", message: expect.stringContaining("mac does not match") });
      const keyless = await resume(viaJson(r.state));
      expect(keyless.error).toMatchObject({ code: "bad_state", message: expect.stringContaining("pass the stateKey") });
      const { mac: _mac, ...stripped } = viaJson(r.state);
      const unsigned = await resume(stripped, { stateKey: key });
      expect(unsigned.error).toMatchObject({ code: "bad_state", message: expect.stringContaining("not signed") });
      await expect(rt.run(refundThenLog, { stateKey: "" })).rejects.toThrow("options.stateKey must be a non-empty");
    });
  });

  test("step functions: a signed state refuses a change; writes get the same identity on each resume", async () => {
    const source = JSON.stringify({
      function: "main",
      input: { n: "number" },
      output: "any",
      steps: [{ let: "paid", call: "charge", args: { n: "$input.n" } }, { return: "$paid" }],
    });
    const tools = () => ({ charge: recorder({ approval: true }) });
    const r = await rt.runWorkflow(source, { input: { n: 5 }, tools: tools(), stateKey: "k" });
    expect(r.state.mac).toMatch(/^hmac-sha256:/);
    const results = { [r.pending[0].id]: { approved: true } };
    const changed = { ...viaJson(r.state), input: { n: 5000 } };
    expect((await rt.resume(changed, { results, tools: tools(), stateKey: "k" })).error?.code).toBe("bad_state");
    const identities = [];
    for (let i = 0; i < 2; i++) {
      const t = tools();
      expect(await rt.resume(viaJson(r.state), { results, tools: t, stateKey: "k" })).toMatchObject({ ok: true });
      identities.push(t.charge.calls[0].identity);
    }
    expect(identities[0]).toEqual({ runId: r.state.runId, callId: r.pending[0].id });
    expect(identities[1]).toEqual(identities[0]);
  });

  test("resident data is part of the state's context fingerprint", async () => {
    const program = pipe(
      { op: "load", name: "orders" },
      lets(
        [
          ["n", { op: "count" }],
          ["r", call("refund", { n: v("n") })],
        ],
        v("n"),
      ),
    );
    const loaded = await rt.load({ orders: [1, 2, 3] });
    const other = await rt.load({ orders: [1, 2, 3, 4, 5, 6, 7, 8, 9] });
    const same = await rt.load({ orders: [1, 2, 3] });
    try {
      const tools = { refund: recorder({ approval: true }) };
      const r = await rt.run(program, { resident: loaded.resident, tools });
      const results = { [r.pending[0].id]: { approved: true } };
      const swapped = await rt.resume(viaJson(r.state), { results, tools, resident: other.resident });
      expect(swapped.error).toMatchObject({ code: "bad_resume", message: expect.stringContaining("context differs") });
      const ok = await rt.resume(viaJson(r.state), { results, tools, resident: same.resident });
      expect(ok).toMatchObject({ ok: true, result: 3 });
      const plain = await rt.resume(viaJson(r.state), { results, tools, context: { orders: [1, 2, 3] } });
      expect(plain).toMatchObject({ ok: true, result: 3 }); // the same data, given as plain context
    } finally {
      for (const l of [loaded, other, same]) l.resident.close();
    }
  });

  test("a malformed state is bad_state, and runs in flight are not touched", async () => {
    const r = await rt.run(refundThenLog, { tools: { refund: recorder({ approval: true }), log: recorder() } });
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    const slow = rt.run(
      { program: lets([["w", call("wait")]], "still fine") },
      {
        tools: { wait: () => gate },
        timeoutMs: 60_000,
      },
    );
    const throwing = viaJson(r.state);
    Object.defineProperty(throwing, "memory", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const cases = {
      "an entry with neither value nor error": (s) => s.journal.push({ tool: "refund", path: "/x", args: {} }),
      "limits of the wrong type": (s) => (s.limits = { maxToolCalls: "5" }),
      "an unknown limit": (s) => (s.limits = { timeoutMs: 5 }),
      "memory a list": (s) => (s.memory = []),
      "a pending call without a reason": (s) => delete s.pending[0].reason,
      "no runId": (s) => delete s.runId,
    };
    for (const [what, change] of Object.entries(cases)) {
      const s = viaJson(r.state);
      change(s);
      const got = await rt.resume(s, { tools: {} });
      expect({ what, code: got.error?.code }).toEqual({ what, code: "bad_state" });
    }
    expect((await rt.resume(throwing, {})).error).toMatchObject({
      code: "bad_state",
      message: expect.stringContaining("boom"),
    });
    const results = {};
    Object.defineProperty(results, r.pending[0].id, {
      enumerable: true,
      get() {
        throw new Error("bad getter");
      },
    });
    expect((await rt.resume(viaJson(r.state), { results })).error).toMatchObject({
      code: "bad_resume",
      message: expect.stringContaining("bad getter"),
    });
    release();
    expect(await slow).toMatchObject({ ok: true, result: "still fine" });
  });

  test("a replay or a state journal longer than maxToolCalls is refused before it is read", async () => {
    const entry = { tool: "t", path: "/program", args: {}, value: 1 };
    const replay = Array.from({ length: 1_000_000 }, () => entry);
    const r = await rt.run({ program: call("t") }, { replay });
    expect(r.error).toMatchObject({ code: "tool_call_limit", message: expect.stringContaining("1000000 calls") });
    const small = await rt.run({ program: call("t") }, { replay: replay.slice(0, 1) });
    expect(small).toMatchObject({ ok: true, result: 1 });
    const suspended = await rt.run(refundThenLog, { tools: { refund: recorder({ approval: true }), log: recorder() } });
    const state = { ...viaJson(suspended.state), journal: replay };
    const got = await rt.resume(state, {});
    expect(got.error).toMatchObject({ code: "bad_state", message: expect.stringContaining("maxToolCalls 1000") });
  });

  test("with a gate or a trace, the args and results kept count toward maxHeapBytes", async () => {
    const big = "x".repeat(300_000);
    const program = pipe(literal([1, 2, 3, 4, 5, 6, 7, 8]), {
      op: "map",
      as: "i",
      expr: call("save", { i: v("i"), big }),
    });
    const save = (args) => args.i;
    // One call at a time: the engine counts the args it writes for calls out at once, not those answered.
    const limits = { maxHeapBytes: 1_000_000, timeoutMs: 10_000, maxConcurrency: 1 };
    const journaled = await rt.run(program, { tools: { save }, journal: true, ...limits });
    expect(journaled.error).toMatchObject({
      code: "memory_exceeded",
      message: expect.stringContaining("kept to resume"),
    });
    const traced = await rt.run(program, { tools: { save }, trace: true, ...limits });
    expect(traced.error).toMatchObject({ code: "memory_exceeded", message: expect.stringContaining("for its trace") });
    const plain = await rt.run(program, { tools: { save }, ...limits });
    expect(plain).toMatchObject({ ok: true, result: [1, 2, 3, 4, 5, 6, 7, 8] });
    // Results: the journal keeps each one after the program has dropped it.
    const results = pipe(literal([1, 2, 3, 4, 5, 6, 7, 8]), {
      op: "map",
      as: "i",
      expr: lets([["r", call("fetch", { i: v("i") })]], v("i")),
    });
    const fetch = () => big;
    const kept = await rt.run(results, { tools: { fetch }, journal: true, ...limits });
    expect(kept.error).toMatchObject({ code: "memory_exceeded", message: expect.stringContaining("kept to resume") });
    expect(await rt.run(results, { tools: { fetch }, ...limits })).toMatchObject({ ok: true });
  });

  test("a context getter that starts other runs on the same runtime leaves the outer run unaffected", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i}` }));
    const inner = [];
    const context = {
      first: rows, // sent before the getter runs
      get second() {
        for (let i = 0; i < 5; i++)
          inner.push(
            rt.run(
              {
                program: {
                  op: "add",
                  left: chain({ op: "load", name: "other" }, { op: "sum", field: "id" }),
                  right: i,
                },
              },
              {
                context: { other: rows.slice(45) },
              },
            ),
          );
        inner.push(rt.load({ more: rows }));
        return rows.slice(0, 10);
      },
    };
    const program = {
      program: {
        op: "list",
        items: [
          chain({ op: "load", name: "first" }, { op: "sum", field: "id" }),
          chain({ op: "load", name: "second" }, { op: "count" }),
        ],
      },
    };
    const outer = await rt.run(program, { context });
    expect(outer).toMatchObject({ ok: true, result: [1225, 10] });
    const done = await Promise.all(inner);
    expect(done.slice(0, 5).map((r) => r.result)).toEqual([235, 236, 237, 238, 239]);
    expect(done[5].ok).toBe(true);
    done[5].resident.close();
  });
});

test("worker: closing resident data while a run using it is in flight leaks nothing", async () => {
  const rt = await ptcWasm.createRuntime({ worker: true });
  try {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `name ${i}` }));
    const program = pipe(
      { op: "load", name: "rows" },
      lets(
        [
          ["n", { op: "count" }],
          ["w", call("wait")],
        ],
        v("n"),
      ),
    );
    for (let i = 0; i < 5; i++) {
      const loaded = await rt.load({ rows });
      const running = rt.run(program, { resident: loaded.resident, tools: { wait: () => sleep(1) } });
      loaded.resident.close();
      expect(await running).toMatchObject({ ok: true, result: 2000 });
    }
    expect(await rt.residentBytesForTesting()).toBe(0);
  } finally {
    rt.close();
  }
});

test("CLI: a malformed state is one line on stderr and exit 2", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-trust-"));
  try {
    fs.writeFileSync(path.join(tmp, "state.json"), JSON.stringify({ format: "ptc-wasm/suspended-run@1", limits: [] }));
    const cli = path.join(__dirname, "../../dist/cli.mjs");
    const r = spawnSync(process.execPath, [cli, "resume", "state.json"], { cwd: tmp, encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining("The state cannot be resumed")]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
