// The types of tools as hosts write them: plain functions, descriptors with
// schemas and effects, deferred tools, AI SDK tool() objects; and what a tool
// call's args are (JSON unless the tool declares its own).
import type { JsonObject } from "./json.js";
import type { ToolSchema } from "./tool-schema.js";

/**
 * The args object a tool receives (the call's evaluated `args`): JSON data.
 * A tool may declare the args it expects instead, as a type literal
 * (`({ id }: { id: number }) => ...`: tool function types take their args as a
 * method does, so a narrower object type is accepted) or an interface (see
 * ArgsFunction).
 */
export type ToolArgs = JsonObject;

/**
 * A function whose args TypeScript cannot relate to JSON objects (an
 * interface has no index signature: `({ id }: OrderArgs) => ...`), still a
 * tool: the run passes it the call's args object. It has no call signature of
 * its own, so that an untyped `(args) => ...` among tools is typed by
 * ToolFunction (its args are ToolArgs).
 */
export type ArgsFunction = CallableFunction;

/**
 * What every tool call gets as its second argument (`execute(args, { signal,
 * runId, callId })`). In a gated run (a write, approval or deferred tool;
 * journal, replay, suspend, resume) `runId` and `callId` are the same on every
 * resume and replay of the same call, so a write tool can refuse to do twice
 * what one state, resumed twice, asks twice; in any other run they name the
 * call within this run only.
 */
export interface CallIdentity {
  /** Given when the run started; kept in its state. */
  runId: string;
  /** The call's id (a pending call's `id`): its tool, path, args and how many such calls came before it. */
  callId: string;
  /**
   * Aborted when the call is abandoned while the tool still runs: the run's
   * `signal` aborted, its timeoutMs or the call's toolTimeoutMs struck, or
   * the run ended. Pass it on (fetch, an MCP client's request options) so the
   * work stops; `signal.reason` says why (a DOMException "TimeoutError" for
   * the limits, the run's own reason for an abort).
   */
  signal: AbortSignal;
}

/** A host's key for suspended states (`stateKey`): text (UTF-8) or bytes. */
export type StateKey = string | Uint8Array | ArrayBuffer;

/**
 * A host tool: receives the evaluated args object, returns JSON-compatible data
 * (or a Promise of it). Generic over its args; written as a method's type so
 * that a function declaring narrower args (`{ id: number }`) is still a Tool.
 * It also gets the call's `{ signal, runId, callId }` (CallIdentity): the
 * signal is aborted when the call is abandoned; in a gated run the ids are the
 * same on every resume of the same call, and a write tool dedupes by them.
 */
export type ToolFunction<Args extends object = ToolArgs> = {
  bivarianceHack(args: Args, call?: CallIdentity): unknown;
}["bivarianceHack"];

/**
 * A tool with what a model needs to know about it: the prompt lists its
 * description and parameters, and a call whose args do not match `parameters`
 * (a JSON Schema) fails with an execution_error before `execute` runs.
 */
export interface ToolDescriptor<Args extends object = ToolArgs> {
  description?: string;
  /**
   * The args object's schema: JSON Schema (draft 2020-12), or a Standard
   * Schema (a zod 4 schema...), which then checks the args itself and is shown
   * to the model as its JSON Schema.
   */
  parameters?: ToolSchema<Args>;
  /** The AI SDK's name for `parameters` (a tool() object works as it is). */
  inputSchema?: ToolSchema<Args>;
  /**
   * JSON Schema of the result: the prompts show its fields in the tool's
   * signature (`-> {id: string, total: number}`), so that a program reads
   * fields the result has; a program reading a field it does not list gets
   * the warning `unknown_result_field` (validate/analyze too). Not checked
   * against the value.
   */
  returns?: ToolSchema;
  /** The AI SDK's and MCP's name for `returns`. */
  outputSchema?: ToolSchema;
  /** Runs the call; may be left out only when `defer` is true. */
  execute: ToolFunction<Args> | ArgsFunction;
  /**
   * What the tool does to the world (default "read"). Calls of "write" tools
   * never run at the same time as each other (reads still fan out); analyze()
   * reports each tool's effect.
   */
  effect?: "read" | "write";
  /**
   * Ask before each call: true, or a function of the call's args deciding per
   * call. Such a call is not run: the run stops there, suspended, and
   * runtime.resume() approves or denies it.
   */
  approval?: boolean | ApprovalCheck<Args>;
  /** The host runs this tool itself: every call suspends the run, and resume() gives its result. */
  defer?: boolean;
}

/**
 * Decides per call whether a person must approve it (a method's type, as
 * ToolFunction, for narrower args). It gets the call's `{ signal, runId,
 * callId }` as a tool does: the signal is aborted when the run stops waiting
 * for the check (the run's `signal` aborted, its timeoutMs struck), so a check
 * that asks someone can stop waiting; the run then ends (aborted, or timeout).
 */
export type ApprovalCheck<Args extends object = ToolArgs> = {
  bivarianceHack(args: Args, call: CallIdentity): boolean | Promise<boolean>;
}["bivarianceHack"];

/** A tool the host runs itself (`defer: true`): no `execute`. */
export type DeferredToolDescriptor = Omit<ToolDescriptor, "execute" | "defer"> & { defer: true; execute?: undefined };

/**
 * An AI SDK tool() object, as it is or spread with ptc-wasm's `effect` and
 * `approval` (`{ ...tool({...}), effect: "write" }`): its inputSchema (zod, any
 * Standard Schema, or jsonSchema()) checks the args and is shown to the model;
 * its execute runs the call, given the SDK's options `{ abortSignal,
 * toolCallId, messages: [] }` (and CallIdentity's fields). A tool() without
 * execute cannot be called.
 */
export interface AiSdkToolLike {
  inputSchema: unknown;
  outputSchema?: unknown;
  /** Text, or (AI SDK 7) a function of the AI SDK's context, which ptc-wasm does not call: the prompt then lists the tool without one. */
  description?: unknown;
  /**
   * Any function: a tool()'s execute takes the AI SDK's (input, options). Typed
   * without a call signature, so that an untyped `execute: async (args) => ...`
   * in a literal among tools is typed by ToolDescriptor (its args are ToolArgs).
   */
  execute?: ArgsFunction;
  effect?: "read" | "write";
  approval?: boolean | ApprovalCheck;
  // Never set on a tool() object: a literal with one of them is a ToolDescriptor.
  parameters?: undefined;
  defer?: undefined;
}

/** A plain function, a descriptor, or an AI SDK tool() object. */
export type Tool<Args extends object = ToolArgs> =
  ToolFunction<Args> | ArgsFunction | ToolDescriptor<Args> | DeferredToolDescriptor | AiSdkToolLike;
