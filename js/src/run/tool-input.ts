// The input schemas of the tools that run programs (asFunctionTool, the AI SDK
// tools, MCP run_program / run_workflow). Minimal by default: the engine's
// validation and formatError catch every malformed program with a message that
// names the fix, so a model needs only the envelope here, and every model step
// carries these bytes. The full JSON Schema (schema: "full") is for hosts that
// want constrained decoding; `ptc-wasm schema` prints it too.
import type { JsonSchema } from "../types/public.js";

/** "minimal" (default): the envelope with one-line descriptions; "full": the whole generated JSON Schema. */
export type SchemaForm = "minimal" | "full";

export const PROGRAM_INPUT_DESCRIPTION = 'The program\'s root operation {"op": ...}, not wrapped in another "program"';
export const CONTEXT_INPUT_DESCRIPTION = 'Extra context data for this run, read with "$<key>"';
export const FUNCTIONS_INPUT_DESCRIPTION =
  'The file\'s functions: [{"function": name, "input"?, "output", "steps"}, ...] (or the file\'s text)';
export const STEPS_INPUT_DESCRIPTION = 'Or one function\'s steps alone, after "functions" if any';
export const OUTPUT_INPUT_DESCRIPTION = 'The steps\' output type (default "any")';
export const WORKFLOW_INPUT_DESCRIPTION = "The entry function's input: exactly its parameters";
export const ENTRY_INPUT_DESCRIPTION = "The function to run (default: the last one)";

/** The minimal input of a program-running tool: {program: object}. */
export function minimalProgramInput(): JsonSchema {
  return {
    type: "object",
    properties: { program: { type: "object", description: PROGRAM_INPUT_DESCRIPTION } },
    required: ["program"],
  };
}

/** The minimal input of a step-function-running tool: {functions?, steps?, output?, input?, entry?}. */
export function minimalWorkflowInput(): JsonSchema {
  return {
    type: "object",
    properties: {
      functions: { type: ["array", "string"], items: { type: "object" }, description: FUNCTIONS_INPUT_DESCRIPTION },
      steps: { type: "array", items: { type: "object" }, description: STEPS_INPUT_DESCRIPTION },
      output: { type: "string", description: OUTPUT_INPUT_DESCRIPTION },
      input: { type: "object", description: WORKFLOW_INPUT_DESCRIPTION },
      entry: { type: "string", description: ENTRY_INPUT_DESCRIPTION },
    },
  };
}

export function schemaForm(value: unknown): SchemaForm {
  if (value === undefined || value === "minimal") return "minimal";
  if (value === "full") return "full";
  throw new TypeError(`ptc-wasm: option schema must be "minimal" or "full", got ${JSON.stringify(value)}`);
}
