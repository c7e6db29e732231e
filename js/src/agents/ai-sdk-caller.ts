// ptcToolCaller: ptc-wasm as the AI SDK's own local tool caller. The app's
// tools routed to it (`experimental_toolCallers: { getOrders: ["run_program"] }`)
// are hidden from the model and reachable only through the programs it runs:
// bind(tools) gives the run_program tool over exactly those tools (their input
// and output schemas become the programs' tool signatures and declared
// returns); prepareModelMessage(tools) gives the model the compact prompt with
// a one-line signature per routed tool, and {"describe": [names]} a tool in full.
import {
  jsonSchema,
  type JSONSchema7,
  type ModelMessage,
  type Tool,
  type ToolExecutionOptions,
  type ToolSet,
} from "ai";
import type { PtcRuntime } from "../runtimes/runtime.js";
import { missingProgram, ProgramSession } from "./session.js";
import { PROGRAM_INPUT_DESCRIPTION } from "../run/tool-input.js";
import { describeTool, shownTools, summary } from "./tool-catalog.js";
import { toolOutput, type PtcToolOutput } from "./ai-sdk-output.js";
import { programOf, SdkApprovals } from "./ai-sdk-approvals.js";
import type { SessionMemory, SessionOptions } from "./session.js";
import type { ApprovalCheck, CallIdentity, Tool as PtcToolFunction, ToolDescriptor } from "../types/public.js";

export interface PtcToolCallerOptions extends SessionOptions {
  /**
   * The app's tools routed to the caller, the same as in generateText's
   * `tools`: needed with `stateKey`, because the SDK runs an approved call on
   * the next request before it routes any tool to the caller.
   */
  routedTools?: ToolSet;
}

/** What the model sends: a program, or the names of tools to read in full. */
export interface PtcToolCallerInput {
  program?: unknown;
  describe?: string[];
}

/** What the model gets back: a program's answer or failure, or the tools it asked to read. */
export type PtcToolCallerOutput = PtcToolOutput | { ok: true; tools: string };

type CallerToolBase = Omit<
  Extract<Tool<PtcToolCallerInput, PtcToolCallerOutput>, { type?: "function" }>,
  "execute" | "needsApproval"
> & {
  execute(input: PtcToolCallerInput, options?: Partial<ToolExecutionOptions<unknown>>): Promise<PtcToolCallerOutput>;
  /**
   * With `stateKey`: true when the program stops at calls held for approval;
   * they (tool and args: `held`) and the signed run (`state`) are then added to
   * the input the SDK asks the person about.
   */
  needsApproval(input: PtcToolCallerInput, options?: { toolCallId?: string }): Promise<boolean>;
  /** The session's memory (shared by every binding of the caller): read it, set it or clear it. */
  readonly memory: SessionMemory;
};

/** The local tool caller definition the AI SDK reads (`experimental_toolCaller`). */
export interface PtcToolCallerDefinition {
  type: "local";
  /** The run_program tool over exactly the routed tools (and the caller's own `tools` option). */
  bind(tools: ToolSet): CallerToolBase;
  /** The user message the model gets with the caller: the compact prompt, a signature line per routed tool. */
  prepareModelMessage(tools: ToolSet): string;
}

export type PtcToolCaller = CallerToolBase & {
  readonly experimental_toolCaller: PtcToolCallerDefinition;
  /**
   * With `stateKey`: the messages of the next request with run_program's
   * answer for each held run the person denied (the program resumed with the
   * denial, which its `try` may handle); without it the SDK answers
   * "execution-denied" and the program does not go on. `toolName`: the
   * caller's name in `tools` (default "run_program").
   */
  denials(messages: ModelMessage[], toolName?: string): Promise<ModelMessage[]>;
};

// Stable whatever is routed to it: the language and the tools come in the caller's message.
const CALLER_DESCRIPTION =
  "Runs a PTC-JSON program that calls the app's tools and returns only its final value: one program " +
  "replaces many tool calls. The language and the tools it can call are in the message headed " +
  '"# PTC-JSON". Input: {"program": {"op": ...}}, or {"describe": [tool names]} for tools in full.';

const DESCRIBE_NOTE =
  'A tool in full (what each arg means, its result\'s fields, whether it asks for approval): send {"describe": ["<name>"]} instead of a program.';

function callerInputSchema(): JSONSchema7 {
  return {
    type: "object",
    properties: {
      program: { type: "object", description: PROGRAM_INPUT_DESCRIPTION },
      describe: {
        type: "array",
        items: { type: "string" },
        description: "instead of a program: names of tools to read in full",
      },
    },
  };
}

// An async generator tool (preliminary results) gives its last value.
async function lastValue(result: unknown): Promise<unknown> {
  const value = await result;
  if (value && typeof value === "object" && Symbol.asyncIterator in value) {
    let last: unknown;
    for await (const item of value as AsyncIterable<unknown>) last = item;
    return last;
  }
  return value;
}

type SdkTool = Tool & {
  needsApproval?: boolean | ((input: unknown, options: object) => boolean | PromiseLike<boolean>);
};

