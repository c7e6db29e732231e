// The command line: npx ptc-wasm <command> ... (see USAGE). Exit codes: 0 ok,
// 1 the program failed (its formatted error is on stderr), 2 bad usage.
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { limitAccepts, limitRule, type LimitName } from "./run/checks.js";
import { describeThrown } from "./util/describe.js";
import { formatWarnings } from "./runtimes/format.js";
import { approximateTokens, createRuntime, isToolDescriptor } from "./node.js";
import type { Runtime } from "./runtimes/runtime.js";
import { escapeControls, shownJson } from "./util/shown-text.js";
import { SESSION_TIMEOUT_MS } from "./agents/session.js";
import { keptMemory } from "./agents/memory-file.js";
import { MCP_FLAGS, STATE_KEY_FILE, STATE_KEY_HELP, stateKeyOf } from "./cli-mcp-options.js";
import { VERSION } from "./util/version.js";
import { stopOnSignals } from "./util/stop-signals.js";
import type {
  CallResult,
  JournalEntry,
  ProgramInput,
  RunOptions,
  RunResult,
  SuspendedState,
  Tool,
} from "./types/public.js";
import type { WorkflowResult } from "./types/step-functions.js";

const USAGE = `Usage: ptc-wasm <command> [options]

Run, check and describe PTC-JSON programs (the JSON data-pipeline language LLM
agents write) in the ptc-wasm sandbox.

Commands:
  run <program.json | ->       Run a program; prints its result as JSON on stdout.
  resume <state.json | ->      Continue a suspended run (see --state-out) with its pending calls'
                               results (--results); prints as run does.
  validate <program.json | ->  Check a program without running it; prints "ok" (warnings on stderr).
  schema                       Print the JSON Schema (draft 2020-12) of a program.
  prompt                       Print the system prompt that teaches a model the language.
  mcp                          Serve run_program, run_workflow and describe_language as an MCP
                               server over stdio (with --mcp-config: in front of MCP servers).
  playground                   Serve the playground on localhost, or write it out (--out <dir>);
                               see 'ptc-wasm playground --help'.
  help                         Print this help.

Options:
  --context <file | ->   JSON object of context data, read with "$key" or {"op": "load"} (run, mcp, prompt, validate)
  --memory <file | ->    JSON object of memory from earlier runs, read with "$key" or {"op": "var"} (run, mcp)
  --memory-out <file>    Write the memory after the run (the memory contract) to a file (run); mcp:
                         at start and after each program that stores keys (restart with --memory)
  --tools <module>       A JS module whose exports are tools: functions or descriptors
                         {description, parameters, execute} (run, validate, schema, prompt, mcp).
                         An exported function named dispose or close is no tool: it is called
                         when the command ends (close the module's connections there)
  --mcp-config <file>    MCP servers whose tools programs call as "<server>.<tool>": a JSON file
                         {"mcpServers": {"<name>": {"command", "args", "env"} | {"url", "headers"}}},
                         as MCP clients write it (run, resume, prompt, mcp). A server's annotations
                         count only with "trustAnnotations": true; every other tool is a write
                         that asks for approval before each call. Per server, "approval":
                         true|false|"destructive" and "tools": {"<tool>": {"effect": "read" |
                         "write", "approval": true|false}} say what is a read and what asks.
                         Resume a gateway run with the same --mcp-config
  --timeout <ms>         Time limit of a run, tool calls included (default 1000; mcp, and run
                         with --mcp-config: 30000, as real tools take hundreds of ms a call)
  --max-heap <bytes>     Bytes of values a run may hold (default 10485760)
  --max-depth <n>        Deepest nesting of operations (default 50, at most 500)
  --max-message-bytes <n>
                         Bytes of one MCP message the server reads (default 10485760);
                         a longer one gets a JSON-RPC error, the server stays up (mcp)
  --max-tool-calls <n>   Tool calls a run may make (default 1000; a resumed run keeps its own) (run, mcp)
  --max-concurrency <n>  Tool calls out at once (default 8) (run, resume, mcp)
  --tool-timeout <ms>    Time limit of one tool call (default: none) (run, resume, mcp)
  --journal <file>       Write the run's tool I/O (the journal) to a file, for --replay (run, resume)
  --replay <file | ->    Answer tool calls from a journal instead of the tools (run)
  --state-out <file>     When the run stops at calls needing approval, write its state to
                         a file for 'resume' (run, resume)
  --results <file | ->   The pending calls' results by id: {"<pending id>": {"approved": true}, ...},
                         or {"value": ...}, {"error": "..."}, {"approved": false, "reason": "..."} (resume)
  --full                 Print the whole run result {result, memoryDelta, memory, metrics} (run, resume);
                         a failed run prints {ok: false, error: {type, code, message, ...}} too
  --compact              The compact prompt, for small context windows (prompt)
  --workflow             Of step functions, the second dialect, instead of PTC-JSON (schema, prompt)
  --full-schema          Tool input schemas as the generated JSON Schemas (about 25,000 tokens)
                         instead of the minimal {program} and {functions} (mcp)
${STATE_KEY_HELP}
  -h, --help             Print this help.
  -v, --version          Print the version.

"-" reads the file from standard input (once per command).
A program file holds {"program": {"op": ...}}.

Exit codes: 0 success; 1 the program failed (parse, validation or execution
error, timeout, memory exceeded: the formatted error is printed on stderr);
2 bad usage (unknown command or option, missing or unreadable file, 'mcp'
without its optional dependencies, a wrong --mcp-config or a server of it that
cannot be reached); 3 an internal failure of ptc-wasm itself;
4 the run is suspended at calls needing approval (they are listed on stderr,
the state is written to --state-out).

Examples:
  ptc-wasm run program.json --context data.json
  echo '{"program": {"op": "add", "left": 1, "right": 2}}' | ptc-wasm run -
  ptc-wasm prompt --compact --tools ./tools.mjs
  ptc-wasm mcp --tools ./tools.mjs --context data.json
  ptc-wasm mcp --mcp-config mcp.json        # in front of the MCP servers of mcp.json
  ptc-wasm run refunds.json --tools ./tools.mjs --state-out state.json   # exit 4: suspended
  ptc-wasm resume state.json --results approvals.json --tools ./tools.mjs
  ptc-wasm resume state.json --results approvals.json --mcp-config mcp.json
`;

