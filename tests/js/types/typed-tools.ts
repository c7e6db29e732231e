// Typed tools as a strict TypeScript user writes them (issue 33 point 4),
// compiled by tests/js/public-types.test.cjs with tsc --strict against dist/.
// Every line after a `@ts-expect-error` must be an error by itself: the test
// also compiles this file without those comments and expects errors on exactly
// those lines.
import { tool } from "ai";
import { z } from "zod";
import { defineTool, type CallIdentity, type Tool } from "ptc-wasm";

declare function totalOf(id: string): Promise<number>;

// defineTool: execute's args come from `parameters`, its result is checked against `returns`.
export const order = defineTool({
  description: "An order by id",
  parameters: z.object({ id: z.string(), note: z.string().optional() }),
  returns: z.object({ id: z.string(), total: z.number() }),
  effect: "write",
  approval: ({ id }) => id.startsWith("big-"),
  execute: async ({ id, note }, call) => {
    const length: number | undefined = note?.length;
    const identity: CallIdentity | undefined = call;
    void identity;
    return { id, total: (await totalOf(id)) + (length ?? 0) };
  },
});

export const wrongResult = defineTool({
  parameters: z.object({ id: z.string() }),
  returns: z.object({ id: z.string(), total: z.number() }),
  // @ts-expect-error total must be a number, as `returns` says
  execute: async ({ id }) => ({ id, total: "12" }),
});

export const missingField = defineTool({
  parameters: z.object({ id: z.string() }),
  returns: z.object({ id: z.string(), total: z.number() }),
  // @ts-expect-error the result lacks `total`
  execute: ({ id }) => ({ id }),
});

export const wrongArg = defineTool({
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => {
    // @ts-expect-error id is a string, not a number
    const n: number = id;
    return n;
  },
});

export const unknownArg = defineTool({
  parameters: z.object({ id: z.string() }),
  // @ts-expect-error `parameters` has no `qty`
  execute: ({ qty }) => qty,
});

export const wrongApproval = defineTool({
  parameters: z.object({ amount: z.number() }),
  // @ts-expect-error amount is a number: no startsWith
  approval: ({ amount }) => amount.startsWith("1"),
  execute: ({ amount }) => amount,
});

// JSON Schema parameters, or none: the args are JSON (ToolArgs), never any.
export const jsonSchema = defineTool({
  parameters: { type: "object", properties: { q: { type: "string" } } },
  execute: (args) => {
    // @ts-expect-error a field of JSON args is a JsonValue, not a string
    const q: string = args.q;
    return typeof args.q === "string" ? args.q : q;
  },
});

// @ts-expect-error the args must be an object: a string schema is no tool's parameters
export const notAnObject = defineTool({ parameters: z.string(), execute: (s) => s });

// In a literal among tools, zod parameters cannot type execute: its args are JSON (ToolArgs), not any.
export const literal = {
  find: {
    description: "Find an order",
    parameters: z.object({ id: z.string() }),
    execute: async (args, call) => {
      // @ts-expect-error args.id is a JsonValue: declare the args, or use defineTool
      const id: string = args.id;
      return { id, runId: call?.runId };
    },
  },
  search: {
    parameters: { type: "object" },
    execute: async (args, call) => ({ args, callId: call?.callId }),
  },
} satisfies Record<string, Tool>;

// AI SDK tool() objects, as they are and spread with effect and approval.
const weather = tool({
  description: "The weather in a city",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 21 }),
});
export const aiSdk = {
  weather,
  bookTrip: { ...weather, effect: "write" },
  askFirst: { ...weather, approval: true },
  askSome: { ...weather, effect: "write", approval: ({ city }: { city: string }) => city !== "Paris" },
} satisfies Record<string, Tool>;

// @ts-expect-error effect is "read" or "write"
export const misspelt: Tool = { ...weather, effect: "writes" };

export const all: Record<string, Tool> = { order, jsonSchema, ...literal, ...aiSdk };

// A defined tool keeps its types for a direct call.
export async function direct(): Promise<number> {
  const r = await order.execute({ id: "a" });
  return r.total;
}