/**
 * An AI SDK tool as a program's tool: its schemas as they are (zod checks the
 * args), its execute given the caller's execution options (a call id of its
 * own), and `needsApproval` as ptc-wasm's `approval`, so that such a call is
 * never run unasked.
 */
function programTool(name: string, tool: SdkTool, call: Partial<ToolExecutionOptions<unknown>>): PtcToolFunction {
  let calls = 0;
  // The call's id in the run (in a run that may hold calls, stable across
  // resumes of the same state: a write tool dedupes by it). Its
  // abortSignal is the call's own, aborted when the program's run abandons it
  // (run_program's abortSignal is that run's signal).
  const options = (identity?: CallIdentity) => ({
    messages: [],
    context: {},
    ...call,
    toolCallId: `${call.toolCallId ?? "run_program"}:${name}:${identity?.callId ?? ++calls}`,
    ...(identity?.signal ? { abortSignal: identity.signal } : {}),
  });
  const execute = (tool as { execute?: (input: unknown, options: object) => unknown }).execute;
  const descriptor: ToolDescriptor = {
    ...(typeof tool.description === "string" ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as ToolDescriptor["inputSchema"],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as ToolDescriptor["outputSchema"] } : {}),
    execute: async (args: object, identity?: CallIdentity) => {
      if (typeof execute !== "function")
        throw new Error(`'${name}' has no execute (the app runs it on the client): a program cannot call it`);
      return lastValue(execute.call(tool, args, options(identity)));
    },
  };
  const needs = tool.needsApproval;
  if (needs === true) descriptor.approval = true;
  else if (typeof needs === "function")
    // Given the call's identity: its toolCallId, and an abortSignal aborted when the run stops waiting for it.
    descriptor.approval = (async (args: object, identity: CallIdentity) =>
      (await needs(args, options(identity))) === true) as ApprovalCheck;
  return descriptor;
}

/**
 * ptc-wasm as the AI SDK's local tool caller:
 * `generateText({ tools: { run_program: ptcToolCaller(runtime), getOrders }, experimental_toolCallers: { getOrders: ["run_program"] } })`.
 * The routed tools are hidden from the model; its programs call them. Options as ptcTool's
 * (context, memory, limits, approve; `tools`: ptc-wasm tools programs may call besides the routed ones).
 */
export function ptcToolCaller(runtime: PtcRuntime, options: PtcToolCallerOptions = {}): PtcToolCaller {
  const { routedTools, ...sessionOptions } = options;
  const session = new ProgramSession(runtime, sessionOptions);
  const approvals = new SdkApprovals(session);
  const own = session.options.tools ?? {};
  const inputSchema = jsonSchema<PtcToolCallerInput>(callerInputSchema());

  const toolsFor = (routed: ToolSet, call: Partial<ToolExecutionOptions<unknown>>) => {
    const tools: Record<string, PtcToolFunction> = { ...own };
    for (const [name, tool] of Object.entries(routed)) tools[name] = programTool(name, tool as SdkTool, call);
    return tools;
  };

  const bound = (routed: ToolSet): CallerToolBase => ({
    memory: session.memoryAccess,
    description: CALLER_DESCRIPTION,
    inputSchema,
    needsApproval: (input, call = {}) => approvals.check(input, call.toolCallId, toolsFor(routed, call)),
    execute: async (input, call = {}): Promise<PtcToolCallerOutput> => {
      const tools = toolsFor(routed, call);
      if (Array.isArray(input?.describe) && input.program === undefined)
        return { ok: true, tools: input.describe.map((name) => describeTool(name, tools[name])).join("\n\n") };
      const outcome =
        missingProgram(input) ??
        (await approvals.run(input, call.toolCallId, tools, call.abortSignal)) ??
        (await session.run(programOf(input), undefined, tools, call.abortSignal));
      return toolOutput(outcome);
    },
  });

  const prepareModelMessage = (routed: ToolSet): string => {
    // One line per tool: its signature and the first sentence of its description.
    const shown: Record<string, PtcToolFunction> = {};
    for (const [name, tool] of Object.entries(shownTools(toolsFor(routed, {})).prompt)) {
      if (typeof tool === "function") shown[name] = tool;
      else {
        const d = tool as ToolDescriptor;
        shown[name] = { ...d, execute: d.execute, description: summary(d.description) || undefined };
      }
    }
    const prompt = runtime.prompt({ tools: shown, context: options.context, compact: true });
    return `${prompt.trimEnd()}\n\n${DESCRIBE_NOTE}\n`;
  };

  // Unbound, as the SDK runs an approved call on the next request: over the routedTools option.
  const caller = bound(routedTools ?? {});
  Object.defineProperty(caller, "experimental_toolCaller", {
    value: { type: "local", bind: bound, prepareModelMessage } satisfies PtcToolCallerDefinition,
  });
  Object.defineProperty(caller, "denials", {
    value: (messages: ModelMessage[], toolName = "run_program") =>
      approvals.denials(messages, toolName, toolsFor(routedTools ?? {}, {})),
  });
  return caller as PtcToolCaller;
}
