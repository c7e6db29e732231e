// runtime.prompt(): the system prompt teaching PTC-JSON, generated from the op
// table (full and compact), and runtime.asFunctionTool().
const { ptcWasm } = require("./helpers.cjs");

let ptc, ops;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  ops = ptc.operations();
});

const tools = {
  search_orders: {
    description: "Orders matching a query, newest first.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: "integer", minimum: 1 },
        status: { enum: ["open", "shipped"] },
      },
      required: ["query"],
      additionalProperties: false,
    },
    execute: async () => [],
  },
  get_users: async () => [],
};

const tokens = (text) => Math.ceil(text.length / 4);

/** The complete programs written out in a text: each balanced {"program": ...} without placeholders. */
function programsIn(text) {
  const found = [];
  for (let at = text.indexOf('{"program"'); at >= 0; at = text.indexOf('{"program"', at + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = at; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        const candidate = text.slice(at, i + 1);
        if (!/<|\.\.\./.test(candidate)) found.push(candidate);
        break;
      }
    }
  }
  return found;
}

describe.each([
  ["full", {}],
  ["compact", { compact: true }],
])("the %s prompt", (_form, options) => {
  test("names every op of the table with its shape and description", () => {
    const text = ptc.prompt(options);
    for (const op of ops) {
      expect([op.name, text.includes(op.description)]).toEqual([op.name, true]);
      expect([op.name, new RegExp(`\\b${op.name}\\b`).test(text)]).toEqual([op.name, true]);
    }
  });

  test("states the memory contract, truthiness, the current value and the error types", () => {
    const text = ptc.prompt(options);
    for (const needle of ["result", "memory", "falsy", "current value", "implicit object", "JSON Pointer"])
      expect([needle, text.toLowerCase().includes(needle.toLowerCase())]).toEqual([needle, true]);
    for (const type of ["ParseError", "ValidationError", "ExecutionError", "Timeout", "MemoryExceeded"])
      expect(text).toContain(type);
  });

  test("lists the tools with their descriptions and parameters", () => {
    const text = ptc.prompt({ ...options, tools });
    expect(text).toContain("search_orders");
    expect(text).toContain("Orders matching a query, newest first.");
    expect(text).toContain("get_users");
    if (options.compact)
      expect(text).toContain('search_orders(query: string, limit?: integer, status?: "open"|"shipped")');
    else expect(text).toContain(JSON.stringify(tools.search_orders.parameters));
  });

  test("every program in it is a valid program", () => {
    const text = ptc.prompt({ ...options, tools: ["get_expenses"] });
    const programs = programsIn(text);
    expect(programs.length).toBeGreaterThan(options.compact ? 0 : 3);
    for (const p of programs) expect([p, ptc.validate(p)]).toEqual([p, { ok: true }]);
  });

  test("every op example and op name in backquotes is one the table knows", () => {
    const text = ptc.prompt(options);
    const names = new Set([...ops.map((o) => o.name), ...ops.flatMap((o) => o.fields.map((f) => f.name))]);
    for (const [, word] of text.matchAll(/`([a-z_]+)`/g)) expect([word, names.has(word)]).toEqual([word, true]);
  });
});

test("sizes: the compact prompt stays under 2,500 tokens (characters / 4)", () => {
  const full = ptc.prompt();
  const compact = ptc.prompt({ compact: true });
  const compactWithTools = ptc.prompt({ compact: true, tools });
  console.log(
    `prompt sizes: full ${full.length} chars (~${tokens(full)} tokens); compact ${compact.length} chars ` +
      `(~${tokens(compact)} tokens); compact with 2 tools ${compactWithTools.length} chars (~${tokens(compactWithTools)} tokens)`,
  );
  expect(tokens(compact)).toBeLessThan(2500);
  expect(tokens(compactWithTools)).toBeLessThan(2500);
  expect(compact.length).toBeLessThan(full.length / 2);
  expect(ptcWasm.approximateTokens(full)).toBe(tokens(full));
});

test("the context's keys are listed for load, with a type summary", () => {
  const text = ptc.prompt({ context: { orders: [{ id: 1, total: 5 }], region: "EU" } });
  expect(text).toContain("`orders`: list of 1 objects with keys id, total");
  expect(text).toContain("`region`: string");
});

test("asFunctionTool: {name, description, parameters} for OpenAI-style function calling", () => {
  const fn = ptc.asFunctionTool({ tools });
  expect(fn.name).toBe("run_program");
  expect(fn.description).toBe(ptc.prompt({ tools, compact: true }));
  expect(fn.parameters.$schema).toBeUndefined();
  expect(fn.parameters.required).toEqual(["program"]);
  expect(fn.parameters.$defs.op_call.properties.tool.enum).toEqual(["search_orders", "get_users"]);
  expect(JSON.parse(JSON.stringify(fn))).toEqual(fn); // plain JSON, ready to send
  expect(ptc.asFunctionTool({ name: "ptc", compact: false }).description).toBe(ptc.prompt({}));
});

test("the full prompt's examples compute what they say", async () => {
  const [travel, join, store, later] = programsIn(ptc.prompt()).filter((p) => !p.includes("get_expenses"));
  const context = {
    expenses: [
      { category: "travel", amount: 10 },
      { category: "food", amount: 3 },
      { category: "travel", amount: 5.5 },
    ],
    users: [
      { id: 1, name: "Ada" },
      { id: 2, name: "Bo" },
    ],
    orders: [
      { id: 10, user_id: 2, total: 50 },
      { id: 11, user_id: 1, total: 300 },
      { id: 12, user_id: 1, total: 150 },
      { id: 13, user_id: 2, total: 20 },
    ],
  };
  expect(await ptc.run(travel, { context })).toMatchObject({ ok: true, result: 15.5 });
  expect(await ptc.run(join, { context })).toMatchObject({
    ok: true,
    result: [
      { id: 11, total: 300, customer: "Ada" },
      { id: 12, total: 150, customer: "Ada" },
      { id: 10, total: 50, customer: "Bo" },
    ],
  });
  const first = await ptc.run(store, { context });
  expect(first).toMatchObject({ ok: true, result: 2, memoryDelta: { big_orders: [{ id: 11 }, { id: 12 }] } });
  expect(await ptc.run(later, { memory: first.memory })).toMatchObject({ ok: true, result: 225 });
});
