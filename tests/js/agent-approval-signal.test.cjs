// What decides approvals gets the call's { signal, runId, callId } as a tool
// does, so that a host waiting for a person can stop when the run is aborted;
// an abort while it decides ends the run at once as aborted, and the call is
// not run. In each place: a tool's `approval` check (an AI SDK tool's
// `needsApproval`, routed through ptcToolCaller), a session's `approve`, and
// the MCP server's, which asks the client's user (its elicitation is cancelled).
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { ptcWasm } = require("./helpers.cjs");

jest.setTimeout(120_000);

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

const program = { op: "call", tool: "refund", args: { id: "a" } };

// A check or approver that waits for a person: it answers only when its signal aborts (then "no").
function waitingForAPerson() {
  const seen = [];
  let asked;
  const askedOnce = new Promise((resolve) => (asked = resolve));
  const wait = (what, identity) => {
    seen.push({ what, identity });
    asked();
    // Without a signal to stop on (as before), it answers at once: the call asks for approval.
    if (!identity?.signal) return Promise.resolve(true);
    return new Promise((resolve) => identity.signal.addEventListener("abort", () => resolve(false)));
  };
  return { seen, askedOnce, wait };
}

describe("a tool's approval check", () => {
  test("gets { runId, callId, signal }; an abort while it decides ends the run aborted, the signal told", async () => {
    const person = waitingForAPerson();
    let ran = 0;
    const refund = { effect: "write", approval: (args, call) => person.wait(args, call), execute: () => ++ran };
    const controller = new AbortController();
    const running = ptc.run({ program }, { tools: { refund }, signal: controller.signal, timeoutMs: 60_000 });
    await person.askedOnce;
    const reason = new Error("the user closed the tab");
    controller.abort(reason);
    const r = await running;
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe("aborted");
    expect(ran).toBe(0);
    const [{ what, identity }] = person.seen;
    expect(what).toEqual({ id: "a" });
    expect(identity.runId).toMatch(/\S/);
    expect(identity.callId).toMatch(/^call-/);
    expect(identity.signal.aborted).toBe(true);
    expect(identity.signal.reason).toBe(reason);
  });

  test("the run's timeoutMs striking while it decides aborts its signal with a TimeoutError", async () => {
    const person = waitingForAPerson();
    const refund = { effect: "write", approval: (args, call) => person.wait(args, call), execute: () => 1 };
    const r = await ptc.run({ program }, { tools: { refund }, timeoutMs: 300 });
    expect(r.error.code).toBe("timeout");
    const [{ identity }] = person.seen;
    expect(identity.signal.aborted).toBe(true);
    expect(identity.signal.reason.name).toBe("TimeoutError");
  });
});

// The AI SDK tools: \`ai\` is ESM-only, so these run in a plain Node process and report back as JSON.
function inNode(body) {
  const source = `
    import { createRuntime } from "ptc-wasm";
    const { ptcTool, ptcToolCaller } = await import("ptc-wasm/ai-sdk");
    const { tool, jsonSchema } = await import("ai");
    const rt = await createRuntime();
    const program = ${JSON.stringify(program)};
    ${body}
    rt.close?.();
  `;
  const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: path.join(__dirname, "../.."),
    encoding: "utf8",
  });
  return JSON.parse(stdout.trim().split("\n").pop());
}

