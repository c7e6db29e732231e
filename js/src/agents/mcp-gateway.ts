// ptc-wasm in front of MCP servers: mcpTools() connects to the servers of an
// MCP client config (mcp-config.ts) and turns each upstream tool into a
// descriptor named "<server>.<tool>", which programs call like any tool:
//   parameters  the tool's inputSchema: args are checked before the call
//   returns     its outputSchema: the signature shows the result's fields
//   effect      a write unless the config says read (or trusts the server's readOnlyHint)
//   approval    a write that may be destructive asks before each call (policyOf)
// A call's value is the result's structuredContent, else its text content
// (parsed when it is JSON); an isError result is a failure `try` can catch.
// The upstream is not trusted for the text the model reads: a tool whose name
// is not a plain name is left out (with a warning), descriptions are put on one
// line with control characters escaped, and an error's text is quoted.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  checkedConfig,
  isRecord,
  McpConfigError,
  policyProblem,
  readMcpConfig,
  type McpConfig,
  type McpServerPolicy,
} from "./mcp-config.js";
import { clientPeers, Upstream, type CallResult, type ToolList } from "./mcp-connection.js";
import { vettedTool, type McpWarning } from "./mcp-schemas.js";
import type { ToolDescriptor } from "../types/public.js";
import { cutText, escapeControls, shownJson } from "../util/shown-text.js";

export {
  checkedConfig,
  McpConfigError,
  readMcpConfig,
  type McpConfig,
  type McpServerEntry,
  type McpServerPolicy,
  type McpToolPolicy,
} from "./mcp-config.js";

export type { McpWarning } from "./mcp-schemas.js";

