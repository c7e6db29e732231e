// ptc-wasm/mcp: an MCP server (the official SDK's McpServer) exposing
//   run_program({program, context?})  runs a program; the description is the compact prompt.
//     When a tool writes, run_program is read-only (a program that calls a write is
//     refused before it runs) and run_program_writes runs the programs that write
//     (mcp-read-only.ts): a host need not ask before every program, only before
//     those that may write, on top of the per-call approvals
//   run_workflow({functions, input?, entry?})  runs a step-function file; the description points to its
//     language. Split as run_program is when a tool writes: run_workflow read-only, run_workflow_writes
//     for the files that write
//   describe_language({topic?, compact?, language?})  details on demand: an op, a family, an error code,
//     the step-function dialect; no topic: the full prompt of PTC-JSON (or of step functions)
// The input schemas are minimal by default (every model step carries them, and
// the engine's errors name every fix); schema: "full" sends the generated JSON Schemas.
// Results are JSON text content; a failed program is an isError result whose text
// is the formatted error. Memory carries over between run_program calls. A call
// of a tool that needs approval is put to the client's user (elicitation); with a
// stateKey, a client without elicitation gets the held calls and the signed state
// (of a program or a step-function file), which resume_program resumes, as often
// as the run holds again (mcp-resume.ts). Over
// stdio, a message longer than maxMessageBytes gets a JSON-RPC error (mcp-stdio.ts).
//
// The MCP SDK and zod are optional peer dependencies: loaded on first use, with
// a message saying what to install when they are missing.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { checkedOptions } from "../run/checks.js";
import { declarations } from "../run/descriptors.js";
import { StdioTransport } from "./mcp-stdio.js";
import { registerDescribeTools, shownTools } from "./mcp-catalog.js";
import { loadPeers } from "./peers.js";
import type { PtcRuntime } from "../runtimes/runtime.js";
import { formatWarnings } from "../runtimes/format.js";
import { HeldPrograms } from "./mcp-resume.js";
import { READ_ONLY_RUN, ReadOnlyPrograms, WORKFLOW_WRITES_DESCRIPTION, WRITES_DESCRIPTION } from "./mcp-read-only.js";
import {
  ProgramSession,
  runWorkflowFor,
  storedNote,
  type ApproveCall,
  type SessionMemory,
  type SessionOptions,
  type SessionOutcome,
} from "./session.js";
import type { JsonObject, PendingCall, Tool } from "../types/public.js";
import { shownJson } from "../util/shown-text.js";
import {
  CONTEXT_INPUT_DESCRIPTION,
  ENTRY_INPUT_DESCRIPTION,
  FUNCTIONS_INPUT_DESCRIPTION,
  OUTPUT_INPUT_DESCRIPTION,
  STEPS_INPUT_DESCRIPTION,
  PROGRAM_INPUT_DESCRIPTION,
  WORKFLOW_INPUT_DESCRIPTION,
  schemaForm,
  type SchemaForm,
} from "../run/tool-input.js";
import { VERSION } from "../util/version.js";

export interface PtcMcpServerOptions extends SessionOptions {
  /** Server name reported to clients (default "ptc-wasm"). */
  name?: string;
  version?: string;
  /**
   * Bytes of one message serveStdio reads (default 10 MiB). A longer message
   * is skipped and answered with a JSON-RPC error; the server stays up. With
   * createMcpServer on stdio, pass it to `new StdioTransport(maxMessageBytes)`.
   */
  maxMessageBytes?: number;
  /** The tools' input schemas: "minimal" (default) or "full" (the generated JSON Schemas, for constrained decoding). */
  schema?: SchemaForm;
}

export { DEFAULT_MAX_MESSAGE_BYTES, StdioTransport } from "./mcp-stdio.js";
export type { SessionMemory } from "./session.js";
export {
  mcpTools,
  McpConfigError,
  type McpConfig,
  type McpServerEntry,
  type McpServerPolicy,
  type McpToolPolicy,
  type McpTools,
  type McpWarning,
} from "./mcp-gateway.js";

export const RUN_PROGRAM = "run_program";
export const RUN_WORKFLOW = "run_workflow";
export const DESCRIBE_LANGUAGE = "describe_language";
export const RUN_PROGRAM_WRITES = "run_program_writes";
export const RUN_WORKFLOW_WRITES = "run_workflow_writes";

interface McpPeers {
  McpServer: typeof import("@modelcontextprotocol/sdk/server/mcp.js").McpServer;
  z: typeof import("zod");
}

function mcpPeers(): McpPeers {
  return loadPeers("ptc-wasm mcp", ["@modelcontextprotocol/sdk", "zod"], (require) => ({
    McpServer: require("@modelcontextprotocol/sdk/server/mcp.js").McpServer,
    z: require("zod"),
  }));
}