class UsageError extends Error {}

interface Parsed {
  command: string;
  positional: string[];
  options: Map<string, string | true>;
}

const VALUED = new Set([
  "--context",
  "--memory",
  "--memory-out",
  "--tools",
  "--timeout",
  "--max-heap",
  "--max-depth",
  "--max-message-bytes",
  "--max-tool-calls",
  "--max-concurrency",
  "--tool-timeout",
  "--journal",
  "--replay",
  "--state-out",
  "--results",
  "--mcp-config",
  STATE_KEY_FILE,
]);
const FLAGS = new Set(["--full", "--compact", "--workflow", "--full-schema", "--help", "--version"]);
const TOOL_LIMITS = ["--max-tool-calls", "--max-concurrency", "--tool-timeout"];
const ALLOWED: Record<string, string[]> = {
  run: [
    "--context",
    "--memory",
    "--memory-out",
    "--tools",
    "--timeout",
    "--max-heap",
    "--max-depth",
    "--full",
    ...TOOL_LIMITS,
    "--mcp-config",
    "--journal",
    "--replay",
    "--state-out",
  ],
  resume: [
    "--results",
    "--context",
    "--memory-out",
    "--tools",
    "--timeout",
    "--full",
    "--max-concurrency",
    "--tool-timeout",
    "--journal",
    "--state-out",
    "--mcp-config",
  ],
  validate: ["--tools", "--max-depth", "--context"],
  schema: ["--tools", "--workflow"],
  prompt: ["--tools", "--context", "--compact", "--workflow", "--mcp-config"],
  mcp: [...MCP_FLAGS, ...TOOL_LIMITS],
  help: [],
};
const ARITY: Record<string, number> = { run: 1, resume: 1, validate: 1, schema: 0, prompt: 0, mcp: 0, help: 0 };