/** What mcpTools() gives: tools for run(), sessions, ptcTool and the CLI, and the connections to close. */
export interface McpTools {
  /** Descriptors named "<server>.<tool>". */
  tools: Record<string, ToolDescriptor>;
  /** The servers' names, in the config's order. */
  servers: string[];
  /** Tools left out (a name that is not plain, a name listed twice), descriptions cut, schemas too complex to use as they are, config keys naming no tool. */
  warnings: McpWarning[];
  /** Closes the connections mcpTools opened (clients passed in are left open). */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * An upstream tool's name as the gateway takes it: the characters the MCP
 * specification allows in tool names (letters, digits, "_", "-", "."), 1 to
 * 128 of them, not starting with "-" or ".". "<server>.<tool>" splits at the
 * first dot (server names have none), so a tool name may hold dots.
 */
export const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
/** The most characters of an upstream description kept (the model reads it on every describe_tools). */
export const MAX_DESCRIPTION = 2000;
/** The most characters of an upstream error's text a tool failure quotes. */
const MAX_ERROR_TEXT = 2000;

/** Text of a server's, as a warning's tool names it: every control character escaped, newlines too. */
const shownName = (name: string) => escapeControls(name.replace(/\n/g, "\\u000a"));

/** A description on one line, control characters escaped, at most MAX_DESCRIPTION characters. */
function oneLine(text: string): { text: string; cut: boolean } {
  const line = escapeControls(text.replace(/\s+/g, " ").trim());
  if (line.length <= MAX_DESCRIPTION) return { text: line, cut: false };
  return { text: cutText(line, MAX_DESCRIPTION), cut: true };
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

/** The value a program gets of an upstream tool's result; an isError result throws (a tool failure, its text quoted). */
export function resultValue(server: string, result: CallResult): unknown {
  if (result.isError) {
    const text = textOf(result);
    if (!text) throw new Error(`the MCP server '${server}' reported an error without a message`);
    const shown = cutText(text, MAX_ERROR_TEXT);
    throw new Error(`the MCP server '${server}' answered with an error: ${shownJson(shown)}`);
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (!Array.isArray(result.content)) return "toolResult" in result ? result.toolResult : null;
  const values = (result.content as ContentItem[]).map((c) => (c.type === "text" ? parsedIfJson(c.text ?? "") : c));
  return values.length === 0 ? null : values.length === 1 ? values[0] : values;
}

/**
 * A tool's effect and whether its calls ask, as the config decides: its
 * tools entry first; then the server's annotations if the config trusts them,
 * read with the MCP specification's defaults (readOnlyHint false,
 * destructiveHint true, which counts only for a write); untrusted, a tool is a
 * write that may be destructive. The server's approval: "destructive"
 * (default) asks for those, true for every call, false for none.
 */
export function policyOf(
  tool: ToolList[number],
  entry: McpServerPolicy,
): { effect: "read" | "write"; approval: boolean } {
  const hints = entry.trustAnnotations === true ? (tool.annotations ?? {}) : {};
  const own = entry.tools && Object.hasOwn(entry.tools, tool.name) ? entry.tools[tool.name]! : {};
  const effect = own.effect ?? (hints.readOnlyHint === true ? "read" : "write");
  const destructive = effect === "write" && hints.destructiveHint !== false;
  const server = entry.approval ?? "destructive";
  return { effect, approval: own.approval ?? (server === "destructive" ? destructive : server) };
}

function descriptorOf(upstream: Upstream, tool: ToolList[number], entry: McpServerPolicy, description: string) {
  const { effect, approval } = policyOf(tool, entry);
  const descriptor: ToolDescriptor = {
    description,
    parameters: tool.inputSchema as Record<string, unknown>,
    effect,
    // The call's signal goes upstream: a call the run abandons is cancelled there.
    execute: async (args, call) => resultValue(upstream.name, await upstream.call(tool.name, args, call?.signal)),
  };
  if (tool.outputSchema) descriptor.returns = tool.outputSchema as Record<string, unknown>;
  if (approval) descriptor.approval = true;
  return descriptor;
}

// A server's tools as descriptors, leaving out those the model must not be shown as they are.
function addTools(
  tools: Record<string, ToolDescriptor>,
  warnings: McpWarning[],
  upstream: Upstream,
  entry: McpServerPolicy,
  listed: ToolList,
): void {
  const server = upstream.name;
  const warn = (tool: string, message: string) => warnings.push({ server, tool: shownName(tool), message });
  const seen = new Set<string>();
  for (const tool of listed) {
    if (!TOOL_NAME.test(tool.name)) {
      warn(
        tool.name,
        "left out: its name is not a plain tool name (1 to 128 letters, digits, _, - and ., not starting with - or .)",
      );
      continue;
    }
    if (seen.has(tool.name)) {
      warn(tool.name, `left out: the server lists a tool '${tool.name}' twice (the first one is kept)`);
      continue;
    }
    seen.add(tool.name);
    const description = oneLine(tool.description ?? tool.title ?? tool.annotations?.title ?? "");
    if (description.cut) warn(tool.name, `its description is cut to ${MAX_DESCRIPTION} characters`);
    // Its schemas within bounds (mcp-schemas.ts): one tool's schema never hangs the host or breaks other runs.
    tools[`${server}.${tool.name}`] = descriptorOf(
      upstream,
      vettedTool(server, tool, warnings),
      entry,
      description.text,
    );
  }
  for (const name of Object.keys(entry.tools ?? {}))
    if (!seen.has(name))
      warn(name, `the config's mcpServers.${server}.tools names it, but the server lists no tool '${shownName(name)}'`);
}

async function connected(config: McpConfig): Promise<[Upstream, McpServerPolicy][]> {
  const peers = clientPeers();
  const entries = checkedConfig(config);
  const settled = await Promise.allSettled(entries.map(([name, entry]) => Upstream.open(name, entry, peers)));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await Promise.all(settled.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
    throw failed.reason;
  }
  return entries.map(([, entry], i) => [(settled[i] as PromiseFulfilledResult<Upstream>).value, entry]);
}

function given(
  clients: Record<string, Client>,
  policies: Record<string, McpServerPolicy>,
): [Upstream, McpServerPolicy][] {
  clientPeers(); // says what to install when the SDK is missing
  for (const name of Object.keys(clients)) {
    if (!name || name.includes("."))
      throw new McpConfigError(`MCP clients: the server name '${name}' is empty or contains a dot`);
    const policy: unknown = policies[name] ?? {};
    const problem = isRecord(policy) ? policyProblem(name, policy) : `the policy of '${name}' must be an object`;
    if (problem) throw new McpConfigError(`MCP clients: ${problem}`);
  }
  return Object.entries(clients).map(([name, client]) => [Upstream.given(name, client), policies[name] ?? {}]);
}

/**
 * Tools of MCP servers, named "<server>.<tool>": from an MCP client config
 * (an object, or the path of its JSON file), connecting to each server; or
 * from clients already connected, by server name (what the config would say
 * of each, trustAnnotations, approval and tools, in `policies`). Close them
 * with close() (or `await using`). Throws McpConfigError when the config is
 * wrong or a server cannot be reached (the connections already made are closed).
 */
export async function mcpTools(
  source: McpConfig | string | Record<string, Client>,
  policies: Record<string, McpServerPolicy> = {},
): Promise<McpTools> {
  const config = typeof source === "string" ? await readMcpConfig(source) : source;
  const owned = isRecord(config) && "mcpServers" in config;
  const upstreams = owned
    ? await connected(config as unknown as McpConfig)
    : given(config as Record<string, Client>, policies);
  const close = async () => {
    await Promise.all(upstreams.map(([upstream]) => upstream.close()));
  };
  const tools: Record<string, ToolDescriptor> = {};
  const warnings: McpWarning[] = [];
  for (const [upstream, entry] of upstreams) {
    let listed: ToolList;
    try {
      listed = await upstream.listTools();
    } catch (e) {
      await close();
      throw new McpConfigError(
        `cannot list the tools of the MCP server '${upstream.name}': ${shownJson((e as Error).message)}`,
      );
    }
    addTools(tools, warnings, upstream, entry, listed);
  }
  return {
    tools,
    servers: upstreams.map(([upstream]) => upstream.name),
    warnings,
    close,
    [Symbol.asyncDispose]: close,
  };
}
