// Warnings shown with the result where models and users see it: the runtime
// (in-process and in a worker), validate/analyze, ptcTool, MCP run_program
// and the CLI. What each warning says is in tests/conformance/warnings.json.
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { ptcWasm } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const misspeltLoad = { program: { op: "pipe", steps: [{ op: "load", name: "order" }, { op: "count" }] } };
const context = { orders: [{ id: 1, amount: 5 }] };

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

test("a run carries its warnings, ok or not, in-process and in a worker", async () => {
  const inWorker = await ptcWasm.createRuntime({ worker: true });
  try {
    for (const rt of [ptc, inWorker]) {
      const failed = await rt.run(misspeltLoad, { context });
      expect(failed.ok).toBe(false);
      expect(failed.warnings).toEqual([
        {
          code: "unknown_context_key",
          path: "/program/steps/0",
          message:
            "'load' reads context key 'order', which the context does not have, so it is null. Did you mean " +
            "'orders'? The context keys are: orders.",
        },
      ]);
      const ok = await rt.run(
        {
          program: {
            op: "pipe",
            steps: [
              { op: "load", name: "orders" },
              { op: "sum", field: "amont" },
            ],
          },
        },
        { context },
      );
      expect([ok.ok, ok.result, ok.warnings.map((w) => w.code)]).toEqual([true, 0, ["field_not_found"]]);
      // A clean run has none (no key at all).
      expect("warnings" in (await rt.run({ program: { op: "load", name: "orders" } }, { context }))).toBe(false);
    }
  } finally {
    inWorker.close();
  }
});

test("the context keys the package leaves out (only loaded keys cross) are still named", async () => {
  const r = await ptc.run({ program: { op: "load", name: "userz" } }, { context: { users: [1], orders: [2] } });
  expect(r.warnings[0].message).toContain("Did you mean 'users'? The context keys are: orders, users.");
});

test("a projected field no row has crosses whole: the warning names the rows' fields", async () => {
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, category: i % 2 ? "a" : "b", amount: i }));
  const program = {
    program: {
      op: "pipe",
      steps: [
        { op: "load", name: "rows" },
        { op: "filter", where: { op: "eq", field: "categry", value: "a" } },
        { op: "count" },
      ],
    },
  };
  const r = await ptc.run(program, { context: { rows } });
  expect(r.result).toBe(0);
  expect(r.warnings[0].message).toContain(
    "Did you mean 'category'? The fields of those objects are: amount, category, id.",
  );
});

test("validate and analyze warn of a load of a key the given context does not have", () => {
  const v = ptc.validate(misspeltLoad, { context });
  expect(v).toEqual({
    ok: true,
    warnings: [expect.objectContaining({ code: "unknown_context_key", path: "/program/steps/0" })],
  });
  expect(ptc.validate(misspeltLoad, { contextKeys: ["order"] })).toEqual({ ok: true });
  expect(ptc.validate(misspeltLoad)).toEqual({ ok: true }); // keys unknown: nothing to say
  const a = ptc.analyze(misspeltLoad, { context });
  expect(a.ok && a.warnings.map((w) => w.code)).toEqual(["unknown_context_key"]);
});

test("ptcTool returns the warnings as lines; an input without a program is named", () => {
  // `ai` is ESM-only: ptcTool runs in a Node process of its own (as in agent-ai-sdk.test.cjs).
  const source = `
    import { createRuntime } from "ptc-wasm";
    const { ptcTool } = await import("ptc-wasm/ai-sdk");
    const t = ptcTool(await createRuntime(), { context: ${JSON.stringify(context)} });
    const out = {};
    out.sum = await t.execute({ program: { op: "pipe", steps: [{ op: "load", name: "orders" }, { op: "sum", field: "amont" }] } });
    out.failed = await t.execute(${JSON.stringify(misspeltLoad)});
    out.none = await t.execute({ prog: { op: "literal", value: 1 } });
    console.log(JSON.stringify(out));`;
  const out = JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", source], { cwd: root, encoding: "utf8" })
      .trim()
      .split("\n")
      .pop(),
  );
  expect(out.sum).toEqual({
    ok: true,
    result: 0,
    warnings: [
      expect.stringMatching(
        /^Warning field_not_found at \/program\/steps\/1: 'sum' reads field 'amont'.*Did you mean 'amount'\?/,
      ),
    ],
  });
  expect(out.failed.ok).toBe(false);
  expect(out.failed.error).toContain("Warning unknown_context_key at /program/steps/0");
  expect(out.none).toEqual({
    ok: false,
    code: "missing_program",
    error:
      'The input must be {"program": {"op": ...}}: it has no key "program" (found: prog). Put the program\'s root operation under "program"',
  });
});

