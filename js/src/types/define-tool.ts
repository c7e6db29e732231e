// defineTool: a tool descriptor whose execute TypeScript types from its schemas.
// In a literal among tools (`{ order: { parameters: z.object(...), execute } }`)
// nothing can carry the schema's type to execute's args, which are then JSON
// (ToolArgs); a generic function can, and checks the result against `returns`.
import type { StandardSchemaV1, ToolSchema } from "./tool-schema.js";
import type { CallIdentity, ToolArgs, ToolDescriptor } from "./tool-types.js";

/** The value a Standard Schema gives when it accepts one (zod: `z.output`, `z.infer`). */
export type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
/** The value a Standard Schema accepts (zod: `z.input`). */
export type InferInput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];

/** The args execute gets: the output of Standard Schema parameters; JSON (ToolArgs) for JSON Schema or none. */
export type ArgsOf<P> = P extends StandardSchemaV1 ? InferOutput<P> : ToolArgs;
/** What execute must return: what Standard Schema `returns` accepts; anything for JSON Schema or none. */
export type ResultOf<R> = R extends StandardSchemaV1 ? InferInput<R> : unknown;

/**
 * What defineTool takes: a descriptor whose `parameters` type execute's args
 * (and approval's) and whose `returns` types its result, under `--strict`.
 */
export interface ToolDefinition<
  P extends StandardSchemaV1<unknown, object> | Record<string, unknown> | undefined,
  R extends ToolSchema | undefined,
> {
  description?: string;
  /** The args' schema: a Standard Schema (zod...), which checks them and types them, or JSON Schema (args are ToolArgs). */
  parameters?: P;
  /** The result's schema: a Standard Schema types what execute returns; the prompt shows its fields either way. */
  returns?: R;
  /**
   * Runs the call with the args `parameters` gave. `call` is its `{ signal,
   * runId, callId }` (CallIdentity): the signal is aborted when the call is
   * abandoned; in a gated run (a write or approval tool, journal, suspend,
   * resume...) the ids are the same on every resume of the same call.
   */
  execute: (args: ArgsOf<P>, call?: CallIdentity) => ResultOf<R> | PromiseLike<ResultOf<R>>;
  /** What the tool does to the world (default "read"); calls of "write" tools never overlap. */
  effect?: "read" | "write";
  /** Ask a person before each call (true), or per call: a function of the call's args as the program passed them. */
  approval?: boolean | ((args: ArgsOf<P>) => boolean | Promise<boolean>);
}

/** What defineTool returns: a Tool, whose execute keeps its inferred types for a direct call. */
export interface DefinedTool<Args, Result> extends Omit<ToolDescriptor, "execute"> {
  execute: (args: Args, call?: CallIdentity) => Result | PromiseLike<Result>;
}

/**
 * A tool whose execute TypeScript types from its schemas: the args from
 * `parameters` (a zod 4 schema or any Standard Schema), the result checked
 * against `returns`. Returns the same object: a descriptor as any other.
 *
 *     const order = defineTool({
 *       description: "An order by id",
 *       parameters: z.object({ id: z.string() }),
 *       returns: z.object({ id: z.string(), total: z.number() }),
 *       execute: async ({ id }, call) => ({ id, total: await totalOf(id) }),
 *     });
 */
export function defineTool<
  P extends StandardSchemaV1<unknown, object> | Record<string, unknown> | undefined = undefined,
  R extends ToolSchema | undefined = undefined,
>(tool: ToolDefinition<P, R>): DefinedTool<ArgsOf<P>, ResultOf<R>> {
  return tool as unknown as DefinedTool<ArgsOf<P>, ResultOf<R>>;
}
