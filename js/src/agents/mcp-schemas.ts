// An upstream MCP tool's schemas, vetted when its server connects (mcpTools):
// one server's hostile or careless schema must neither hang the host nor break
// other tools' runs, and the tool stays callable. Over the bounds of
// run/schema-bounds.ts:
//   inputSchema   kept (shown in describe_tools, whose signatures are bounded),
//                 but args are not checked against it before a call: the
//                 server checks its own input;
//   outputSchema  simplified (its annotations, e.g. examples, left out) when
//                 that brings it within the bounds, else dropped: the result's
//                 fields are then not declared (no unknown_result_field
//                 warnings for the tool).
// Each such decision is a warning naming the server and the tool.
import { boundedReturns, schemaProblem } from "../run/schema-bounds.js";
import type { JsonObject } from "../types/public.js";

/**
 * Something of a server the gateway left out or changed when it connected, for
 * the person who runs it (the CLI prints them): a tool left out, a description
 * cut, a schema too complex to use as it is, a config key naming no tool.
 */
export interface McpWarning {
  server: string;
  /** The tool's name as the server gave it, control characters (newlines too) escaped as \uXXXX. */
  tool?: string;
  message: string;
}

interface ListedTool {
  name: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
}

/** The tool with its outputSchema simplified or dropped when over the bounds; warnings pushed for what was done. */
export function vettedTool<T extends ListedTool>(server: string, tool: T, warnings: McpWarning[]): T {
  const warn = (message: string) => warnings.push({ server, tool: tool.name, message });
  const inputProblem = schemaProblem(tool.inputSchema);
  if (inputProblem)
    warn(
      `its inputSchema is too complex to check args against (${inputProblem}): ` +
        "calls send the args unchecked, and the server checks them",
    );
  if (typeof tool.outputSchema !== "object" || tool.outputSchema === null) return tool;
  const bounded = boundedReturns(tool.outputSchema as JsonObject);
  if (!bounded.problem) return tool;
  if (bounded.simplified) {
    warn(`its outputSchema is used without its annotations (examples, descriptions...): ${bounded.problem}`);
    return { ...tool, outputSchema: bounded.schema };
  }
  warn(
    `its outputSchema is not used (${bounded.problem}): the result's fields are not declared, ` +
      "so programs get no warning of a field it cannot have",
  );
  const { outputSchema: _dropped, ...rest } = tool;
  return rest as T;
}
