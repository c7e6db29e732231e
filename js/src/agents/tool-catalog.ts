// Tools described on demand. A tool named "<server>.<tool>" (an upstream MCP
// server's, from mcpTools) is not listed in the prompt one by one: the prompt
// names each server and how many tools it has, and the model asks for the rest
// when it needs it (describe_tools): the names with one-line summaries, then
// the full signature of the tools it will call. Dozens of upstream tools then
// cost the tool definitions a line per server, not a definition per tool.
// Descriptions are the servers' own text, which the model must not mistake for
// the gateway's: each is shown after what the gateway says of the tool, quoted
// and escaped as a JSON string, so that no newline or quote in it can start a
// line or a note of its own.
import { isToolDescriptor } from "../run/descriptors.js";
import { toolSignature } from "../run/signature.js";
import { jsonSchemaOf } from "../run/tool-schemas.js";
import type { JsonObject, Tool, ToolDescriptor } from "../types/public.js";
import { cutText, escapeControls, shownJson } from "../util/shown-text.js";

export const DESCRIBE_TOOLS = "describe_tools";

/** The server part of "<server>.<tool>", or undefined for a tool of the host. */
export function serverOf(name: string): string | undefined {
  const dot = name.indexOf(".");
  return dot > 0 ? name.slice(0, dot) : undefined;
}

/** True when some tools are described on demand (names with a server part). */
export function hasCatalog(tools: Record<string, unknown>): boolean {
  return Object.keys(tools).some((name) => serverOf(name) !== undefined);
}

const descriptorOf = (tool: unknown): Partial<ToolDescriptor> => (isToolDescriptor(tool) ? tool : {});

/**
 * The tools as the prompt lists them: the host's own tools as they are, and
 * one entry per server, "<server>.<tool>", saying how to read its tools.
 */
export function promptTools(tools: Record<string, Tool>): Record<string, Tool> {
  const shown: Record<string, Tool> = {};
  const servers = new Map<string, number>();
  for (const [name, tool] of Object.entries(tools)) {
    const server = serverOf(name);
    if (server === undefined) shown[name] = tool;
    else servers.set(server, (servers.get(server) ?? 0) + 1);
  }
  for (const [server, count] of servers)
    shown[`${server}.<tool>`] = {
      description: `${count} tools of MCP server '${server}': read them with ${DESCRIBE_TOOLS} before calling`,
      execute: () => null,
    };
  return shown;
}

/** The first sentence of a description, on one line and at most 120 characters. */
export function summary(description: string | undefined): string {
  const line = (description ?? "").replace(/\s+/g, " ").trim();
  const sentence = /^(.*?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return cutText(sentence, 120);
}

// A name as the model reads it: as it is when plain, else quoted and escaped.
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.<>-]*$/;
const shownName = (name: string) => (PLAIN_NAME.test(name) ? name : shownJson(name));
// A line built from a tool's schemas (names of args and fields): no control character, no newline, left raw.
const oneLine = (text: string) => escapeControls(text.replace(/\n/g, "\\u000a"));
// A description as the catalog shows it: one line, quoted as a JSON string.
const quoted = (text: string) => shownJson(text.replace(/\s+/g, " ").trim());

function effectNote(d: Partial<ToolDescriptor>): string {
  const notes = [d.effect === "write" ? "write" : "read"];
  if (d.approval) notes.push("asks for approval");
  return notes.join(", ");
}

/** "- memory.read_graph: Read the entire knowledge graph (read)", per tool of the server (or of all). */
export function listTools(tools: Record<string, Tool>, server?: string): string {
  const names = Object.keys(tools).filter((name) => (server === undefined ? true : serverOf(name) === server));
  if (!names.length) {
    const servers = [
      ...new Set(
        Object.keys(tools)
          .map(serverOf)
          .filter((s) => s !== undefined),
      ),
    ];
    return `No tools of a server ${shownJson(server)}. The servers: ${servers.join(", ") || "none"}.`;
  }
  const lines = names.map((name) => {
    const d = descriptorOf(tools[name]);
    const text = summary(d.description);
    return `- ${shownName(name)} (${effectNote(d)})${text ? `: ${quoted(text)}` : ""}`;
  });
  return [
    `${names.length} tools. Call one with {"op": "call", "tool": "<name>", "args": {...}}; ` +
      `${DESCRIBE_TOOLS}({"tools": [names]}) gives their args and result fields. Each line: a name, its effect, ` +
      "then its description, quoted as the server wrote them.",
    ...lines,
  ].join("\n");
}

function argLines(parameters: JsonObject | undefined): string[] {
  const props = (parameters?.properties ?? {}) as Record<string, JsonObject>;
  return Object.entries(props)
    .filter(([, s]) => typeof s?.description === "string" && s.description)
    .map(([name, s]) => `  ${shownName(name)}: ${quoted(String(s.description))}`);
}

/** One tool in full: its signature (args -> result), description, args' descriptions and effect. */
export function describeTool(name: string, tool: Tool | undefined): string {
  if (tool === undefined) return `${shownName(name)}: no such tool`;
  const d = descriptorOf(tool);
  const parameters = jsonSchemaOf(d.parameters ?? d.inputSchema);
  const returns = jsonSchemaOf(d.returns ?? d.outputSchema);
  const server = serverOf(name);
  const lines = [oneLine(toolSignature(name, parameters, returns))];
  lines.push(`  effect: ${effectNote(d)}${returns ? "" : "; the result's fields are not declared"}`);
  if (d.description?.trim())
    lines.push(`  ${server ? `described by MCP server '${server}'` : "description"}: ${quoted(d.description)}`);
  lines.push(...argLines(parameters));
  return lines.join("\n");
}

/** What describe_tools answers: the tools named, in full; else the list of a server's (or all) tools. */
export function describeTools(tools: Record<string, Tool>, request: { server?: string; tools?: string[] }): string {
  if (request.tools?.length) return request.tools.map((name) => describeTool(name, tools[name])).join("\n\n");
  return listTools(tools, request.server);
}

/**
 * The tools as the prompts and schemas show them: with upstream tools, one
 * prompt entry per server, and no list of tool names in the schema (its enum
 * would name them all); without, the tools as they are.
 */
export function shownTools(tools: Record<string, Tool>): {
  prompt: Record<string, Tool>;
  schema: Record<string, Tool> | undefined;
} {
  if (!hasCatalog(tools)) return { prompt: tools, schema: tools };
  return { prompt: promptTools(tools), schema: undefined };
}
