// One upstream MCP server as the gateway holds it: the connection, made again
// when it is lost. An upstream is code the user did not write, and its faults
// stay its own: a reply too large for one message fails that call only (the
// stdio transport reads it with SkippingReadBuffer, the HTTP one through
// cappedFetch, with the same limit and text), and a server that crashed
// is started again on the next call to it. While it cannot be reached, its
// calls fail at once, naming the server and why, and the gateway tries again
// after a wait that doubles (0.5 s, 1 s, ... 30 s at most) until a call works.
// After it is started again, its tool list is read again: a tool it no longer
// lists, or whose schemas or annotations changed, is not called.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpConfigError, type McpServerEntry } from "./mcp-config.js";
import { REPLY_TOO_LARGE, SkippingReadBuffer } from "./mcp-stdio.js";
import { cappedFetch } from "./mcp-http-reply.js";
import { loadPeers } from "./peers.js";
import { shownJson } from "../util/shown-text.js";
import { VERSION } from "../util/version.js";

export interface ClientPeers {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  stdio: typeof import("@modelcontextprotocol/sdk/client/stdio.js");
  http: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");
}

export const clientPeers = (): ClientPeers =>
  loadPeers("ptc-wasm's MCP gateway", ["@modelcontextprotocol/sdk"], (require) => ({
    Client: require("@modelcontextprotocol/sdk/client/index.js").Client,
    stdio: require("@modelcontextprotocol/sdk/client/stdio.js"),
    http: require("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  }));

export type ToolList = Awaited<ReturnType<Client["listTools"]>>["tools"];
export type CallResult = Awaited<ReturnType<Client["callTool"]>>;

// The last bytes a spawned server wrote to stderr: they say why it failed.
const STDERR_KEPT = 2000;
/** The wait before the second attempt to reach a lost server; it doubles up to MAX_RETRY_MS. */
export const FIRST_RETRY_MS = 500;
export const MAX_RETRY_MS = 30_000;

function transportFor(entry: McpServerEntry, peers: ClientPeers): { transport: Transport; stderr: () => string } {
  if (entry.url !== undefined) {
    const transport = new peers.http.StreamableHTTPClientTransport(new URL(entry.url), {
      requestInit: entry.headers ? { headers: entry.headers } : undefined,
      // As the stdio buffer below: a reply over 10 MiB fails that call only (mcp-http-reply.ts).
      fetch: cappedFetch(),
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
  // The SDK's buffer closes the connection on a reply over 10 MiB; this one fails that call only.
  const buffered = transport as unknown as { _readBuffer?: unknown };
  if (buffered._readBuffer !== undefined) buffered._readBuffer = new SkippingReadBuffer();
  let kept = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    kept = (kept + chunk.toString("utf8")).slice(-STDERR_KEPT);
  });
  return { transport, stderr: () => kept.trim() };
}

export async function allTools(client: Client): Promise<ToolList> {
  const tools: ToolList = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

// What a tool's calls depend on: a server started again must give the same.
const fingerprint = (tool: ToolList[number]) =>
  JSON.stringify([tool.inputSchema, tool.outputSchema ?? null, tool.annotations ?? null]);

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The wait after `failures` failures in a row: none after the first (a crash is retried at once). */
export function retryDelay(failures: number): number {
  return failures <= 1 ? 0 : Math.min(FIRST_RETRY_MS * 2 ** (failures - 2), MAX_RETRY_MS);
}

/** One upstream server: its connection, made again when lost (servers of a config only). */
export class Upstream {
  private client: Client;
  private down?: { why: string; retryAt: number };
  private failures = 0;
  private lastError?: string;
  private stderr: () => string = () => "";
  private reconnecting?: Promise<void>;
  private closed = false;
  private known = new Map<string, string>();
  /** Tools not called since the server was started again, and why. */
  private readonly changed = new Map<string, string>();

  private constructor(
    readonly name: string,
    client: Client,
    private readonly entry: McpServerEntry | undefined,
    private readonly peers: ClientPeers | undefined,
  ) {
    this.client = client;
  }

  /** Connects to a server of a config; throws McpConfigError saying why it could not. */
  static async open(name: string, entry: McpServerEntry, peers: ClientPeers): Promise<Upstream> {
    const upstream = new Upstream(name, undefined as unknown as Client, entry, peers);
    try {
      upstream.client = await upstream.connect();
    } catch (e) {
      const where = entry.url ?? [entry.command, ...(entry.args ?? [])].join(" ");
      throw new McpConfigError(`cannot connect to the MCP server '${name}' (${where}): ${messageOf(e)}`);
    }
    return upstream;
  }

  /** A client the host connected: used as it is, never closed nor reconnected. */
  static given(name: string, client: Client): Upstream {
    return new Upstream(name, client, undefined, undefined);
  }

  /** The server's tools, remembered as the ones its calls may use. */
  async listTools(): Promise<ToolList> {
    const listed = await allTools(this.client);
    this.known = new Map(listed.map((tool) => [tool.name, fingerprint(tool)]));
    return listed;
  }

  /**
   * Calls a tool; throws an Error whose message names the server and says
   * what went wrong. `signal` (the run's call's own): once aborted, the SDK
   * sends the server notifications/cancelled for the request and stops waiting.
   */
  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
    const client = await this.ready(tool);
    signal?.throwIfAborted();
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, signal ? { signal } : undefined);
      this.failures = 0;
      return result;
    } catch (e) {
      throw new Error(this.callFailure(e), { cause: e });
    }
  }

  async close(): Promise<void> {
    if (!this.entry) return;
    this.closed = true;
    await this.client.close().catch(() => undefined);
  }

  // A client connected, its loss watched; throws an Error with the reason (stderr included).
  private async connect(): Promise<Client> {
    const client = new this.peers!.Client({ name: "ptc-wasm-gateway", version: VERSION });
    const { transport, stderr } = transportFor(this.entry!, this.peers!);
    this.stderr = stderr;
    this.lastError = undefined;
    client.onerror = (e) => {
      this.lastError = messageOf(e);
    };
    client.onclose = () => this.lost(client);
    try {
      await client.connect(transport);
      return client;
    } catch (e) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      throw new Error(this.withStderr(messageOf(e)), { cause: e });
    }
  }

  private withStderr(why: string): string {
    const said = this.stderr();
    return said ? `${why}; it wrote on stderr: ${shownJson(said)}` : why;
  }

  private lost(client: Client): void {
    if (this.closed || client !== this.client || this.down) return;
    const how = this.entry?.url === undefined ? "its process ended" : "its connection closed";
    const why = this.withStderr(this.lastError ? `${how} (${this.lastError})` : how);
    this.failures++;
    this.down = { why, retryAt: Date.now() + retryDelay(this.failures) };
  }

  private async ready(tool: string): Promise<Client> {
    if (this.down) {
      if (!this.entry) throw new Error(`the MCP client of server '${this.name}' is closed: ${this.down.why}`);
      if (this.down.retryAt > Date.now()) throw new Error(this.downMessage());
      this.reconnecting ??= this.reconnect().finally(() => (this.reconnecting = undefined));
      await this.reconnecting;
    }
    const changed = this.changed.get(tool);
    if (changed) throw new Error(`the MCP server '${this.name}' ${changed}`);
    return this.client;
  }

  private downMessage(): string {
    const wait = Math.max(0, this.down!.retryAt - Date.now());
    return (
      `the MCP server '${this.name}' is down: ${this.down!.why}. The gateway connects again on a call ` +
      (wait ? `after ${Math.ceil(wait / 100) / 10} s` : "from now on")
    );
  }

  private async reconnect(): Promise<void> {
    let client: Client | undefined;
    try {
      client = await this.connect();
      const listed = await allTools(client);
      this.checkTools(listed);
      this.client = client;
      this.down = undefined;
    } catch (e) {
      if (client) {
        client.onclose = undefined;
        await client.close().catch(() => undefined);
      }
      this.failures++;
      const why = `it could not be started again (${messageOf(e)})`;
      this.down = { why, retryAt: Date.now() + retryDelay(this.failures) };
      throw new Error(this.downMessage(), { cause: e });
    }
  }

  // A server started again may list other tools: those gone or changed are not called.
  private checkTools(listed: ToolList): void {
    const now = new Map(listed.map((tool) => [tool.name, fingerprint(tool)]));
    for (const [tool, print] of this.known) {
      const after = now.get(tool);
      if (after === undefined) this.changed.set(tool, `no longer lists the tool '${tool}' since it was started again`);
      else if (after !== print)
        this.changed.set(
          tool,
          `changed the tool '${tool}' (its schemas or annotations) since it was started again: restart the ` +
            `gateway to accept the new definition`,
        );
      else this.changed.delete(tool);
    }
  }

  private callFailure(e: unknown): string {
    const code = (e as { code?: unknown }).code;
    const message = messageOf(e).replace(/^MCP error -?\d+: /, "");
    if (code === REPLY_TOO_LARGE) return `the MCP server '${this.name}' sent ${message}`;
    if (this.down)
      return (
        `the MCP server '${this.name}' was lost during the call: ${this.down.why}` +
        (this.entry ? ". The gateway starts it again on the next call" : "")
      );
    return `the call to the MCP server '${this.name}' failed: ${shownJson(message)}`;
  }
}
