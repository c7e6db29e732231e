// How the page names an engine error: its title, and one line of text.
import type { PtcError } from "../types/public.js";

export const ERROR_TITLES: Record<string, string> = {
  parse_error: "Parse error",
  validation_error: "Validation error",
  execution_error: "Execution error",
  timeout: "Timeout",
  memory_exceeded: "Memory exceeded",
};

export const errorTitle = (type: string) => ERROR_TITLES[type] ?? type;

/** "ValidationError at /0/steps/1/call: …": the layout of the engine's formatError, for any error. */
export function errorLine(error: PtcError): string {
  const name = errorTitle(error.type)
    .replace(/ (\w)/, (_, c: string) => c.toUpperCase())
    .replace(/ /g, "");
  return `${name}${error.path !== undefined ? ` at ${error.path}` : ""}: ${error.message}`;
}
