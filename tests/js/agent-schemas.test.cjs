// Issue 28 item 4: AI SDK tool() objects and zod / Standard Schema schemas as
// tools' parameters and returns, as they are: checked with the schema's own
// validator, shown to the model as JSON Schema (a signature in the prompt).
const { z } = require("zod");
const { execFileSync } = require("node:child_process");
const path = require("node:path");
// ai is ESM-only (Jest on Node 20 cannot require it): its tool() returns its
// argument, and jsonSchema() a marked wrapper; the last test uses the real ones.
const tool = (t) => t;
const jsonSchema = (schema) => ({ [Symbol.for("vercel.ai.schema")]: true, jsonSchema: schema, validate: undefined });
const { ptcWasm } = require("./helpers.cjs");

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

const call = (name, args) => ({ program: { op: "call", tool: name, args } });

const weather = tool({
  description: "The weather in a city",
  inputSchema: z.object({ city: z.string(), days: z.number().int().default(1) }),
  execute: async ({ city, days }) => ({ city, days, celsius: 21 }),
});
const order = {
  description: "An order",
  parameters: z.object({ id: z.string() }),
  returns: z.object({ id: z.string(), total: z.number() }),
  execute: ({ id }) => ({ id, total: 3 }),
};

test("an AI SDK tool() with a zod inputSchema: the schema checks the args, naming the arg", async () => {
  const bad = await ptc.run(call("weather", { city: 5 }), { tools: { weather } });
  expect(bad.ok).toBe(false);
  expect(bad.error.message).toContain(
    "Tool 'weather' failed: invalid args (JSON Pointers into args), so the tool was not run: at /city: Invalid input: expected string, received number",
  );
  // The schema's output reaches execute: its default applied.
  const good = await ptc.run(call("weather", { city: "Oslo" }), { tools: { weather } });
  expect(good.result).toEqual({ city: "Oslo", days: 1, celsius: 21 });
});

test("zod parameters and returns are shown as a signature with the result's fields", () => {
  const prompt = ptc.prompt({ tools: { weather, order }, compact: true });
  expect(prompt).toContain("- weather(city: string, days?: integer): The weather in a city");
  expect(prompt).toContain("- order(id: string) -> {id: string, total: number}: An order");
  const full = ptc.prompt({ tools: { order } });
  expect(full).toContain(
    'Parameters (JSON Schema): {"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}',
  );
  expect(full).toContain("Returns: {id: string, total: number}");
});

test("a Standard Schema without JSON Schema is checked, not shown; jsonSchema() is shown and checked as JSON Schema", async () => {
  const positive = {
    "~standard": {
      version: 1,
      vendor: "hand",
      validate: (v) => (v.n > 0 ? { value: v } : { issues: [{ message: "must be positive", path: ["n"] }] }),
    },
  };
  const tools = {
    half: { parameters: positive, execute: ({ n }) => n / 2 },
    twice: tool({
      inputSchema: jsonSchema({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }),
      execute: async ({ n }) => n * 2,
    }),
  };
  expect((await ptc.run(call("half", { n: 4 }), { tools })).result).toBe(2);
  const bad = await ptc.run(call("half", { n: -1 }), { tools });
  expect(bad.error.message).toContain("at /n: must be positive");
  expect(ptc.prompt({ tools, compact: true })).toContain("- half\n- twice(n: number)");
  const wrong = await ptc.run(call("twice", { n: "2" }), { tools });
  expect(wrong.error.message).toContain("at /n: expected number, got string");
});

test("the real ai: tool() and jsonSchema() objects work as they are", () => {
  const source = `
    import { createRuntime } from "ptc-wasm";
    import { tool, jsonSchema } from "ai";
    import { ptcTool } from "ptc-wasm/ai-sdk";
    import { z } from "zod";
    const rt = await createRuntime();
    const tools = {
      weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => city.length }),
      twice: tool({ inputSchema: jsonSchema({ type: "object", properties: { n: { type: "number" } } }), execute: async ({ n }) => n * 2 }),
    };
    const run = async (name, args) => { const r = await rt.run({ program: { op: "call", tool: name, args } }, { tools }); return r.ok ? r.result : r.error.message; };
    console.log(JSON.stringify([await run("weather", { city: "Oslo" }), await run("weather", { city: 5 }), await run("twice", { n: "x" }), rt.prompt({ tools, compact: true }).includes("- twice(n?: number)"),
      await ptcTool(rt, { tools }).execute({ program: { op: "call", tool: "weather", args: { city: 5 } } })]));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: path.join(__dirname, "../.."),
    encoding: "utf8",
  });
  const [ok, bad, wrong, shown, fromPtcTool] = JSON.parse(out.trim().split("\n").pop());
  expect(ok).toBe(4);
  expect(bad).toContain("at /city: Invalid input: expected string, received number");
  expect(wrong).toContain("at /n: expected number, got string");
  expect(shown).toBe(true);
  // ptcTool: the model's bad args come back as the tool's failure.
  expect(fromPtcTool).toMatchObject({ ok: false, code: "tool_failed" });
  expect(fromPtcTool.error).toContain("at /city: Invalid input: expected string, received number");
});
