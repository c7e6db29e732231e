// ptc-wasm in front of MCP servers: mcpTools() connects to the servers of an
// MCP client config ({"mcpServers": {name: {command, args, env} | {url, headers}}},
// the format MCP clients already use) and turns each upstream tool into a
// descriptor named "<server>.<tool>", which programs call like any tool:
//   parameters  the tool's inputSchema: args are checked before the call
//   returns     its outputSchema: the signature shows the result's fields
//   effect      readOnlyHint: read; else write (calls of writes never overlap)
//   approval    destructiveHint: each call asks first (unless the config says otherwise)
// A call's value is the result's structuredContent, else its text content
// (parsed when it is JSON); an isError result is a failure `try` can catch.
import { readFile } from "node:fs/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { vettedTool, type McpWarning } from "./mcp-schemas.js";
import { loadPeers } from "./peers.js";
import type { ToolDescriptor } from "../types/public.js";
import { VERSION } from "../util/version.js";

/** One upstream server: a command to spawn (stdio), or the URL of a Streamable HTTP endpoint. */
export interface McpServerEntry {
  command?: string;
  args?: string[];
  /** Environment of the spawned server, over the SDK's default one (PATH, HOME...). */
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  /** HTTP headers of every request (e.g. Authorization). */
  headers?: Record<string, string>;
  /**
   * Which calls ask for approval first: "destructive" (default: tools with
   * destructiveHint), true (every call), false (none).
   */
  approval?: boolean | "destructive";
  /** Leave the server out (as other MCP clients read the key). */
  disabled?: boolean;
}

export type { McpWarning } from "./mcp-schemas.js";

/** An MCP client config: the servers, by name. A name may not contain a dot. */
export interface McpConfig {
  mcpServers: Record<string, McpServerEntry>;
}

