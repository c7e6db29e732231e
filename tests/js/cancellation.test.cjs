// Cancellation end to end (issue 33, point 3): an abort or a timeout settles
// the run at once, aborts the AbortSignal every tool still running was given
// (`execute(args, { signal, runId, callId })`), sends notifications/cancelled
// for every upstream MCP call still open, and reports a write it abandoned as
// "may have completed" with its identity, never as failed. No timed
// assertions: every tool here would take 30 s on its own, and the tests assert
// the order of events and the signals' state.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { ptcWasm } = require("./helpers.cjs");
const { mcpTools, createMcpServer } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000); // MCP servers start in a second or two on a loaded machine

const root = path.join(__dirname, "../..");
const fixture = path.join(__dirname, "fixtures/slow-upstream-server.cjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-cancellation-"));
const LONG_MS = 30_000;

/**
 * A tool that answers after 30 s unless its signal is aborted, writing what
 * happens to `events` ("<name> started", "<name> aborted: <reason name>",
 * "<name> finished"); `started` resolves once it runs.
 */
function slowTool(events, name = "slow") {
  let began;
  const started = new Promise((resolve) => (began = resolve));
  const seen = [];
  const execute = (args, call) => {
    seen.push(call);
    events.push(`${name} started`);
    began(call);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        events.push(`${name} finished`);
        resolve("late");
      }, LONG_MS);
      call.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        events.push(`${name} aborted: ${call.signal.reason?.name}`);
      });
    });
  };
  return { execute, started, seen };
}

const call = (tool) => ({ program: { op: "call", tool, args: {} } });

describe.each([
  ["in-process", false],
  ["worker", true],
])("%s: a run's end reaches its tools", (_mode, worker) => {
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime({ worker });
  });
  afterAll(() => rt.close());

  test("runtime.run's signal: the run settles aborted, and the tool still running sees its signal aborted", async () => {
    const events = [];
    const slow = slowTool(events);
    const controller = new AbortController();
    void slow.started.then(() => controller.abort(new Error("the user left")));
    const r = await rt.run(call("slow"), { tools: { slow: slow.execute }, signal: controller.signal });
    events.push("run settled");
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe("aborted");
    // Settled before the tool's own 30 s, its signal aborted first, with the run's reason.
    expect(events).toEqual(["slow started", "slow aborted: Error", "run settled"]);
    const [identity] = slow.seen;
    expect(identity.signal.aborted).toBe(true);
    expect(identity.signal.reason.message).toBe("the user left");
    expect(typeof identity.runId).toBe("string");
    expect(typeof identity.callId).toBe("string");
  });

  test("timeoutMs: the run times out, and the tool's signal is aborted with a TimeoutError", async () => {
    const events = [];
    const slow = slowTool(events);
    const r = await rt.run(call("slow"), { tools: { slow: slow.execute }, timeoutMs: 200 });
    events.push("run settled");
    expect(r.error.type).toBe("timeout");
    expect(events).toEqual(["slow started", "slow aborted: TimeoutError", "run settled"]);
    expect(slow.seen[0].signal.reason.message).toContain("timeoutMs");
  });

  test("toolTimeoutMs: the call fails, the run goes on, and the abandoned tool's signal is aborted", async () => {
    const events = [];
    const slow = slowTool(events);
    const program = { program: { op: "try", expr: call("slow").program, catch: { op: "literal", value: "gave up" } } };
    const r = await rt.run(program, { tools: { slow: slow.execute }, toolTimeoutMs: 100, timeoutMs: 60_000 });
    events.push("run settled");
    expect(r).toMatchObject({ ok: true, result: "gave up" });
    expect(events).toEqual(["slow started", "slow aborted: TimeoutError", "run settled"]);
    expect(slow.seen[0].signal.reason.message).toContain("toolTimeoutMs");
  });

  test("a descriptor, and every call of a fan-out, get their own signal, all aborted at the run's end", async () => {
    const events = [];
    const slow = slowTool(events);
    const controller = new AbortController();
    let started = 0;
    const tools = {
      slow: {
        description: "Waits.",
        parameters: { type: "object" },
        execute: (args, identity) => {
          if (++started === 3) controller.abort(new Error("stop"));
          return slow.execute(args, identity);
        },
      },
    };
    const program = {
      program: {
        op: "pipe",
        steps: [
          { op: "literal", value: [1, 2, 3] },
          { op: "map", expr: { op: "call", tool: "slow", args: {} } },
        ],
      },
    };
    const r = await rt.run(program, { tools, signal: controller.signal });
    expect(r.error.code).toBe("aborted");
    expect(slow.seen).toHaveLength(3);
    expect(new Set(slow.seen.map((c) => c.signal)).size).toBe(3);
    expect(slow.seen.every((c) => c.signal.aborted)).toBe(true);
    expect(new Set(slow.seen.map((c) => c.callId)).size).toBe(3);
  });

  test("a tool that answered in time gets a signal that stays unaborted", async () => {
    let seen;
    const r = await rt.run(call("quick"), {
      tools: {
        quick: (args, identity) => {
          seen = identity;
          return 1;
        },
      },
    });
    expect(r).toMatchObject({ ok: true, result: 1 });
    expect(seen.signal.aborted).toBe(false);
  });

  test("a write abandoned at toolTimeoutMs is reported as may have completed, with its { runId, callId }", async () => {
    const events = [];
    const slow = slowTool(events, "charge");
    const tools = { charge: { description: "Charges.", effect: "write", execute: slow.execute } };
    // A try around it must not catch it as a failure and go on (a retry would charge twice).
    const program = { program: { op: "try", expr: call("charge").program, catch: { op: "literal", value: "retry" } } };
    const r = await rt.run(program, { tools, toolTimeoutMs: 100, timeoutMs: 60_000 });
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe("write_unconfirmed");
    expect(r.error.message).toContain("may have completed");
    expect(r.error.message).not.toContain("failed");
    const { runId, callId, signal } = slow.seen[0];
    expect(signal.aborted).toBe(true);
    expect(r.error.unconfirmed).toEqual([{ tool: "charge", path: "/program/expr", runId, callId }]);
    expect(r.error.message).toContain(callId);
  });

  test("a write out when the run's time limit strikes is named in the timeout as may have completed", async () => {
    const events = [];
    const slow = slowTool(events, "charge");
    const tools = { charge: { description: "Charges.", effect: "write", execute: slow.execute } };
    const r = await rt.run(call("charge"), { tools, timeoutMs: 200 });
    expect(r.error.type).toBe("timeout");
    expect(r.error.message).toContain("may have completed");
    const { runId, callId } = slow.seen[0];
    expect(r.error.unconfirmed).toEqual([{ tool: "charge", path: "/program", runId, callId }]);
  });
});

