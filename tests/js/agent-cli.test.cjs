// The CLI (npx ptc-wasm → dist/cli.mjs), run as a process: each command, stdin,
// the exit codes (0 ok, 1 bad program, 2 bad usage) and long output.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { ptcWasm } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const example = path.join(root, "examples/agent-loop");
let tmp, ptc;

function cli(args, input) {
  const r = spawnSync(process.execPath, ["dist/cli.mjs", ...args], {
    cwd: root,
    input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const file = (name, value) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
  return p;
};

beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-cli-"));
  file(
    "slow-tools.mjs",
    "export const slow = { description: 'never answers', execute: () => new Promise(() => {}) };\n" +
      "export function double({ n }) { return n * 2; }\n",
  );
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("run", () => {
  test("prints the result as JSON (exit 0)", () => {
    const r = cli(["run", path.join(example, "program.json"), "--context", path.join(example, "data.json")]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual([
      { date: "2024-02-08", employee: "ben", amount: 391 },
      { date: "2024-03-15", employee: "chloe", amount: 362 },
      { date: "2024-04-22", employee: "ana", amount: 333 },
    ]);
  });

  test("- reads the program from standard input", () => {
    const r = cli(["run", "-"], '{"program": {"op": "add", "left": 1, "right": 2}}');
    expect([r.code, r.stdout]).toEqual([0, "3\n"]);
  });

  test("--context - reads the context from standard input", () => {
    const program = file("count.json", {
      program: { op: "pipe", steps: [{ op: "load", name: "xs" }, { op: "count" }] },
    });
    const r = cli(["run", program, "--context", "-"], '{"xs": [1, 2, 3]}');
    expect([r.code, r.stdout]).toEqual([0, "3\n"]);
  });

  test("--memory, --memory-out and --full: a second turn reads what the first stored", () => {
    const out = path.join(tmp, "memory-out.json");
    const first = cli(
      ["run", "-", "--memory", file("m.json", { seen: 1 }), "--memory-out", out],
      '{"program": {"result": 7, "stash": [1, 2]}}',
    );
    expect([first.code, first.stdout]).toEqual([0, "7\n"]);
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual({ seen: 1, stash: [1, 2] });
    const second = cli(
      ["run", "-", "--memory", out, "--full"],
      '{"program": {"op": "pipe", "steps": [{"op": "var", "name": "stash"}, {"op": "sum"}]}}',
    );
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      ok: true,
      result: 3,
      memoryDelta: {},
      memory: { seen: 1, stash: [1, 2] },
      metrics: {},
    });
  });

  test("--tools loads a module's exports as tools", () => {
    const r = cli(
      ["run", "-", "--tools", path.join(tmp, "slow-tools.mjs")],
      '{"program": {"op": "call", "tool": "double", "args": {"n": 21}}}',
    );
    expect([r.code, r.stdout]).toEqual([0, "42\n"]);
  });

  test.each([
    ["not JSON", '{"program": ', /^ParseError at position 12: /],
    [
      "a validation error",
      '{"program": {"op": "pipe", "steps": [{"op": "load", "name": "x"}, {"op": "filer"}]}}',
      /^ValidationError at \/program\/steps\/1: Unknown operation 'filer'\. Did you mean 'filter'\?\n$/,
    ],
    [
      "an execution error",
      '{"program": {"op": "count"}}',
      /^ExecutionError at \/program: No input available for 'count'/,
    ],
    [
      "a tool's invalid args",
      '{"program": {"op": "call", "tool": "get_customer", "args": {"id": "x"}}}',
      /^ExecutionError at \/program: Tool 'get_customer' failed: invalid args .*at \/id: expected integer/,
    ],
  ])("%s: the formatted error on stderr, exit 1", (_name, program, message) => {
    const r = cli(["run", "-", "--tools", path.join(example, "tools.mjs")], program);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });

  test("--full: a failed run prints the whole result, its error with its code, and exits 1", () => {
    const r = cli(["run", "-", "--full"], '{"program": {"op": "count"}}');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      error: { type: "execution_error", code: "no_input", path: "/program" },
    });
    expect(r.stderr).toMatch(/^ExecutionError at \/program: No input available for 'count'/);
  });

  // Issue 11, item 1: such a tool used to end the process before it could print anything.
  test("a tool that throws an unprintable value: the formatted error naming it, exit 1", () => {
    const tools = file(
      "hostile-tools.mjs",
      "export function poison() { const v = Object.create(null); v.n = 1n; throw v; }\n",
    );
    const r = cli(["run", "-", "--tools", tools], '{"program": {"op": "call", "tool": "poison"}}');
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      "",
      "ExecutionError at /program: Tool 'poison' failed: an unprintable value. To go on when a tool fails, wrap the " +
        'call in a try: {"op": "try", "expr": {"op": "call", ...}, "catch": <the value to use instead>}\n',
    ]);
  });

  test("--timeout: a run past its time limit is exit 1 with a Timeout", () => {
    const r = cli(
      ["run", "-", "--tools", path.join(tmp, "slow-tools.mjs"), "--timeout", "150"],
      '{"program": {"op": "call", "tool": "slow"}}',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Timeout/); // the limit, not the tool's own end, stopped it
  });

  test("long output is not truncated", () => {
    const n = 300000;
    const r = cli(
      [
        "run",
        "-",
        "--max-heap",
        "1000000000",
        "--timeout",
        "20000",
        "--context",
        file("big.json", { xs: Array.from({ length: n }, (_, i) => ({ i, s: `item-${i}` })) }),
      ],
      JSON.stringify({ program: { op: "load", name: "xs" } }),
    );
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(10_000_000);
    const xs = JSON.parse(r.stdout);
    expect(xs).toHaveLength(n);
    expect(xs[n - 1]).toEqual({ i: n - 1, s: `item-${n - 1}` });
  });
});