/** The MCP server of createMcpServer: an McpServer with its session's memory (read, set, clear). */
export type PtcMcpServer = McpServer & { readonly memory: SessionMemory };

/** An McpServer with run_program, run_workflow and describe_language; connect it to any transport. */
export function createMcpServer(runtime: PtcRuntime, options: PtcMcpServerOptions = {}): PtcMcpServer {
  const { McpServer, z } = mcpPeers();
  const server = new McpServer({ name: options.name ?? "ptc-wasm", version: options.version ?? VERSION });
  const session = new ProgramSession(runtime, { ...options, approve: options.approve ?? askTheUser(server) });
  Object.defineProperty(server, "memory", { value: session.memoryAccess });
  // Upstream tools ("<server>.<tool>") are listed per server and described on demand (mcp-catalog.ts).
  const tools = shownTools(options.tools ?? {});
  // The session's context stays in the engine while the server is connected.
  const onclose = server.server.onclose;
  server.server.onclose = () => {
    session.close();
    onclose?.();
  };

  // With a stateKey, a client without elicitation gets held runs to resume (mcp-resume.ts).
  const held = new HeldPrograms(server, session, options.approve);
  // With tools that write, run_program is read-only and run_program_writes runs the programs that write.
  const readOnly = new ReadOnlyPrograms(runtime, options.tools ?? {});
  server.registerTool(
    RUN_PROGRAM,
    {
      title: "Run a PTC-JSON program",
      description:
        runtime.prompt({
          tools: tools.prompt,
          context: options.context,
          compact: true,
          describeTool: DESCRIBE_LANGUAGE,
        }) + readOnly.note,
      inputSchema: programInput(runtime, options, z),
      annotations: readOnly.split ? READ_ONLY_RUN : runAnnotations(options.tools ?? {}),
    },
    async ({ program, context }, extra) => {
      // (An input without "program" never gets here: the SDK's schema check names the key.)
      // extra.signal: aborted when the client cancels this call (notifications/cancelled).
      const refused = readOnly.refusal(program);
      if (refused) return programResult(refused);
      const given = context as Record<string, unknown> | undefined;
      if (held.holds()) return held.run(program, given, programResult, extra?.signal);
      return programResult(await session.run(program, given, undefined, extra?.signal));
    },
  );
  if (readOnly.split) registerRunProgramWrites(server, runtime, session, options, z, held);
  held.register(z, programResult);

  registerRunWorkflow(server, runtime, session, options, z, readOnly, held);
  registerDescribeTools(server, options.tools ?? {}, z);

  server.registerTool(
    DESCRIBE_LANGUAGE,
    {
      title: "Describe PTC-JSON or step functions",
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      description:
        'Details of the languages on demand. topic: an operation of run_program ("date_diff"), a family ' +
        '("dates"), an error code ("tool_failed"), or "step-functions" (the files run_workflow runs). No topic: ' +
        'the full reference of PTC-JSON (language "step-functions": of step functions).',
      inputSchema: {
        topic: z.string().optional().describe("an operation, family, error code or dialect"),
        compact: z.boolean().optional().describe("the short form of a whole language"),
        language: z.enum(["ptc-json", "step-functions"]).optional().describe('default "ptc-json"'),
      },
    },
    async ({ topic, compact, language }) => {
      const short = compact === true;
      const text =
        language === "step-functions" && topic === undefined
          ? runtime.workflowPrompt({ tools: tools.prompt, compact: short })
          : runtime.describeLanguage({ topic, tools: tools.prompt, context: options.context, compact: short });
      return { content: [{ type: "text" as const, text }] };
    },
  );
  return server as PtcMcpServer;
}

/** A program's outcome as run_program and run_program_writes answer it. */
function programResult(outcome: SessionOutcome) {
  if (!outcome.ok) {
    // The text is for the model; _meta.code for a host that branches on the error (docs/errors.md).
    const content = [{ type: "text" as const, text: outcome.message }];
    return { isError: true, content, _meta: { code: outcome.error.code } };
  }
  const content = [{ type: "text" as const, text: JSON.stringify(outcome.result) }];
  if (outcome.stored.length) content.push({ type: "text" as const, text: storedNote(outcome.stored) });
  const warnings = formatWarnings(outcome.warnings);
  if (warnings) content.push({ type: "text" as const, text: warnings });
  return { content };
}