test("MCP run_program shows the warnings after the result; an input without program is named", async () => {
  const client = new Client({ name: "ptc-wasm-test", version: "1.0.0" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-warn-"));
  const contextFile = path.join(dir, "context.json");
  fs.writeFileSync(contextFile, JSON.stringify(context));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["dist/cli.mjs", "mcp", "--context", contextFile],
      cwd: root,
      stderr: "pipe",
    }),
  );
  try {
    const r = await client.callTool({ name: "run_program", arguments: { program: { op: "load", name: "order" } } });
    expect(r.isError).toBeFalsy();
    expect(r.content.map((c) => c.text)).toEqual([
      "null",
      expect.stringMatching(/^Warning unknown_context_key at \/program: .*Did you mean 'orders'\?/),
    ]);
    const none = await client.callTool({ name: "run_program", arguments: { prog: { op: "literal", value: 1 } } });
    expect(none.isError).toBe(true);
    expect(none.content[0].text).toMatch(/Invalid arguments for tool run_program: .* at program/); // the SDK's schema check
  } finally {
    await client.close();
  }
});

test("the CLI prints warnings on stderr; a one-shot run warns of keys stored beside result", () => {
  const cli = (args, input) =>
    spawnSync(process.execPath, ["dist/cli.mjs", ...args], { cwd: root, input, encoding: "utf8" });
  const r = cli(["run", "-"], JSON.stringify({ program: { result: 1, seen: 2 } }));
  expect([r.status, r.stdout]).toEqual([0, "1\n"]);
  expect(r.stderr).toContain("Warning result_stored at /program: Only 'result' is returned");
  const v = cli(["validate", "-"], JSON.stringify({ program: { program: { op: "literal", value: 1 } } }));
  expect([v.status, v.stdout.trim()]).toEqual([0, "ok"]);
  expect(v.stderr).toContain("Warning doubled_program at /program/program");
});

test("a tool's declared result (zod returns, MCP outputSchema) names a field it cannot have: validate, analyze, run", async () => {
  const { z } = require("zod");
  const program = {
    program: {
      op: "pipe",
      steps: [
        { op: "call", tool: "get_user", args: { id: 1 } },
        { op: "get", field: "mail" },
      ],
    },
  };
  const warnings = [
    {
      code: "unknown_result_field",
      path: "/program/steps/1",
      message:
        "'get' reads field 'mail' of the result of tool 'get_user', which its declared returns schema does not " +
        "list, so it will read null. Did you mean 'email'? The fields it lists are: email, name.",
    },
  ];
  const declarations = [
    { returns: z.object({ name: z.string(), email: z.string() }) },
    { outputSchema: { type: "object", properties: { name: { type: "string" }, email: { type: "string" } } } },
  ];
  for (const declared of declarations) {
    const tools = { get_user: { ...declared, execute: async () => ({ name: "Ada", email: "ada@example.com" }) } };
    expect(ptc.validate(program, { tools })).toEqual({ ok: true, warnings });
    expect(ptc.analyze(program, { tools }).warnings).toEqual(warnings);
    // The run says it once: the data's own field_not_found at that node is the same news.
    expect(await ptc.run(program, { tools })).toMatchObject({ ok: true, result: null, warnings });
  }
  // A plain function declares nothing: the run's data alone decides.
  const plain = await ptc.run(program, { tools: { get_user: async () => ({ name: "Ada", email: "a@b.c" }) } });
  expect(plain.warnings.map((w) => w.code)).toEqual(["field_not_found"]);
});