function parse(argv: string[]): Parsed {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i]!;
    if (arg === "-h") arg = "--help";
    if (arg === "-v") arg = "--version";
    if (arg === "-" || !arg.startsWith("-")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (VALUED.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "") throw new UsageError(`${name} needs a value`);
      options.set(name, value);
    } else if (FLAGS.has(name) && eq < 0) options.set(name, true);
    else throw new UsageError(`unknown option '${arg}'`);
  }
  return { command: positional.shift() ?? "", positional, options };
}

let stdinUsed = false;
async function readInput(file: string, what: string): Promise<string> {
  if (file === "-") {
    if (stdinUsed) throw new UsageError("standard input (-) can be read only once");
    stdinUsed = true;
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new UsageError(
      `cannot read the ${what} file '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
}

async function readObject(file: string, what: string): Promise<Record<string, unknown>> {
  const text = await readInput(file, what);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`the ${what} file '${file}' is not JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new UsageError(`the ${what} file '${file}' must hold a JSON object`);
  return value as Record<string, unknown>;
}

// What the command closes when it ends: a tools module's dispose/close, the MCP gateway's connections.
const disposers: (() => unknown)[] = [];
const HOOKS = new Set(["dispose", "close"]);

async function disposeAll(): Promise<void> {
  for (const dispose of disposers.splice(0).reverse()) {
    try {
      await dispose();
    } catch (e) {
      process.stderr.write(`ptc-wasm: closing failed: ${describeThrown(e)}\n`);
    }
  }
}

/**
 * Tools from a module's exports: named exports, and the entries of a
 * default-exported object. A function named dispose or close is the module's
 * hook, called when the command ends, not a tool.
 */
export async function loadTools(file: string): Promise<Record<string, Tool>> {
  let mod: Record<string, unknown>;
  try {
    mod = await import(pathToFileURL(resolve(file)).href);
  } catch (e) {
    throw new UsageError(`cannot load the tools module '${file}': ${describeThrown(e)}`);
  }
  const isTool = (v: unknown): v is Tool => typeof v === "function" || isToolDescriptor(v);
  const tools: Record<string, Tool> = {};
  const fallback = mod.default;
  const entries = [
    ...(fallback && typeof fallback === "object" && !isToolDescriptor(fallback) ? Object.entries(fallback) : []),
    ...Object.entries(mod).filter(([name]) => name !== "default"),
  ];
  for (const [name, value] of entries) {
    if (HOOKS.has(name) && typeof value === "function") disposers.push(value as () => unknown);
    else if (isTool(value)) tools[name] = value;
  }
  if (!Object.keys(tools).length)
    throw new UsageError(
      `the tools module '${file}' exports no tools (export functions or {description, parameters, execute} descriptors)`,
    );
  return tools;
}

// A limit flag, checked as the runtime checks the option it sets (checks.ts).
function limitFlag(options: Parsed["options"], flag: string, limit: LimitName): number | undefined {
  const raw = options.get(flag);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!limitAccepts(limit, n)) throw new UsageError(`${flag} must be ${limitRule(limit)}, got '${String(raw)}'`);
  return n;
}

// Everything the CLI prints goes through here. Much of it is the program's
// (op names in errors, keys in paths, results): its control characters would
// be the terminal's commands, so they are escaped (shown-text.ts); JSON stays
// the same data.
function write(stream: NodeJS.WriteStream, text: string): void {
  stream.write(escapeControls(text.endsWith("\n") ? text : `${text}\n`));
}

async function readJournal(file: string): Promise<JournalEntry[]> {
  const text = await readInput(file, "journal");
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) return value as JournalEntry[]; // the runtime checks each entry
  } catch (e) {
    throw new UsageError(`the journal file '${file}' is not JSON: ${(e as Error).message}`);
  }
  throw new UsageError(`the journal file '${file}' must hold a JSON list (what --journal writes)`);
}

// Control characters (a newline, ESC) become spaces: the text stays one line on a terminal.
const oneLine = (text: string) =>
  Array.from(text, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code < 0xa0) ? " " : c;
  }).join("");

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