// run_program_writes: run_program for the programs that call tools that write
// (registered only when some tool writes). Its input and memory are
// run_program's; its annotations say it may write, so a host may ask before
// it, as it need not before the read-only run_program.
function registerRunProgramWrites(
  server: McpServer,
  runtime: PtcRuntime,
  session: ProgramSession,
  options: PtcMcpServerOptions,
  z: McpPeers["z"],
  held: HeldPrograms,
) {
  server.registerTool(
    RUN_PROGRAM_WRITES,
    {
      title: "Run a PTC-JSON program that writes",
      description: WRITES_DESCRIPTION,
      // run_program's input, whose descriptions the model has read there (full: the whole schema, as there).
      inputSchema:
        schemaForm(options.schema) === "full"
          ? programInput(runtime, options, z)
          : z.object({
              program: z.unknown().meta({ type: "object" }),
              context: z.record(z.string(), z.unknown()).optional(),
            }),
      annotations: runAnnotations(options.tools ?? {}),
    },
    // extra.signal: aborted when the client cancels this call, as run_program's.
    async ({ program, context }, extra) => {
      const given = context as Record<string, unknown> | undefined;
      if (held.holds()) return held.run(program, given, programResult, extra?.signal);
      return programResult(await session.run(program, given, undefined, extra?.signal));
    },
  );
}

// run_program's input: {program, context?}. zod carries the schema through as
// metadata and checks nothing itself, so a bad program reaches the engine and
// comes back as its formatted error. Full: the program schema (from the op table).
function programInput(runtime: PtcRuntime, options: PtcMcpServerOptions, z: McpPeers["z"]) {
  const tools = shownTools(options.tools ?? {}).schema;
  const full = schemaForm(options.schema) === "full" ? runtime.schema({ tools }) : undefined;
  const program = full ? (full.properties as Record<string, object>).program : { type: "object" };
  return z
    .object({
      program: z.unknown().meta({ ...program, description: PROGRAM_INPUT_DESCRIPTION }),
      context: z.record(z.string(), z.unknown()).optional().meta({ description: CONTEXT_INPUT_DESCRIPTION }),
    })
    .meta(full ? { $defs: full.$defs } : {});
}

// run_workflow's input: the step-function file with the entry's input and name;
// like run_program's, zod checks nothing, so a bad file comes back as the
// engine's formatted error. Full: the file's schema (from the step table).
function workflowInput(runtime: PtcRuntime, options: PtcMcpServerOptions, z: McpPeers["z"]) {
  const tools = shownTools(options.tools ?? {}).schema;
  const full = schemaForm(options.schema) === "full" ? runtime.workflowSchema({ tools }) : undefined;
  const fullProperties = full?.properties as Record<string, Record<string, unknown>> | undefined;
  const functions: Record<string, unknown> = fullProperties
    ? (fullProperties.functions ?? {})
    : { type: ["array", "string"], description: FUNCTIONS_INPUT_DESCRIPTION };
  const steps = fullProperties?.steps ?? { type: "array", description: STEPS_INPUT_DESCRIPTION };
  return z
    .object({
      functions: z.unknown().optional().meta(functions),
      steps: z.unknown().optional().meta(steps),
      output: z.string().optional().meta({ description: OUTPUT_INPUT_DESCRIPTION }),
      input: z.record(z.string(), z.unknown()).optional().meta({ description: WORKFLOW_INPUT_DESCRIPTION }),
      entry: z.string().optional().meta({ description: ENTRY_INPUT_DESCRIPTION }),
    })
    .meta(full ? { $defs: full.$defs } : {});
}

// run_workflow's description points to its language rather than carrying it:
// every model step pays for tools/list, and most sessions never write a step
// function (PTC-JSON's run_program does the same work).
const WORKFLOW_DESCRIPTION =
  "Runs a step-function file: functions whose steps call tools, verified before they run; returns the entry " +
  "function's value. Before writing one, read the dialect once: describe_language with topic " +
  '"step-functions" (compact: true for its short form, about 800 tokens).';

function registerRunWorkflow(
  server: McpServer,
  runtime: PtcRuntime,
  session: ProgramSession,
  options: PtcMcpServerOptions,
  z: McpPeers["z"],
  readOnly: ReadOnlyPrograms,
  held: HeldPrograms,
) {
  // extra.signal: aborted when the client cancels this call (notifications/cancelled).
  // A client without elicitation gets the file's held calls and its signed state, as run_program's (mcp-resume.ts).
  const run = async (request: unknown, signal?: AbortSignal) =>
    held.holds()
      ? held.runWorkflow(request, workflowResult, signal)
      : workflowResult(await runWorkflowFor(session, request, signal));
  server.registerTool(
    RUN_WORKFLOW,
    {
      title: "Run a step-function file",
      description: WORKFLOW_DESCRIPTION + readOnly.workflowNote,
      inputSchema: workflowInput(runtime, options, z),
      annotations: readOnly.split ? READ_ONLY_RUN : runAnnotations(options.tools ?? {}),
    },
    async (request, extra) => {
      const refused = readOnly.workflowRefusal(request);
      return refused ? workflowResult(refused) : run(request, extra?.signal);
    },
  );
  if (!readOnly.split) return;
  // run_workflow_writes: run_workflow for the files that call tools that write (as run_program_writes).
  server.registerTool(
    RUN_WORKFLOW_WRITES,
    {
      // No title, and the schema's bare bones: the model read run_workflow's (tools/list is in every step).
      description: WORKFLOW_WRITES_DESCRIPTION,
      inputSchema:
        schemaForm(options.schema) === "full"
          ? workflowInput(runtime, options, z)
          : z.object({ functions: z.unknown(), input: z.unknown().optional(), entry: z.unknown().optional() }),
      annotations: runAnnotations(options.tools ?? {}),
    },
    async (request: unknown, extra: { signal?: AbortSignal }) => run(request, extra?.signal),
  );
}

