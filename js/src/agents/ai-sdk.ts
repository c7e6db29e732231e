// ptc-wasm/ai-sdk: Vercel AI SDK tools that run PTC-JSON programs (ptcTool) and
// step-function files (workflowTool). Each one's description is its compact
// prompt, generated from the op table (or the step table); its input schema is
// the minimal envelope, or with schema: "full" the whole generated schema.
// `ai` is an optional peer dependency.
import { jsonSchema, type JSONSchema7, type ModelMessage, type Tool, type ToolExecutionOptions } from "ai";
import type { PtcRuntime } from "../runtimes/runtime.js";
import { formatWarnings } from "../runtimes/format.js";
import { missingProgram, ProgramSession, runWorkflowFor, type SessionMemory, type SessionOptions } from "./session.js";
import {
  minimalProgramInput,
  minimalWorkflowInput,
  schemaForm,
  ENTRY_INPUT_DESCRIPTION,
  WORKFLOW_INPUT_DESCRIPTION,
  type SchemaForm,
} from "../run/tool-input.js";
import { describeTools, shownTools } from "./tool-catalog.js";
import { toolOutput, type PtcToolOutput } from "./ai-sdk-output.js";
import { programOf, SdkApprovals } from "./ai-sdk-approvals.js";
import type { ErrorCode, JsonValue, Tool as PtcToolFunction } from "../types/public.js";

export type { PtcToolOutput } from "./ai-sdk-output.js";
export type { HeldCall, HeldInput } from "./ai-sdk-approvals.js";
export {
  ptcToolCaller,
  type PtcToolCaller,
  type PtcToolCallerDefinition,
  type PtcToolCallerInput,
  type PtcToolCallerOptions,
  type PtcToolCallerOutput,
} from "./ai-sdk-caller.js";

export interface PtcToolOptions extends SessionOptions {
  /** The input schema: "minimal" (default: the envelope; the engine's errors name every fix) or "full". */
  schema?: SchemaForm;
}
export type { SessionMemory } from "./session.js";

/** What the model sends: a program {"program": ...} (its value may also arrive as JSON text). */
export interface PtcToolInput {
  program: unknown;
}

/**
 * An AI SDK tool whose execute may also be called directly, as a model's call
 * would be: `await t.execute({ program })` resolves to a PtcToolOutput (the
 * options the AI SDK passes are accepted and not needed).
 */
export type PtcTool = Omit<
  Extract<Tool<PtcToolInput, PtcToolOutput>, { type?: "function" }>,
  "execute" | "needsApproval"
> & {
  execute(input: PtcToolInput, options?: Partial<ToolExecutionOptions<unknown>>): Promise<PtcToolOutput>;
  /**
   * With `stateKey`: true when the program stops at calls held for approval;
   * they (tool and args: `held`) and the signed run (`state`) are then added to
   * the input the SDK asks the person about.
   */
  needsApproval(input: PtcToolInput, options?: { toolCallId?: string }): Promise<boolean>;
  /**
   * With `stateKey`: the messages of the next request with the tool's answer
   * for each held run the person denied (the program resumed with the denial,
   * which its `try` may handle). `toolName`: its name in `tools` (default "run_program").
   */
  denials(messages: ModelMessage[], toolName?: string): Promise<ModelMessage[]>;
  /** The session's memory: read it, set it (e.g. from a store, per request) or clear it. */
  readonly memory: SessionMemory;
};

/**
 * A tool for generateText/streamText: `tools: { run_program: ptcTool(runtime, { tools, context }) }`.
 * Its input is a program {"program": ...}; memory carries over between its calls.
 */
export function ptcTool(runtime: PtcRuntime, options: PtcToolOptions = {}): PtcTool {
  const session = new ProgramSession(runtime, options);
  const approvals = new SdkApprovals(session);
  const own = session.options.tools ?? {};
  // Upstream MCP tools ("<server>.<tool>") are a line per server here, read with describeToolsTool.
  const tools = shownTools(options.tools ?? {});
  const { $schema: _dialect, ...schema } =
    schemaForm(options.schema) === "full" ? runtime.schema({ tools: tools.schema }) : minimalProgramInput();
  // What ai's tool() would return (it returns its argument), typed as a PtcTool.
  return {
    memory: session.memoryAccess,
    description: runtime.prompt({ tools: tools.prompt, context: options.context, compact: true }),
    inputSchema: jsonSchema<PtcToolInput>(schema as JSONSchema7),
    needsApproval: (input, call = {}) => approvals.check(input, call.toolCallId, own),
    execute: async (input: PtcToolInput, call = {}): Promise<PtcToolOutput> => {
      // Some models send the program as JSON text.
      const outcome =
        missingProgram(input) ??
        (await approvals.run(input, call.toolCallId, own, call.abortSignal)) ??
        (await session.run(programOf(input), undefined, undefined, call.abortSignal));
      return toolOutput(outcome);
    },
    denials: (messages, toolName = "run_program") => approvals.denials(messages, toolName, own),
  };
}