// ---- Errors in the CLI's words -------------------------------------------------------
// The runtime's messages name its API options ("(timeoutMs)", "raise maxHeapBytes");
// a CLI user sets them with flags. A resumed run keeps the heap, depth and tool-call
// limits of the run that wrote its state (resume takes no such flag).
const FLAG_OF: Record<string, string> = {
  timeoutMs: "--timeout",
  toolTimeoutMs: "--tool-timeout",
  maxHeapBytes: "--max-heap",
  maxDepth: "--max-depth",
  maxToolCalls: "--max-tool-calls",
  maxConcurrency: "--max-concurrency",
  maxMessageBytes: "--max-message-bytes",
};
const KEPT_BY_STATE = new Set(["maxHeapBytes", "maxDepth", "maxToolCalls"]);
// An option's name as a word of the message, not a quoted name or a field (limits.maxDepth) of the program's or state's.
const OPTION_NAME = new RegExp(`(?<![\\w$.'"\`-])(${Object.keys(FLAG_OF).join("|")})(?![\\w'"\`])`, "g");

/** A message with each API option it names replaced by the CLI flag that sets it. */
function inFlags(message: string, command: string): string {
  return message.replace(OPTION_NAME, (name) =>
    command === "resume" && KEPT_BY_STATE.has(name)
      ? `${FLAG_OF[name]!} (of the run that wrote the state: resume keeps its limits)`
      : FLAG_OF[name]!,
  );
}

/** A result as --full prints it: its error's message in the CLI's words. */
function inFlagsResult(r: RunResult | WorkflowResult, command: string, options: Parsed["options"]): unknown {
  if (r.ok) return r;
  let message = inFlags(r.error.message, command);
  if (r.status === "suspended")
    message = message.replace(/call runtime\.resume\(state, \{ results, tools \}\)$/, `resume: ${resumeHint(options)}`);
  return { ...r, error: { ...r.error, message } };
}

/** A state refused by resume: a signed state (stateKey) is the API's, which the CLI cannot sign or check. */
function badStateMessage(message: string): string {
  return message.includes("stateKey")
    ? `${message} (ptc-wasm resume takes no key: resume a signed state where it was signed, with runtime.resume and its stateKey)`
    : message;
}

/** How to resume a suspended run: the same command line's tools, servers and context. */
function resumeHint(options: Parsed["options"]): string {
  const state = options.get("--state-out");
  if (typeof state !== "string") return "pass --state-out <file> to keep the state and resume it";
  const same = ["--tools", "--mcp-config", "--context"]
    .filter((flag) => typeof options.get(flag) === "string" && options.get(flag) !== "-")
    .map((flag) => ` ${flag} ${options.get(flag) as string}`)
    .join("");
  const fromStdin = options.get("--context") === "-" ? " (and the same --context)" : "";
  return `resume with: ptc-wasm resume ${state} --results <file>${same}${fromStdin}`;
}

// What run and resume print and write, and their exit code.
async function report(
  runtime: Runtime,
  r: RunResult | WorkflowResult,
  command: string,
  options: Parsed["options"],
  program?: ProgramInput,
): Promise<number> {
  const full = options.has("--full");
  if (options.has("--journal") && r.journal) await writeFile(options.get("--journal") as string, json(r.journal));
  if (r.status === "suspended") {
    if (options.has("--state-out")) await writeFile(options.get("--state-out") as string, json(r.state));
    if (full) write(process.stdout, JSON.stringify(inFlagsResult(r, command, options), null, 2));
    // One line per call, whatever its tool, args and path hold: each is JSON.
    const calls = r.pending.map(
      (p) => `  ${p.id}: ${shownJson(p.tool)} ${shownJson(p.args)} at ${shownJson(p.path)} (${p.reason})`,
    );
    const next = resumeHint(options);
    write(
      process.stderr,
      `The run is suspended at ${r.pending.length} call(s) needing a decision:\n${calls.join("\n")}\n${next}`,
    );
    return 4;
  }
  // Warnings go to stderr with the result: what the program read that is not there.
  const warnings = formatWarnings(r.warnings);
  if (!r.ok) {
    if (full) write(process.stdout, JSON.stringify(inFlagsResult(r, command, options), null, 2)); // {ok, error: {type, code, ...}}
    const error = { ...r.error, message: inFlags(r.error.message, command) };
    return (write(process.stderr, runtime.formatError(error, program) + (warnings ? "\n" + warnings : "")), 1);
  }
  if (warnings) write(process.stderr, warnings);
  if (options.has("--memory-out") && "memory" in r)
    await writeFile(options.get("--memory-out") as string, json(r.memory));
  write(process.stdout, JSON.stringify(full ? r : r.result, null, 2));
  return 0;
}