/** A step-function file's outcome as run_workflow and run_workflow_writes answer it. */
function workflowResult(outcome: SessionOutcome) {
  if (!outcome.ok)
    return {
      isError: true,
      content: [{ type: "text" as const, text: outcome.message }],
      _meta: { code: outcome.error.code },
    };
  const content = [{ type: "text" as const, text: JSON.stringify(outcome.result) }];
  const warnings = formatWarnings(outcome.warnings);
  if (warnings) content.push({ type: "text" as const, text: warnings });
  return { content };
}

/** The most characters of args a person is shown to approve a call; a call with more is denied unasked. */
const MAX_SHOWN_ARGS = 2000;

// The args as a person must see them to decide: every one, whole, one per line,
// keys sorted and every key and text quoted and escaped as JSON, so that no
// arg hides another past a cut and no text of the program's reads as the host's.
function shownArgs(args: JsonObject): string {
  return Object.keys(args)
    .sort()
    .map((key) => `  ${shownJson(key)}: ${shownJson(args[key])}`)
    .join("\n");
}

/** The prompt for a held call, or why the call cannot be put to a person. */
function approvalPrompt(call: PendingCall): { message: string } | { refused: string } {
  const args = shownArgs(call.args);
  if (args.length > MAX_SHOWN_ARGS)
    return {
      refused:
        `its args take ${args.length} characters to show, more than the ${MAX_SHOWN_ARGS} a person is shown ` +
        `to approve a call: call the tool with smaller args`,
    };
  const what = call.reason === "deferred" ? "wants the host to run" : "asks to call";
  const listed = args ? `with these args (every one, as JSON):\n${args}` : "with no args";
  return {
    message: `A program ${what} the tool ${shownJson(call.tool)} at ${shownJson(call.path)} ${listed}\nAllow it?`,
  };
}

/**
 * What a host may assume of run_program and run_workflow (MCP tool
 * annotations): read-only when every tool is a read, destructive when one is
 * a write, open-world when there are tools (the sandbox itself reaches nothing).
 */
function runAnnotations(tools: Record<string, Tool>) {
  const writes = Object.values(tools).some((tool) => declarations(tool)?.effect === "write");
  const any = Object.keys(tools).length > 0;
  return { readOnlyHint: !writes, destructiveHint: writes, idempotentHint: !any, openWorldHint: any };
}

/**
 * The default approver of an MCP session: asks the client's user through
 * elicitation (a form with "allow" and a reason), where the client can; a
 * client that cannot, a call too long to show, or a user who declines or
 * cancels, denies the call.
 */
function askTheUser(server: McpServer): ApproveCall {
  // signal: aborted when run_program's call is cancelled; the elicitation request is then cancelled too.
  return async (call, { signal }) => {
    if (!server.server.getClientCapabilities()?.elicitation)
      return { approved: false, reason: "the MCP client cannot ask its user (it does not support elicitation)" };
    const prompt = approvalPrompt(call);
    if ("refused" in prompt) return { approved: false, reason: prompt.refused };
    const answer = await server.server.elicitInput(
      {
        message: prompt.message,
        requestedSchema: {
          type: "object",
          properties: {
            allow: { type: "boolean", title: `Allow ${shownJson(call.tool)}` },
            reason: { type: "string", title: "Why not (optional)" },
          },
          required: ["allow"],
        },
      },
      { signal },
    );
    if (answer.action !== "accept") return { approved: false, reason: `the user chose to ${answer.action}` };
    if (answer.content?.allow === true) return { approved: true };
    const reason = answer.content?.reason;
    return { approved: false, reason: typeof reason === "string" && reason ? reason : "the user said no" };
  };
}

/** Serves run_program, run_workflow and describe_language over stdio until the input ends. */
export async function serveStdio(runtime: PtcRuntime, options: PtcMcpServerOptions = {}): Promise<PtcMcpServer> {
  const { maxMessageBytes } = checkedOptions(options, ["maxMessageBytes"]);
  const server = createMcpServer(runtime, options);
  await server.connect(new StdioTransport(maxMessageBytes));
  return server;
}