/** What the model sends to run_workflow: a step-function file and its entry's input. */
export interface WorkflowToolInput {
  /** The functions (a list of function objects, or the file's text); with steps, the entry's helpers. */
  functions?: unknown;
  /** The short form: the entry's steps (a function "main" after the functions). */
  steps?: unknown[];
  /** With steps: the entry's output type (default "any"). */
  output?: string;
  input?: Record<string, unknown>;
  entry?: string;
}

/** What the model gets back from a step-function file. */
export type WorkflowToolOutput =
  { ok: true; result: JsonValue; warnings?: string[] } | { ok: false; error: string; code: ErrorCode };

export type WorkflowTool = Omit<
  Extract<Tool<WorkflowToolInput, WorkflowToolOutput>, { type?: "function" }>,
  "execute"
> & {
  execute(input: WorkflowToolInput, options?: Partial<ToolExecutionOptions<unknown>>): Promise<WorkflowToolOutput>;
};

/**
 * A tool that runs step-function files: `tools: { run_workflow: workflowTool(runtime, { tools }) }`,
 * beside run_program. Its description is the compact step-function prompt and its input schema the
 * file's schema, both generated from the engine's step table.
 */
export function workflowTool(runtime: PtcRuntime, options: PtcToolOptions = {}): WorkflowTool {
  const session = new ProgramSession(runtime, options);
  const tools = shownTools(options.tools ?? {}).prompt;
  return {
    description: runtime.workflowPrompt({ tools, compact: true }),
    inputSchema: jsonSchema<WorkflowToolInput>(workflowInput(runtime, options) as JSONSchema7),
    // call.abortSignal: the AI SDK's abortSignal of this request ends the run and aborts its tools' signals.
    execute: async (input: WorkflowToolInput, call = {}): Promise<WorkflowToolOutput> => {
      const outcome = await runWorkflowFor(session, input, call.abortSignal);
      if (!outcome.ok) return { ok: false, error: outcome.message, code: outcome.error.code };
      return outcome.warnings
        ? { ok: true, result: outcome.result, warnings: formatWarnings(outcome.warnings).split("\n") }
        : { ok: true, result: outcome.result };
    },
  };
}

function workflowInput(runtime: PtcRuntime, options: PtcToolOptions): object {
  if (schemaForm(options.schema) === "minimal") return minimalWorkflowInput();
  const { $schema: _dialect, ...schema } = runtime.workflowSchema({ tools: options.tools ?? {} });
  const properties = {
    ...(schema.properties as object),
    input: { type: "object", description: WORKFLOW_INPUT_DESCRIPTION },
    entry: { type: "string", description: ENTRY_INPUT_DESCRIPTION },
  };
  return { ...schema, properties };
}

/** What the model sends to describe_tools: nothing (every tool), a server, or the tools to read in full. */
export interface DescribeToolsInput {
  server?: string;
  tools?: string[];
}

export type DescribeToolsTool = Omit<Extract<Tool<DescribeToolsInput, string>, { type?: "function" }>, "execute"> & {
  execute(input: DescribeToolsInput, options?: Partial<ToolExecutionOptions<unknown>>): Promise<string>;
};

/**
 * The companion of ptcTool and workflowTool when their tools come from MCP
 * servers (mcpTools from ptc-wasm/mcp, named "<server>.<tool>"): their
 * descriptions list a line per server, and this tool gives the model the names
 * with one-line summaries, then the signatures of the tools it will call, on
 * demand. `tools: { run_program: ptcTool(runtime, { tools }), describe_tools: describeToolsTool({ tools }) }`.
 */
export function describeToolsTool(options: { tools: Record<string, PtcToolFunction> }): DescribeToolsTool {
  const tools = options.tools;
  return {
    description:
      'The tools run_program and run_workflow call as "<server>.<tool>". Without input: every tool\'s name and ' +
      "one-line summary (with server: that server's). With tools: each one's signature, name(args) -> result " +
      "fields, and what its args mean.",
    inputSchema: jsonSchema<DescribeToolsInput>({
      type: "object",
      properties: {
        server: { type: "string" },
        tools: { type: "array", items: { type: "string" }, description: 'full names, e.g. ["memory.read_graph"]' },
      },
      additionalProperties: false,
    }),
    execute: async (input: DescribeToolsInput): Promise<string> => describeTools(tools, input ?? {}),
  };
}
