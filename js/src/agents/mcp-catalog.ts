// describe_tools, the MCP server's tool that reads upstream tools on demand
// (tool-catalog.ts): registered when some tools are named "<server>.<tool>".
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { DESCRIBE_TOOLS, describeTools, hasCatalog } from "./tool-catalog.js";
import type { Tool } from "../types/public.js";

export { shownTools } from "./tool-catalog.js";

export function registerDescribeTools(server: McpServer, tools: Record<string, Tool>, z: typeof import("zod")): void {
  if (!hasCatalog(tools)) return;
  server.registerTool(
    DESCRIBE_TOOLS,
    {
      title: "Describe the tools programs may call",
      description:
        'The tools of the MCP servers behind run_program and run_workflow, called as "<server>.<tool>". ' +
        "Without tools: the names and one-line summaries (of one server's tools with server). With tools: each " +
        "one's signature, name(args) -> result fields, and what its args mean.",
      inputSchema: {
        server: z.string().optional(),
        tools: z.array(z.string()).optional().describe('full names, e.g. ["memory.read_graph"]'),
      },
      annotations: { readOnlyHint: true },
    },
    async (request) => ({ content: [{ type: "text" as const, text: describeTools(tools, request) }] }),
  );
}