// The --tools module's tools and the --mcp-config servers' ones ("<server>.<tool>").
async function toolsOf(options: Parsed["options"]): Promise<Record<string, Tool> | undefined> {
  const own = options.has("--tools") ? await loadTools(options.get("--tools") as string) : undefined;
  if (!options.has("--mcp-config")) return own;
  const { mcpTools } = await import("./agents/mcp.js");
  const gateway = await mcpTools(options.get("--mcp-config") as string);
  disposers.push(gateway.close);
  // What the gateway left out or changed of a server's (its text escaped: it is the server's).
  for (const { server, tool, message } of gateway.warnings)
    write(
      process.stderr,
      `ptc-wasm: MCP server '${server}'${tool === undefined ? "" : `, tool ${shownJson(tool)}`}: ${escapeControls(message)}`,
    );
  return { ...gateway.tools, ...own };
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "playground") return (await import("./cli-playground.js")).playground(argv.slice(1));
  const { command, positional, options } = parse(argv);
  if (options.has("--version")) return (write(process.stdout, VERSION), 0);
  if (options.has("--help") || command === "help") return (write(process.stdout, USAGE), 0);
  if (!command) throw new UsageError("no command given");
  // Own keys only: "toString" or "constructor" is an unknown command, not Object's method.
  const allowed = Object.hasOwn(ALLOWED, command) ? ALLOWED[command] : undefined;
  if (!allowed) throw new UsageError(`unknown command '${command}'`);
  for (const name of options.keys())
    if (!allowed.includes(name)) throw new UsageError(`option ${name} does not apply to '${command}'`);
  if (positional.length !== ARITY[command])
    throw new UsageError(
      ARITY[command] ? `'${command}' takes one program file (or - for standard input)` : `'${command}' takes no file`,
    );

  const fromStdin = [
    ...positional,
    options.get("--context"),
    options.get("--memory"),
    options.get("--replay"),
    options.get("--results"),
  ].filter((v) => v === "-");
  if (fromStdin.length > 1) throw new UsageError("standard input (-) can be read only once");

  const tools = await toolsOf(options);
  const context = options.has("--context")
    ? await readObject(options.get("--context") as string, "context")
    : undefined;
  const memory = options.has("--memory") ? await readObject(options.get("--memory") as string, "memory") : undefined;
  const limits = {
    timeoutMs:
      limitFlag(options, "--timeout", "timeoutMs") ?? (options.has("--mcp-config") ? SESSION_TIMEOUT_MS : undefined),
    maxHeapBytes: limitFlag(options, "--max-heap", "maxHeapBytes"),
    maxDepth: limitFlag(options, "--max-depth", "maxDepth"),
    maxToolCalls: limitFlag(options, "--max-tool-calls", "maxToolCalls"),
    maxConcurrency: limitFlag(options, "--max-concurrency", "maxConcurrency"),
    toolTimeoutMs: limitFlag(options, "--tool-timeout", "toolTimeoutMs"),
  };
  const maxMessageBytes = limitFlag(options, "--max-message-bytes", "maxMessageBytes");
  const runtime: Runtime = await createRuntime();

  // From here `positional` holds exactly ARITY[command] files (checked above).
  switch (command) {
    case "schema": {
      const schema = options.has("--workflow")
        ? runtime.workflowSchema(tools ? { tools } : {})
        : runtime.schema(tools ? { tools } : {});
      return (write(process.stdout, JSON.stringify(schema, null, 2)), 0);
    }
    case "prompt": {
      const compact = options.has("--compact");
      if (options.has("--workflow") && context)
        throw new UsageError("option --context does not apply to step functions (--workflow): they take an input");
      const text = options.has("--workflow")
        ? runtime.workflowPrompt({ tools, compact })
        : runtime.prompt({ tools, context, compact });
      write(process.stdout, text);
      if (process.stderr.isTTY)
        write(
          process.stderr,
          `(${text.length} characters, ~${approximateTokens(text)} tokens estimated as characters/4)`,
        );
      return 0;
    }
    case "validate": {
      const program: ProgramInput = await readInput(positional[0]!, "program");
      const r = runtime.validate(program, { tools, maxDepth: limits.maxDepth, ...(context ? { context } : {}) });
      if (r.ok) {
        const warnings = formatWarnings(r.warnings);
        if (warnings) write(process.stderr, warnings);
        return (write(process.stdout, "ok"), 0);
      }
      return (
        write(process.stderr, runtime.formatError({ ...r.error, message: inFlags(r.error.message, command) }, program)),
        1
      );
    }
    case "run": {
      const program: ProgramInput = await readInput(positional[0]!, "program");
      const replay = options.has("--replay") ? await readJournal(options.get("--replay") as string) : undefined;
      const journal = options.has("--journal");
      // Without --memory-out nothing keeps the memory: a result beside stored keys is worth a warning.
      const singleTurn = !options.has("--memory-out");
      const runOptions: RunOptions = {
        context,
        memory,
        tools,
        ...limits,
        ...(replay ? { replay } : {}),
        journal,
        singleTurn,
      };
      const stop = stopOnSignals(); // SIGINT, SIGTERM: the run ends through its signal
      const r = await runtime.run(program, { ...runOptions, signal: stop.signal }).finally(stop.release);
      const code = await report(runtime, r, command, options, program);
      return stop.exitCode ?? code;
    }
    case "resume": {
      const state = await readObject(positional[0]!, "state");
      const results = options.has("--results") ? await readObject(options.get("--results") as string, "results") : {};
      const { timeoutMs, maxConcurrency, toolTimeoutMs } = limits;
      const resumed = await runtime.resume(state as unknown as SuspendedState, {
        results: results as Record<string, CallResult>,
        tools,
        context,
        timeoutMs,
        maxConcurrency,
        toolTimeoutMs,
        journal: options.has("--journal"),
      });
      // A state that cannot be resumed is bad input, as a bad flag is: one line, exit 2.
      if (!resumed.ok && resumed.error.code === "bad_state")
        return (process.stderr.write(`ptc-wasm: ${oneLine(badStateMessage(resumed.error.message))}\n`), 2);
      return report(runtime, resumed, command, options);
    }
    case "mcp": {
      const { serveStdio } = await import("./agents/mcp.js");
      const schema = options.has("--full-schema") ? ("full" as const) : ("minimal" as const);
      const kept = await keptMemory(options.get("--memory-out") as string | undefined, memory);
      const more = {
        maxMessageBytes,
        schema,
        onMemory: kept?.write,
        ...(await stateKeyOf(options.get(STATE_KEY_FILE) as string | undefined)),
      };
      const server = await serveStdio(runtime, { tools, context, memory, ...limits, ...more });
      // Serves until the client closes standard input; then the connections close and the CLI ends.
      await new Promise((done) => process.stdin.once("end", done).once("close", done));
      await server.close();
      await kept?.flushed();
      return 0;
    }
  }
  return 0;
}

