// The MCP gateway's config: the servers of an MCP client config
// ({"mcpServers": {name: {command, args, env} | {url, headers}}}, the format MCP
// clients already use), and what the gateway trusts each server for. A
// server's annotations are hints from code the user did not write: by default
// they decide nothing (every tool is a write that asks before each call); the
// entry says whether they count (trustAnnotations) and, per tool, what is a
// read and what asks (tools).
import { readFile } from "node:fs/promises";

/** What the config says of one tool of a server: a read or a write, and whether each call asks first. */
export interface McpToolPolicy {
  /** "read": calls may overlap and never ask under "approval": "destructive"; "write": they never overlap. */
  effect?: "read" | "write";
  /** true: each call asks first; false: none does. Overrides the server's approval. */
  approval?: boolean;
}

/** What the config says the gateway trusts a server for (a server's entry, or a client's policy in mcpTools). */
export interface McpServerPolicy {
  /**
   * Whether the server's readOnlyHint and destructiveHint count (default false:
   * every tool is a write that may be destructive). When they count, they are
   * read with the MCP specification's defaults: readOnlyHint false,
   * destructiveHint true.
   */
  trustAnnotations?: boolean;
  /**
   * Which calls ask for approval first: "destructive" (default: writes that
   * may be destructive: every write unless trustAnnotations and the tool says
   * destructiveHint: false), true (every call), false (none).
   */
  approval?: boolean | "destructive";
  /** Per tool (by the server's name for it): a read or a write, and whether it asks. Over the rest of the entry. */
  tools?: Record<string, McpToolPolicy>;
}

/** One upstream server: a command to spawn (stdio), or the URL of a Streamable HTTP endpoint. */
export interface McpServerEntry extends McpServerPolicy {
  command?: string;
  args?: string[];
  /** Environment of the spawned server, over the SDK's default one (PATH, HOME...). */
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  /** HTTP headers of every request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** Leave the server out (as other MCP clients read the key). */
  disabled?: boolean;
}

/** An MCP client config: the servers, by name. A name may not contain a dot. */
export interface McpConfig {
  mcpServers: Record<string, McpServerEntry>;
}

/** The config is wrong (its message names the server and the key), or a server could not be reached. */
export class McpConfigError extends Error {
  static {
    this.prototype.name = "McpConfigError";
  }
  readonly code = "ERR_PTC_MCP_CONFIG";
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isStringRecord = (v: unknown) => isRecord(v) && Object.values(v).every((x) => typeof x === "string");

const POLICY_KEYS = ["effect", "approval"];

function toolsProblem(name: string, tools: unknown): string | undefined {
  if (!isRecord(tools)) return `mcpServers.${name}.tools must be an object {"<tool>": {effect, approval}}`;
  for (const [tool, policy] of Object.entries(tools)) {
    const at = `mcpServers.${name}.tools.${tool}`;
    if (!isRecord(policy)) return `${at} must be an object {effect?: "read" | "write", approval?: true | false}`;
    const unknown = Object.keys(policy).find((key) => !POLICY_KEYS.includes(key));
    if (unknown !== undefined) return `${at} has an unknown key '${unknown}' (it takes effect and approval)`;
    if (policy.effect !== undefined && policy.effect !== "read" && policy.effect !== "write")
      return `${at}.effect must be "read" or "write"`;
    if (policy.approval !== undefined && typeof policy.approval !== "boolean")
      return `${at}.approval must be true or false`;
  }
  return undefined;
}

/** What is wrong with what the config says a server is trusted for (approval, trustAnnotations, tools). */
export function policyProblem(name: string, policy: Record<string, unknown>): string | undefined {
  const { approval, trustAnnotations, tools } = policy;
  if (approval !== undefined && typeof approval !== "boolean" && approval !== "destructive")
    return `mcpServers.${name}.approval must be true, false or "destructive"`;
  if (trustAnnotations !== undefined && typeof trustAnnotations !== "boolean")
    return `mcpServers.${name}.trustAnnotations must be true or false`;
  return tools === undefined ? undefined : toolsProblem(name, tools);
}

/** What is wrong with a server's entry, naming the server and the key; undefined when nothing is. */
export function entryProblem(name: string, entry: unknown): string | undefined {
  if (!name) return "a server's name is empty";
  if (name.includes("."))
    return `the server name '${name}' contains a dot: programs call its tools as "<server>.<tool>", so rename it`;
  if (!isRecord(entry)) return `mcpServers.${name} must be an object {command, args, env} or {url, headers}`;
  const { command, url, args, env, headers, cwd } = entry;
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
  const policyWrong = policyProblem(name, entry);
  if (policyWrong) return policyWrong;
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