// The gateway's calls carry their signal upstream; a client's cancellation of run_program reaches them.
describe("MCP: cancellation reaches the upstream server", () => {
  const logOf = (file) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
  // Waits (up to a minute: a loaded machine) until the log has the line.
  const logged = async (file, line) => {
    for (let i = 0; i < 600 && !logOf(file).split("\n").includes(line); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return logOf(file).split("\n").filter(Boolean);
  };
  let rt;
  beforeAll(async () => {
    rt = await ptcWasm.createRuntime();
  });

  test("a call abandoned at toolTimeoutMs is cancelled upstream (notifications/cancelled), and the write is unconfirmed", async () => {
    const log = path.join(dir, "tool-timeout.log");
    const gateway = await mcpTools({
      mcpServers: { up: { command: process.execPath, args: [fixture, log], approval: false } },
    });
    try {
      const program = { program: { op: "call", tool: "up.slow", args: { label: "t1" } } };
      const r = await rt.run(program, { tools: gateway.tools, toolTimeoutMs: 500, timeoutMs: 60_000 });
      // An upstream tool without annotations is a write: it may have completed.
      expect(r.error.code).toBe("write_unconfirmed");
      expect(await logged(log, "aborted t1")).toEqual(["started t1", "aborted t1"]);
    } finally {
      await gateway.close();
    }
  });

  test("an MCP client cancelling run_program ends the run and cancels its upstream call", async () => {
    const log = path.join(dir, "client-cancel.log");
    const gateway = await mcpTools({
      // A read: run_program runs programs that only read (those that write go to run_program_writes).
      mcpServers: { up: { command: process.execPath, args: [fixture, log], tools: { slow: { effect: "read" } } } },
    });
    const server = createMcpServer(rt, { tools: gateway.tools, timeoutMs: 60_000 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const controller = new AbortController();
      const program = { op: "call", tool: "up.slow", args: { label: "c1" } };
      const running = client.callTool({ name: "run_program", arguments: { program } }, undefined, {
        signal: controller.signal,
        timeout: 120_000,
      });
      await logged(log, "started c1");
      controller.abort(new Error("the user pressed stop"));
      await expect(running).rejects.toThrow();
      // The server ended the run: its upstream call was cancelled, not left to finish.
      expect(await logged(log, "aborted c1")).toEqual(["started c1", "aborted c1"]);
      // The server is usable again at once.
      const next = await client.callTool({ name: "run_program", arguments: { program: { op: "literal", value: 1 } } });
      expect(next.content[0].text).toBe("1");
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});

// The AI SDK's abortSignal is the run's signal. ai is ESM-only, so the check runs in a plain Node process.
describe("AI SDK: generateText's abortSignal", () => {
  test("aborting generateText ends run_program's run and aborts the signal of the tool it was running", () => {
    const script = `
      import { createRuntime } from "ptc-wasm";
      const { ptcTool, ptcToolCaller } = await import("ptc-wasm/ai-sdk");
      const { generateText, tool } = await import("ai");
      const { MockLanguageModelV4 } = await import("ai/test");
      const { z } = await import("zod");
      const rt = await createRuntime();
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      const reply = (input) => ({ content: [{ type: "tool-call", toolCallId: "t1", toolName: "run_program", input: JSON.stringify(input) }], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] });
      const out = {};
      for (const kind of ["ptcTool", "ptcToolCaller"]) {
        const events = [];
        const controller = new AbortController();
        let seen;
        // A tool that would answer after 30 s; the test aborts generateText once it runs.
        const wait = (options, signal) => new Promise((resolve) => {
          seen = options;
          events.push("tool started");
          const timer = setTimeout(() => { events.push("tool finished"); resolve(3000); }, ${LONG_MS});
          signal.addEventListener("abort", () => { clearTimeout(timer); events.push("tool aborted"); });
          controller.abort(new Error("the user left"));
        });
        let runProgram;
        const tools = {};
        if (kind === "ptcTool") {
          runProgram = ptcTool(rt, { tools: { slow: (args, call) => wait(call, call.signal) } });
        } else {
          tools.slow = tool({ description: "Waits.", inputSchema: z.object({}), execute: (input, options) => wait(options, options.abortSignal) });
          runProgram = ptcToolCaller(rt);
        }
        const execute = runProgram.execute;
        runProgram.execute = async (input, options) => {
          const r = await execute(input, options);
          events.push("run_program settled: " + JSON.stringify(r).slice(0, 60));
          return r;
        };
        tools.run_program = runProgram;
        const model = new MockLanguageModelV4({ doGenerate: [reply({ program: { op: "call", tool: "slow", args: {} } })] });
        try {
          await generateText({ model, prompt: "go", tools, abortSignal: controller.signal, ...(kind === "ptcToolCaller" ? { experimental_toolCallers: { slow: ["run_program"] } } : {}) });
          events.push("generateText resolved");
        } catch (e) {
          events.push("generateText threw: " + String(e).slice(0, 300));
        }
        // Give run_program (if it still ran) time to settle, so its events show.
        await new Promise((resolve) => setTimeout(resolve, 200));
        out[kind] = { events, aborted: seen?.abortSignal?.aborted ?? seen?.signal?.aborted, toolCallId: typeof seen?.toolCallId };
      }
      console.log(JSON.stringify(out));
      process.exit(0);
    `;
    const text = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    const out = JSON.parse(text.trim().split("\n").pop());
    for (const kind of ["ptcTool", "ptcToolCaller"]) {
      const { events, aborted } = out[kind];
      expect({ kind, aborted, events }).toEqual({ kind, aborted: true, events });
      // The run settled aborted before the tool's own 30 s: no "tool finished", no ok result.
      expect(events.slice(0, 2)).toEqual(["tool started", "tool aborted"]);
      expect(events).not.toContain("tool finished");
      const settled = events.find((e) => e.startsWith("run_program settled"));
      if (settled) expect(settled).toContain('"ok":false');
    }
    expect(out.ptcToolCaller.toolCallId).toBe("string");
  });
});