describe("the AI SDK tools", () => {
  test("a routed tool's needsApproval (ptcToolCaller) gets its toolCallId and an abortSignal; an abort ends the run", () => {
    const { out, seen, ran } = inNode(`
      const seen = [];
      let ran = 0;
      let asked;
      const askedOnce = new Promise((resolve) => (asked = resolve));
      const refund = tool({
        inputSchema: jsonSchema({ type: "object", properties: { id: { type: "string" } } }),
        needsApproval: (input, options) => {
          seen.push({ toolCallId: options.toolCallId, hasSignal: options.abortSignal instanceof AbortSignal });
          asked();
          if (!options.abortSignal) return true; // nothing to stop on (as before): it asks at once
          return new Promise((resolve) => options.abortSignal.addEventListener("abort", () => {
            seen.push({ aborted: String(options.abortSignal.reason) });
            resolve(false);
          }));
        },
        execute: async () => ++ran,
      });
      const caller = ptcToolCaller(rt, { routedTools: { refund }, approve: () => true });
      const controller = new AbortController();
      const running = caller.execute({ program }, { toolCallId: "c1", messages: [], abortSignal: controller.signal });
      await Promise.race([askedOnce, running]);
      controller.abort(new Error("the request was cancelled"));
      console.log(JSON.stringify({ out: await running, seen, ran }));
    `);
    expect(out).toMatchObject({ ok: false, code: "aborted" });
    expect(ran).toBe(0);
    expect(seen[0]).toEqual({ toolCallId: expect.stringMatching(/^c1:refund:call-/), hasSignal: true });
    expect(seen[1]).toEqual({ aborted: "Error: the request was cancelled" });
  });

  test("a session's approve gets { runId, callId, signal }; an abort while the person decides ends the call at once", () => {
    const { out, seen, ran } = inNode(`
      const seen = [];
      let ran = 0;
      let asked;
      const askedOnce = new Promise((resolve) => (asked = resolve));
      const refund = { effect: "write", approval: true, execute: () => ++ran };
      const approve = (call, identity) => {
        seen.push({ id: call.id, runId: identity?.runId, callId: identity?.callId });
        asked();
        if (!identity?.signal) return true; // nothing to stop on (as before): yes at once
        // The person never answers; the host stops waiting when the signal aborts.
        return new Promise(() => identity.signal.addEventListener("abort", () => seen.push({ aborted: String(identity.signal.reason) })));
      };
      const run_program = ptcTool(rt, { tools: { refund }, approve });
      const controller = new AbortController();
      const running = run_program.execute({ program }, { toolCallId: "t1", messages: [], abortSignal: controller.signal });
      await Promise.race([askedOnce, running]);
      controller.abort(new Error("the user went away"));
      console.log(JSON.stringify({ out: await running, seen, ran }));
    `);
    expect(out).toMatchObject({ ok: false, code: "aborted" });
    expect(out.error).toContain("the user went away");
    expect(ran).toBe(0);
    expect(seen[0].callId).toBe(seen[0].id);
    expect(seen[0].runId).toMatch(/\S/);
    expect(seen[1]).toEqual({ aborted: "Error: the user went away" });
  });
});

describe("the MCP server's approver", () => {
  test("a client's cancellation of run_program cancels the elicitation that asks its user; nothing is written", async () => {
    const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
    const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
    const { ElicitRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
    const { createMcpServer } = require("../../dist/mcp.cjs");
    let ran = 0;
    const refund = { effect: "write", approval: true, execute: () => ++ran };
    const server = createMcpServer(ptc, { tools: { refund } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    let asked;
    const askedOnce = new Promise((resolve) => (asked = resolve));
    let stopped;
    const stoppedAsking = new Promise((resolve) => (stopped = resolve));
    let elicitations = 0;
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
      // The first is answered (the SDK's client ignores a cancellation of request id 0, the server's first).
      if (++elicitations === 1) return { action: "decline" };
      asked();
      // The user never answers; the elicitation ends when the server cancels it.
      return new Promise((resolve) =>
        extra.signal.addEventListener("abort", () => {
          stopped(String(extra.signal.reason));
          resolve({ action: "cancel" });
        }),
      );
    });
    await client.connect(clientSide);
    const declined = await client.callTool({ name: "run_program_writes", arguments: { program } });
    expect(declined.content[0].text).toContain("decline");
    const controller = new AbortController();
    const call = client.callTool({ name: "run_program_writes", arguments: { program } }, undefined, {
      signal: controller.signal,
    });
    call.catch(() => {}); // rejected by the cancellation
    await askedOnce;
    controller.abort(new Error("the user closed the chat"));
    await expect(call).rejects.toThrow();
    // Cancelled for the client's reason (not at the SDK's 60 s request timeout, as before).
    expect(await stoppedAsking).toContain("the user closed the chat");
    expect(ran).toBe(0);
    await client.close();
  });
});