// A reader that stops early (ptc-wasm schema | head -1) closes stdout: end quietly.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });

// The command's work is done: close what it opened, and end once stdout is written,
// even if a tools module left something open.
async function end(code: number): Promise<void> {
  process.exitCode = code;
  await disposeAll();
  process.stdout.write("", () => process.exit(code));
}

main(process.argv.slice(2)).then(
  (code) => end(code),
  (e) => {
    let code = 3;
    if (e instanceof UsageError) {
      write(process.stderr, `ptc-wasm: ${e.message}\nRun 'ptc-wasm --help' for usage.`);
      code = 2;
    } else if (
      ["ERR_PTC_MISSING_PEER", "ERR_PTC_MCP_CONFIG", "ERR_PTC_MEMORY_OUT", "ERR_PTC_STATE_KEY"].includes(
        (e as { code?: string }).code ?? "",
      )
    ) {
      // mcp without the MCP SDK (the message says what to install), a wrong --mcp-config, --memory-out or key file.
      write(process.stderr, `ptc-wasm: ${(e as Error).message}`);
      code = 2;
    } else {
      let text: string;
      try {
        text = (e as Error).stack ?? describeThrown(e);
      } catch {
        text = describeThrown(e);
      }
      write(process.stderr, `ptc-wasm: ${text}`);
    }
    return end(code);
  },
);