/** What mcpTools() gives: tools for run(), sessions, ptcTool and the CLI, and the connections to close. */
export interface McpTools {
  /** Descriptors named "<server>.<tool>". */
  tools: Record<string, ToolDescriptor>;
  /** The servers' names, in the config's order. */
  servers: string[];
  /** What was decided about servers and tools when they connected (e.g. a schema too complex to use as it is). */
  warnings: McpWarning[];
  /** Closes the connections mcpTools opened (clients passed in are left open). */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The config is wrong (its message names the server and the key), or a server could not be reached. */
export class McpConfigError extends Error {
  static {
    this.prototype.name = "McpConfigError";
  }
  readonly code = "ERR_PTC_MCP_CONFIG";
}

interface ClientPeers {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  stdio: typeof import("@modelcontextprotocol/sdk/client/stdio.js");
  http: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");
}

const clientPeers = (): ClientPeers =>
  loadPeers("ptc-wasm's MCP gateway", ["@modelcontextprotocol/sdk"], (require) => ({
    Client: require("@modelcontextprotocol/sdk/client/index.js").Client,
    stdio: require("@modelcontextprotocol/sdk/client/stdio.js"),
    http: require("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  }));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isStringRecord = (v: unknown) => isRecord(v) && Object.values(v).every((x) => typeof x === "string");

function entryProblem(name: string, entry: unknown): string | undefined {
  if (!name) return "a server's name is empty";
  if (name.includes("."))
    return `the server name '${name}' contains a dot: programs call its tools as "<server>.<tool>", so rename it`;
  if (!isRecord(entry)) return `mcpServers.${name} must be an object {command, args, env} or {url, headers}`;
  const { command, url, args, env, headers, cwd, approval } = entry;
  if ((command === undefined) === (url === undefined))
    return `mcpServers.${name} needs either "command" (a server to spawn) or "url" (a Streamable HTTP endpoint)`;
  if (command !== undefined && (typeof command !== "string" || !command))
    return `mcpServers.${name}.command must be a text`;
  if (url !== undefined && (typeof url !== "string" || !URL.canParse(url)))
    return `mcpServers.${name}.url must be an absolute URL, got ${JSON.stringify(url)}`;
  if (args !== undefined && !isStrings(args)) return `mcpServers.${name}.args must be a list of texts`;
  if (env !== undefined && !isStringRecord(env)) return `mcpServers.${name}.env must be an object of texts`;
  if (headers !== undefined && !isStringRecord(headers)) return `mcpServers.${name}.headers must be an object of texts`;
  if (cwd !== undefined && typeof cwd !== "string") return `mcpServers.${name}.cwd must be a text`;
  if (approval !== undefined && typeof approval !== "boolean" && approval !== "destructive")
    return `mcpServers.${name}.approval must be true, false or "destructive"`;
  if (entry.type === "sse")
    return `mcpServers.${name} is an SSE server: the gateway speaks stdio and Streamable HTTP only`;
  return undefined;
}

/** The config's servers to connect to, checked; throws McpConfigError naming what is wrong. */
export function checkedConfig(config: unknown): [string, McpServerEntry][] {
  if (!isRecord(config) || !isRecord(config.mcpServers))
    throw new McpConfigError('an MCP config is an object {"mcpServers": {"<name>": {...}}}');
  const entries = Object.entries(config.mcpServers);
  for (const [name, entry] of entries) {
    const problem = entryProblem(name, entry);
    if (problem) throw new McpConfigError(`MCP config: ${problem}`);
  }
  return entries.filter(([, entry]) => (entry as McpServerEntry).disabled !== true) as [string, McpServerEntry][];
}

/** Reads an MCP config file (JSON); throws McpConfigError when it cannot be read or is not JSON. */
export async function readMcpConfig(file: string): Promise<McpConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new McpConfigError(
      `cannot read the MCP config file '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  try {
    return JSON.parse(text) as McpConfig;
  } catch (e) {
    throw new McpConfigError(`the MCP config file '${file}' is not JSON: ${(e as Error).message}`);
  }
}

// The last bytes a spawned server wrote to stderr: they say why it failed to start.
const STDERR_KEPT = 2000;

function transportFor(entry: McpServerEntry, peers: ClientPeers): { transport: Transport; stderr: () => string } {
  if (entry.url !== undefined) {
    const transport = new peers.http.StreamableHTTPClientTransport(new URL(entry.url), {
      requestInit: entry.headers ? { headers: entry.headers } : undefined,
    });
    return { transport, stderr: () => "" };
  }
  const transport = new peers.stdio.StdioClientTransport({
    command: entry.command!,
    args: entry.args ?? [],
    env: { ...peers.stdio.getDefaultEnvironment(), ...(entry.env ?? {}) },
    cwd: entry.cwd,
    stderr: "pipe",
  });
  let kept = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    kept = (kept + chunk.toString("utf8")).slice(-STDERR_KEPT);
  });
  return { transport, stderr: () => kept.trim() };
}

async function connect(name: string, entry: McpServerEntry, peers: ClientPeers): Promise<Client> {
  const client = new peers.Client({ name: "ptc-wasm-gateway", version: VERSION });
  const { transport, stderr } = transportFor(entry, peers);
  try {
    await client.connect(transport);
    return client;
  } catch (e) {
    await client.close().catch(() => undefined);
    const where = entry.url ?? [entry.command, ...(entry.args ?? [])].join(" ");
    const said = stderr();
    throw new McpConfigError(
      `cannot connect to the MCP server '${name}' (${where}): ${(e as Error).message}` +
        (said ? `; it wrote: ${said}` : ""),
    );
  }
}

type ToolList = Awaited<ReturnType<Client["listTools"]>>["tools"];
type CallResult = Awaited<ReturnType<Client["callTool"]>>;

async function allTools(client: Client): Promise<ToolList> {
  const tools: ToolList = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function parsedIfJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type ContentItem = { type: string; text?: string };
const textOf = (result: CallResult) =>
  ((result.content ?? []) as ContentItem[])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");

/** The value a program gets of an upstream tool's result; an isError result throws (a tool failure). */
export function resultValue(result: CallResult): unknown {
  if (result.isError) throw new Error(textOf(result) || "the MCP tool reported an error without a message");
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (!Array.isArray(result.content)) return "toolResult" in result ? result.toolResult : null;
  const values = (result.content as ContentItem[]).map((c) => (c.type === "text" ? parsedIfJson(c.text ?? "") : c));
  return values.length === 0 ? null : values.length === 1 ? values[0] : values;
}

function descriptorOf(client: Client, tool: ToolList[number], approval: McpServerEntry["approval"]): ToolDescriptor {
  const hints = tool.annotations ?? {};
  const destructive = hints.readOnlyHint !== true && hints.destructiveHint === true;
  const descriptor: ToolDescriptor = {
    description: tool.description ?? tool.title ?? hints.title ?? "",
    parameters: tool.inputSchema as Record<string, unknown>,
    effect: hints.readOnlyHint === true ? "read" : "write",
    execute: async (args) => resultValue(await client.callTool({ name: tool.name, arguments: args })),
  };
  if (tool.outputSchema) descriptor.returns = tool.outputSchema as Record<string, unknown>;
  if (approval === true || (approval !== false && destructive)) descriptor.approval = true;
  return descriptor;
}

/**
 * Tools of MCP servers, named "<server>.<tool>": from an MCP client config
 * (an object, or the path of its JSON file), connecting to each server; or
 * from clients already connected, by server name. Close them with close() (or
 * `await using`). Throws McpConfigError when the config is wrong or a server
 * cannot be reached (the connections already made are closed).
 */
export async function mcpTools(source: McpConfig | string | Record<string, Client>): Promise<McpTools> {
  const peers = clientPeers();
  const config = typeof source === "string" ? await readMcpConfig(source) : source;
  const owned = isRecord(config) && "mcpServers" in config;
  let clients: [string, Client, McpServerEntry][];
  if (owned) {
    const entries = checkedConfig(config);
    const settled = await Promise.allSettled(entries.map(([name, entry]) => connect(name, entry, peers)));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) {
      await Promise.all(settled.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
      throw failed.reason;
    }
    clients = entries.map(([name, entry], i) => [name, (settled[i] as PromiseFulfilledResult<Client>).value, entry]);
  } else {
    for (const name of Object.keys(config)) {
      const problem = entryProblem(name, {});
      if (problem?.includes("dot") || !name) throw new McpConfigError(`MCP clients: ${problem}`);
    }
    clients = Object.entries(config as Record<string, Client>).map(([name, client]) => [name, client, {}]);
  }
  const close = async () => {
    if (owned) await Promise.all(clients.map(([, client]) => client.close().catch(() => undefined)));
  };
  const tools: Record<string, ToolDescriptor> = {};
  const warnings: McpWarning[] = [];
  for (const [name, client, entry] of clients) {
    let listed: ToolList;
    try {
      listed = await allTools(client);
    } catch (e) {
      await close();
      throw new McpConfigError(`cannot list the tools of the MCP server '${name}': ${(e as Error).message}`);
    }
    for (const tool of listed)
      tools[`${name}.${tool.name}`] = descriptorOf(client, vettedTool(name, tool, warnings), entry.approval);
  }
  return { tools, servers: clients.map(([name]) => name), warnings, close, [Symbol.asyncDispose]: close };
}
