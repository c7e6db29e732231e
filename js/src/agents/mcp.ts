// ptc-wasm/mcp: an MCP server (the official SDK's McpServer) exposing
//   run_program({program, context?})  runs a program; the description is the compact prompt
//   run_workflow({functions, input?, entry?})  runs a step-function file; the description is its compact prompt
//   describe_language({compact?, language?})  the full prompt of PTC-JSON (or of step functions)
// Results are JSON text content; a failed program is an isError result whose text
// is the formatted error. Memory carries over between run_program calls. A call
// of a tool that needs approval is put to the client's user (elicitation). Over
// stdio, a message longer than maxMessageBytes gets a JSON-RPC error (mcp-stdio.ts).
//
// The MCP SDK and zod are optional peer dependencies: loaded on first use, with
// a message saying what to install when they are missing.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { checkedOptions } from "../run/checks.js";
import { StdioTransport } from "./mcp-stdio.js";
import { loadPeers } from "./peers.js";
import type { PtcRuntime } from "../runtimes/runtime.js";
import { formatWarnings } from "../runtimes/format.js";
import { ProgramSession, runWorkflowFor, storedNote, type ApproveCall, type SessionOptions } from "./session.js";
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
}

export { DEFAULT_MAX_MESSAGE_BYTES, StdioTransport } from "./mcp-stdio.js";

export const RUN_PROGRAM = "run_program";
export const RUN_WORKFLOW = "run_workflow";
export const DESCRIBE_LANGUAGE = "describe_language";

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

/** An McpServer with run_program, run_workflow and describe_language; connect it to any transport. */
export function createMcpServer(runtime: PtcRuntime, options: PtcMcpServerOptions = {}): McpServer {
  const { McpServer, z } = mcpPeers();
  const server = new McpServer({ name: options.name ?? "ptc-wasm", version: options.version ?? VERSION });
  const session = new ProgramSession(runtime, { ...options, approve: options.approve ?? askTheUser(server) });
  const tools = options.tools ?? {};
  // The session's context stays in the engine while the server is connected.
  const onclose = server.server.onclose;
  server.server.onclose = () => {
    session.close();
    onclose?.();
  };

  // The input schema is the program schema (generated from the op table) with a
  // context property: zod carries it through as metadata, and checks nothing
  // itself, so a bad program reaches the engine and comes back as its formatted error.
  const { $defs, properties } = runtime.schema({ tools });
  const inputSchema = z
    .object({
      program: z.unknown().meta({
        ...(properties as Record<string, object>).program,
        description: 'The program\'s root operation, as in {"program": {"op": ...}}',
      }),
      context: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: 'Extra context data for this run, read with {"op": "load", "name": <key>}' }),
    })
    .meta({ $defs });

  server.registerTool(
    RUN_PROGRAM,
    {
      title: "Run a PTC-JSON program",
      description: runtime.prompt({ tools, context: options.context, compact: true }),
      inputSchema,
    },
    async ({ program, context }) => {
      // (An input without "program" never gets here: the SDK's schema check names the key.)
      const outcome = await session.run(program, context as Record<string, unknown> | undefined);
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
    },
  );

  registerRunWorkflow(server, runtime, session, z);

  server.registerTool(
    DESCRIBE_LANGUAGE,
    {
      title: "Describe PTC-JSON or step functions",
      description:
        "The full reference of PTC-JSON, the language run_program accepts: every operation with its fields and an " +
        'example, the memory contract, the error types and the available tools. With language "step-functions": ' +
        "the reference of the files run_workflow accepts.",
      inputSchema: {
        compact: z.boolean().optional().describe("the short form"),
        language: z.enum(["ptc-json", "step-functions"]).optional().describe('default "ptc-json"'),
      },
    },
    async ({ compact, language }) => {
      const short = compact === true;
      const text =
        language === "step-functions"
          ? runtime.workflowPrompt({ tools, compact: short })
          : runtime.prompt({ tools, context: options.context, compact: short });
      return { content: [{ type: "text" as const, text }] };
    },
  );
  return server;
}

// run_workflow: the input schema is the step-function file's schema (generated
// from the step table) with the entry's input and name; like run_program's,
// zod checks nothing, so a bad file comes back as the engine's formatted error.
function registerRunWorkflow(server: McpServer, runtime: PtcRuntime, session: ProgramSession, z: McpPeers["z"]) {
  const tools = session.options.tools ?? {};
  const { $defs, properties } = runtime.workflowSchema({ tools });
  const inputSchema = z
    .object({
      functions: z.unknown().meta((properties as Record<string, Record<string, unknown>>).functions ?? {}),
      input: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: "The entry function's input: exactly its parameters" }),
      entry: z.string().optional().meta({ description: "The function to run (default: the last one)" }),
    })
    .meta({ $defs });
  server.registerTool(
    RUN_WORKFLOW,
    {
      title: "Run a step-function file",
      description: runtime.workflowPrompt({ tools, compact: true }),
      inputSchema,
    },
    async (request) => {
      const outcome = await runWorkflowFor(session, request);
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
    },
  );
}

const shown = (args: unknown) => {
  const text = JSON.stringify(args);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
};

/**
 * The default approver of an MCP session: asks the client's user through
 * elicitation (a form with "allow" and a reason), where the client can; a
 * client that cannot, or a user who declines or cancels, denies the call.
 */
function askTheUser(server: McpServer): ApproveCall {
  return async (call) => {
    if (!server.server.getClientCapabilities()?.elicitation)
      return { approved: false, reason: "the MCP client cannot ask its user (it does not support elicitation)" };
    const what = call.reason === "deferred" ? "wants the host to run" : "asks to call";
    const answer = await server.server.elicitInput({
      message: `A program ${what} the tool '${call.tool}' with ${shown(call.args)} (at ${call.path}). Allow it?`,
      requestedSchema: {
        type: "object",
        properties: {
          allow: { type: "boolean", title: `Allow '${call.tool}'` },
          reason: { type: "string", title: "Why not (optional)" },
        },
        required: ["allow"],
      },
    });
    if (answer.action !== "accept") return { approved: false, reason: `the user chose to ${answer.action}` };
    if (answer.content?.allow === true) return { approved: true };
    const reason = answer.content?.reason;
    return { approved: false, reason: typeof reason === "string" && reason ? reason : "the user said no" };
  };
}

/** Serves run_program, run_workflow and describe_language over stdio until the input ends. */
export async function serveStdio(runtime: PtcRuntime, options: PtcMcpServerOptions = {}): Promise<McpServer> {
  const { maxMessageBytes } = checkedOptions(options, ["maxMessageBytes"]);
  const server = createMcpServer(runtime, options);
  await server.connect(new StdioTransport(maxMessageBytes));
  return server;
}