describe("validate", () => {
  test("ok (exit 0)", () => {
    expect(cli(["validate", path.join(example, "program.json")])).toEqual({ code: 0, stdout: "ok\n", stderr: "" });
  });

  test("a bad program: the formatted error with the op's shape, exit 1", () => {
    const r = cli(["validate", "-"], '{"program": {"op": "take"}}');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ValidationError at /program: Operation 'take' requires field 'count'. Shape: ");
  });

  test("with --tools, unknown tool names are errors", () => {
    const r = cli(
      ["validate", "-", "--tools", path.join(example, "tools.mjs")],
      '{"program": {"op": "call", "tool": "get_order"}}',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Did you mean 'get_orders'?");
  });
});

describe("schema and prompt", () => {
  test("schema prints the program schema", () => {
    const r = cli(["schema"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(ptc.schema());
    const withTools = JSON.parse(cli(["schema", "--tools", path.join(example, "tools.mjs")]).stdout);
    expect(withTools.$defs.op_call.properties.tool.enum).toEqual(["get_customer", "get_orders"]);
  });

  test("prompt prints the full prompt; --compact the short one; --tools and --context are listed", () => {
    expect(cli(["prompt"]).stdout).toBe(ptc.prompt());
    expect(cli(["prompt", "--compact"]).stdout).toBe(ptc.prompt({ compact: true }));
    const r = cli([
      "prompt",
      "--compact",
      "--tools",
      path.join(example, "tools.mjs"),
      "--context",
      path.join(example, "data.json"),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("get_customer(id: integer): One customer by id");
    expect(r.stdout).toContain("`expenses`: list of 24 objects");
  });

  test("--workflow: the step-function prompt and schema instead", () => {
    expect(cli(["prompt", "--workflow"]).stdout).toBe(ptc.workflowPrompt());
    expect(cli(["prompt", "--workflow", "--compact"]).stdout).toBe(ptc.workflowPrompt({ compact: true }));
    const tools = path.join(example, "tools.mjs");
    expect(cli(["prompt", "--workflow", "--compact", "--tools", tools]).stdout).toContain("get_customer(id: integer)");
    expect(JSON.parse(cli(["schema", "--workflow"]).stdout)).toEqual(ptc.workflowSchema());
    const r = cli(["prompt", "--workflow", "--context", path.join(example, "data.json")]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining("--context does not apply to step functions")]);
  });
});

describe("usage", () => {
  test("--help lists every command and option (exit 0)", () => {
    for (const args of [["--help"], ["-h"], ["help"], ["run", "--help"]]) {
      const r = cli(args);
      expect(r.code).toBe(0);
      for (const word of [
        "run",
        "validate",
        "schema",
        "prompt",
        "mcp",
        "--context",
        "--memory",
        "--memory-out",
        "--tools",
        "--timeout",
        "--max-heap",
        "--max-depth",
        "--max-message-bytes",
        "--full",
        "--compact",
        "Exit codes",
      ])
        expect([args, word, r.stdout.includes(word)]).toEqual([args, word, true]);
    }
    expect(cli(["--version"]).stdout).toBe(`${require("../../package.json").version}\n`);
  });

  test.each([
    ["no command", [], "no command given"],
    ["an unknown command", ["frobnicate"], "unknown command 'frobnicate'"],
    ["a command named like an Object method", ["toString"], "unknown command 'toString'"],
    ["an inherited name with an option", ["constructor", "--tools", "x.mjs"], "unknown command 'constructor'"],
    ["an unknown option", ["run", "p.json", "--contxt", "x"], "unknown option '--contxt'"],
    ["an option of another command", ["schema", "--compact"], "option --compact does not apply to 'schema'"],
    ["a missing program file argument", ["run"], "'run' takes one program file"],
    ["a file the command does not take", ["schema", "x.json"], "'schema' takes no file"],
    ["a missing file", ["run", "no/such/program.json"], "cannot read the program file 'no/such/program.json': ENOENT"],
    ["an option without its value", ["run", "-", "--timeout"], "--timeout needs a value"],
    ["a bad number", ["run", "-", "--timeout", "soon"], "--timeout must be a positive number"],
    ["a context that is not JSON", ["run", "-", "--context", "README.md"], "the context file 'README.md' is not JSON"],
    [
      "a context that is not an object",
      ["run", "p.json", "--context", "-"],
      "the context file '-' must hold a JSON object",
    ],
    ["stdin read twice", ["run", "-", "--memory", "-"], "standard input (-) can be read only once"],
    ["a tools module that exports no tools", ["run", "-", "--tools", "package.json"], "cannot load the tools module"],
    // Issue 11, item 20: numbers the runtime refuses were an exit 3 with a stack trace.
    [
      "a timeout past the longest timer",
      ["run", "-", "--timeout", "1e12"],
      "--timeout must be a positive number of at most 2147483647, got '1e12'",
    ],
    [
      "a heap limit past the safe integers",
      ["run", "-", "--max-heap", "1e300"],
      "--max-heap must be a positive number of at most 9007199254740991, got '1e300'",
    ],
    [
      "a depth past the engine's maximum",
      ["validate", "-", "--max-depth", "1e300"],
      "--max-depth must be a positive number of at most 500, got '1e300'",
    ],
    [
      "an infinite timeout",
      ["mcp", "--timeout", "Infinity"],
      "--timeout must be a positive number of at most 2147483647, got 'Infinity'",
    ],
    [
      "a message limit past 1 GiB",
      ["mcp", "--max-message-bytes", "1e10"],
      "--max-message-bytes must be a positive number of at most 1073741824, got '1e10'",
    ],
    ["a zero message limit", ["mcp", "--max-message-bytes", "0"], "--max-message-bytes must be a positive number"],
  ])("%s: a clear message, exit 2", (_name, args, message) => {
    const r = cli(args, "[1]");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`ptc-wasm: ${message}`);
    expect(r.stderr).toContain("Run 'ptc-wasm --help' for usage.");
    expect(r.stderr).not.toMatch(/^\s+at /m); // no stack trace
  });
});

// Issue 24, item 3: text a program controls (op names, keys, args, results)
// must not reach a terminal as control characters: ESC and OSC sequences, CR
// and C1 controls would rewrite what was printed before.
describe("what reaches the terminal", () => {
  // eslint-disable-next-line no-control-regex -- what must not be printed raw
  const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;
  // Erase the line, go back to its start, set the window title, a C1 CSI: each would act on a terminal.
  const TRICKS = "\u001b[2K\r\u001b]0;owned\u0007\u009b31m";

  test("an op name in an error is printed escaped", () => {
    for (const command of ["run", "validate"]) {
      const r = cli([command, "-"], JSON.stringify({ program: { op: `x${TRICKS}refund` } }));
      expect(r.code).toBe(1);
      expect(r.stderr).not.toMatch(RAW_CONTROL);
      expect(r.stderr).toContain("Unknown operation 'x\\u001b[2K\\u000d\\u001b]0;owned\\u0007\\u009b31mrefund'");
    }
  });

  test("a pending call's keys, args and path are printed escaped, one line per call", () => {
    const tools = file(
      "ask-tools.mjs",
      "export const refund = { effect: 'write', approval: true, execute: () => 1 };\n",
    );
    const key = `${TRICKS}get_weather {}\nNote: approved`;
    const program = { program: { [key]: { op: "call", tool: "refund", args: { [`amount${TRICKS}`]: 1000000 } } } };
    const r = cli(["run", "-", "--tools", tools], JSON.stringify(program));
    expect(r.code).toBe(4);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    const shown = (text) =>
      JSON.stringify(text).replace(/[\u007f-\u009f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    const [id] = r.stderr.match(/call-[0-9a-f]{14}/) ?? ["(no pending id)"];
    expect(r.stderr.split("\n")[1]).toBe(
      `  ${id}: "refund" {${shown(`amount${TRICKS}`)}:1000000} at ${shown(`/program/${key}`)} (approval)`,
    );
    expect(r.stderr).not.toMatch(/^Note/m);
  });

  test("a result is printed escaped, and is the same JSON data", () => {
    const value = { [`k${TRICKS}`]: `v${TRICKS}\u0085\u202e` };
    const r = cli(["run", "-"], JSON.stringify({ program: { op: "literal", value } }));
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(r.stdout)).toEqual(value);
  });
});

// Issue 33 point 7: a CLI user sets limits with flags, so errors name the flags.
describe("errors name the CLI's flags, not the API's options", () => {
  const API_OPTION = /\b(timeoutMs|toolTimeoutMs|maxHeapBytes|maxDepth|maxToolCalls|maxConcurrency|maxMessageBytes)\b/;
  const twoCalls = () =>
    file("two-calls.json", {
      program: {
        op: "list",
        items: [1, 2].map((n) => ({ op: "call", tool: "double", args: { n } })),
      },
    });
  const deep = JSON.stringify({
    program: { op: "pipe", steps: [{ op: "pipe", steps: [{ op: "pipe", steps: [{ op: "literal", value: 1 }] }] }] },
  });

  test.each([
    [
      "a run past its time limit",
      ["run", "-", "--timeout", "150"],
      '{"program": {"op": "call", "tool": "slow"}}',
      "(--timeout)",
    ],
    [
      "a tool past its time limit",
      ["run", "-", "--tool-timeout", "150"],
      '{"program": {"op": "call", "tool": "slow"}}',
      "(--tool-timeout)",
    ],
    [
      "a run holding too much",
      ["run", "-", "--max-heap", "2000"],
      JSON.stringify({ program: { op: "literal", value: "x".repeat(5000) } }),
      "raise --max-heap",
    ],
    ["a program nested too deep (run)", ["run", "-", "--max-depth", "2"], deep, "(--max-depth)"],
    ["a program nested too deep (validate)", ["validate", "-", "--max-depth", "2"], deep, "(--max-depth)"],
    ["too many tool calls", ["run", "TWO", "--max-tool-calls", "1"], undefined, "(--max-tool-calls)"],
  ])("%s", (_name, args, input, flag) => {
    const withTools = args.map((a) => (a === "TWO" ? twoCalls() : a));
    if (withTools[0] === "run") withTools.push("--tools", path.join(tmp, "slow-tools.mjs"));
    const r = cli(withTools, input);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(flag);
    expect(r.stderr).not.toMatch(API_OPTION);
    const full = cli([...withTools, ...(withTools[0] === "run" ? ["--full"] : [])], input);
    expect(full.stdout).not.toMatch(API_OPTION);
  });

  test("a recording longer than --max-tool-calls names the flag", () => {
    const journal = path.join(tmp, "two-calls.journal.json");
    const tools = ["--tools", path.join(tmp, "slow-tools.mjs")];
    expect(cli(["run", twoCalls(), ...tools, "--journal", journal]).code).toBe(0);
    const r = cli(["run", twoCalls(), "--replay", journal, "--max-tool-calls", "1"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "(--max-tool-calls 1): replay the journal of a run with these limits, or raise --max-tool-calls",
    );
    expect(r.stderr).not.toMatch(API_OPTION);
  });

  test("a name of the program's own is left as it is", () => {
    const r = cli(["run", "-"], JSON.stringify({ program: { op: "timeoutMs" } }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Unknown operation 'timeoutMs'");
  });
});

// Issue 33 point 7: a run of the MCP gateway (run --mcp-config) that stops at a call
// needing approval is resumed with the same --mcp-config.
describe("resume --mcp-config", () => {
  test("a gateway run suspended at an approval resumes with its servers; the hint says how", () => {
    const config = file("gateway.json", {
      mcpServers: {
        everything: { command: path.join(root, "node_modules/.bin/mcp-server-everything"), approval: true },
      },
    });
    const program = file("echo.json", { program: { op: "call", tool: "everything.echo", args: { message: "hi" } } });
    const state = path.join(tmp, "gateway-state.json");
    const first = cli(["run", program, "--mcp-config", config, "--state-out", state]);
    expect(first.code).toBe(4);
    expect(first.stderr).toContain(`resume with: ptc-wasm resume ${state} --results <file> --mcp-config ${config}`);
    const [held] = JSON.parse(fs.readFileSync(state, "utf8")).pending;
    const results = file("gateway-results.json", { [held.id]: { approved: true } });
    const done = cli(["resume", state, "--results", results, "--mcp-config", config]);
    expect({ code: done.code, stdout: done.stdout, stderr: done.stderr }).toEqual({
      code: 0,
      stdout: `${JSON.stringify("Echo: hi")}\n`,
      stderr: "",
    });
  }, 120_000);
});
