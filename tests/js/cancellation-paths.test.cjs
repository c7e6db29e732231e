// Cancellation on the paths issue 33 point 3 left: MCP run_workflow, the AI
// SDK's workflowTool, ptcTool's approval paths (a program held for approval
// and its resume), and the CLI (SIGINT/SIGTERM during `ptc-wasm run`). Each:
// a run aborted on that path settles, and the tool it was running sees its
// signal aborted. No timed assertions: every tool here would take 30 s on its
// own; the tests assert the order of events and the signals' state.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync, spawn } = require("node:child_process");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { ptcWasm } = require("./helpers.cjs");
const { createMcpServer } = require("../../dist/mcp.cjs");

jest.setTimeout(120_000);

const root = path.join(__dirname, "../..");
const fixture = path.join(__dirname, "fixtures/slow-upstream-server.cjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-cancel-paths-"));
const LONG_MS = 30_000;

// A step-function file that calls `tool` once and returns its answer.
const fileCalling = (tool) => ({
  functions: [{ function: "main", output: "text", steps: [{ let: "r", call: tool, args: {} }, { return: "$r" }] }],
});

test("MCP run_workflow: a client's cancellation ends the run, the tool's signal is aborted, the server goes on", async () => {
  const rt = await ptcWasm.createRuntime();
  const events = [];
  let began;
  const started = new Promise((resolve) => (began = resolve));
  let seen;
  const slow = (args, call) =>
    new Promise((resolve) => {
      seen = call;
      events.push("tool started");
      began();
      const timer = setTimeout(() => (events.push("tool finished"), resolve("late")), LONG_MS);
      call.signal.addEventListener("abort", () => (clearTimeout(timer), events.push("tool aborted")));
    });
  const server = createMcpServer(rt, { tools: { slow }, timeoutMs: 60_000 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    const controller = new AbortController();
    const running = client.callTool({ name: "run_workflow", arguments: fileCalling("slow") }, undefined, {
      signal: controller.signal,
      timeout: 120_000,
    });
    await started;
    controller.abort(new Error("the user pressed stop"));
    await expect(running).rejects.toThrow();
    // The run ended on the server side too: the tool's signal was aborted, it never ran its 30 s.
    for (let i = 0; i < 600 && !events.includes("tool aborted"); i++) await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual(["tool started", "tool aborted"]);
    expect(seen.signal.aborted).toBe(true);
    const next = await client.callTool({ name: "run_program", arguments: { program: { op: "literal", value: 1 } } });
    expect(next.content[0].text).toBe("1");
  } finally {
    await client.close();
    rt.close?.();
  }
});

// ai is ESM-only: the AI SDK paths run in a plain Node process.
test("AI SDK: workflowTool and ptcTool's approval paths (held run, approved resume) end at the abortSignal", () => {
  const script = `
    import { createRuntime } from "ptc-wasm";
    const { ptcTool, workflowTool } = await import("ptc-wasm/ai-sdk");
    const rt = await createRuntime();
    // A tool that answers after 30 s unless its signal is aborted; it aborts the controller once it runs.
    const slowTool = (events, controller) => (args, call) => new Promise((resolve) => {
      events.seen = call;
      events.push("tool started");
      const timer = setTimeout(() => { events.push("tool finished"); resolve("late"); }, ${LONG_MS});
      call.signal.addEventListener("abort", () => { clearTimeout(timer); events.push("tool aborted"); resolve("aborted"); });
      controller.abort(new Error("the user left"));
    });
    const out = {};
    const settle = async (name, events, promise) => {
      const r = await promise;
      events.push("settled " + JSON.stringify(r).slice(0, 80));
      out[name] = { events: events.slice(), aborted: events.seen?.signal?.aborted === true };
    };
    const stateKey = "the host's state key";
    {
      const events = [], controller = new AbortController();
      const w = workflowTool(rt, { tools: { slow: slowTool(events, controller) } });
      await settle("workflowTool", events, w.execute(${JSON.stringify(fileCalling("slow"))}, { toolCallId: "w1", abortSignal: controller.signal }));
    }
    {
      // stateKey: run_program's execute runs the program held (runHeld) when needsApproval did not run it first.
      const events = [], controller = new AbortController();
      const t = ptcTool(rt, { tools: { slow: slowTool(events, controller) }, stateKey });
      await settle("runHeld", events, t.execute({ program: { op: "call", tool: "slow", args: {} } }, { toolCallId: "h1", abortSignal: controller.signal }));
    }
    {
      // The approved call of a held run runs at its resume (resumeHeld): the abortSignal ends it.
      const events = [], controller = new AbortController();
      const refund = { effect: "write", approval: true, execute: slowTool(events, controller) };
      const t = ptcTool(rt, { tools: { refund }, stateKey });
      const input = { program: { op: "call", tool: "refund", args: { id: "z" } } };
      const held = await t.needsApproval(input, { toolCallId: "r1" });
      events.push("held " + held + " " + JSON.stringify(input.held));
      await settle("resumeHeld", events, t.execute(input, { toolCallId: "r1", abortSignal: controller.signal }));
    }
    console.log(JSON.stringify(out));
    process.exit(0);
  `;
  const text = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  const out = JSON.parse(text.trim().split("\n").pop());
  for (const name of ["workflowTool", "runHeld", "resumeHeld"]) {
    const { events, aborted } = out[name];
    const ran = events.filter((e) => !e.startsWith("held"));
    expect({ name, aborted, ran: ran.slice(0, 2) }).toEqual({
      name,
      aborted: true,
      ran: ["tool started", "tool aborted"],
    });
    expect(events).not.toContain("tool finished");
    expect(ran[2]).toMatch(/^settled \{"ok":false/);
    expect(ran[2]).toContain("aborted");
  }
  expect(out.resumeHeld.events[0]).toBe('held true [{"tool":"refund","args":{"id":"z"}}]');
});

describe("the CLI: SIGINT or SIGTERM during `ptc-wasm run`", () => {
  const logOf = (file) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
  const logged = async (file, line) => {
    for (let i = 0; i < 600 && !logOf(file).split("\n").includes(line); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return logOf(file).split("\n").filter(Boolean);
  };

  test.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ])("%s ends the run, cancels its upstream call, and the CLI exits %i", async (signal, status) => {
    const log = path.join(dir, `${signal}.log`);
    const config = path.join(dir, `${signal}.json`);
    fs.writeFileSync(
      config,
      JSON.stringify({ mcpServers: { up: { command: process.execPath, args: [fixture, log], approval: false } } }),
    );
    const program = path.join(dir, `${signal}-program.json`);
    fs.writeFileSync(program, JSON.stringify({ program: { op: "call", tool: "up.slow", args: { label: "s1" } } }));
    const child = spawn(
      process.execPath,
      ["dist/cli.mjs", "run", program, "--mcp-config", config, "--timeout", "60000"],
      {
        cwd: root,
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise((resolve) => child.on("exit", (code, sig) => resolve({ code, sig })));
    await logged(log, "started s1");
    child.kill(signal);
    expect(await exited).toEqual({ code: status, sig: null });
    // The upstream call was cancelled (notifications/cancelled), not left to run its 30 s.
    expect(await logged(log, "aborted s1")).toEqual(["started s1", "aborted s1"]);
    expect(stderr).toContain(`stopped by ${signal}`);
  });
});
