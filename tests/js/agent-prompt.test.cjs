// runtime.prompt(): the system prompt teaching PTC-JSON, generated from the op
// table (full and compact), and runtime.asFunctionTool().
const fs = require("node:fs");
const path = require("node:path");
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

/** The end of the balanced JSON object starting at `at` (strings skipped), or -1. */
function objectEnd(text, at) {
  let depth = 0;
  let inString = false;
  for (let i = at; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i + 1;
  }
  return -1;
}

/** Each complete program written out in a text ({"program": ...} without placeholders) with its
 * caption: the text before it on its line, else the line above. */
function programsIn(text) {
  const found = [];
  for (let at = text.indexOf('{"program"'); at >= 0; at = text.indexOf('{"program"', at + 1)) {
    const end = objectEnd(text, at);
    const program = end < 0 ? "" : text.slice(at, end);
    if (!program || /<|\.\.\./.test(program)) continue;
    const lineStart = text.lastIndexOf("\n", at) + 1;
    const caption = text.slice(lineStart, at).trim() || text.slice(0, lineStart).trimEnd().split("\n").pop();
    found.push({ program, caption: caption.replace(/:$/, "") });
  }
  return found;
}

/** Every complete operation written out in a text outside a program ({"op": ...} without placeholders). */
function operationsIn(text) {
  const found = [];
  for (let at = text.indexOf("{"); at >= 0;) {
    const end = objectEnd(text, at);
    if (end < 0) break;
    let value;
    try {
      value = JSON.parse(text.slice(at, end));
    } catch {
      value = undefined;
    }
    const isOp = value !== null && typeof value === "object" && !Array.isArray(value) && typeof value.op === "string";
    if (isOp || (value && typeof value === "object" && "program" in value)) {
      if (isOp) found.push(value);
      at = text.indexOf("{", end); // its parts are not examples of their own
    } else at = text.indexOf("{", at + 1);
  }
  return found;
}

describe.each([
  ["full", {}],
  ["compact", { compact: true }],
])("the %s prompt", (_form, options) => {
  // The compact prompt names every op with its fields; descriptions are in the full one and on demand.
  test("names every op of the table (the full prompt with its description)", () => {
    const text = ptc.prompt(options);
    for (const op of ops) {
      if (!options.compact) expect([op.name, text.includes(op.description)]).toEqual([op.name, true]);
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
    const programs = programsIn(text).map((e) => e.program);
    expect(programs.length).toBeGreaterThan(options.compact ? 0 : 3);
    for (const p of programs) expect([p, ptc.validate(p)]).toEqual([p, { ok: true }]);
  });

  test("every op example and op name in backquotes is one the table knows", () => {
    const text = ptc.prompt(options);
    const names = new Set([...ops.map((o) => o.name), ...ops.flatMap((o) => o.fields.map((f) => f.name))]);
    for (const [, word] of text.matchAll(/`([a-z_]+)`/g)) expect([word, names.has(word)]).toEqual([word, true]);
  });
});

test("both prompts say what is not available", () => {
  expect(ptc.prompt()).toContain("Not available: regular expressions, a current date or time, randomness");
  expect(ptc.prompt({ compact: true })).toContain("No regex, clock or randomness.");
});

// Issue 35 item 4: what first attempts failed on, stated where a model reads the op.
test("the compact prompt states the facts models guessed at: scales, names, bounds, ends", () => {
  const compact = ptc.prompt({ compact: true });
  expect(compact).toContain("percentile*(field?, p: 0-100, method?: linear|nearest)");
  expect(compact).toContain("loop(init, next, while, max: 1-1000)");
  expect(compact).toContain('by?: ["a", "-b"], key?)');
  expect(compact).toContain('sort_by: "-a" descending, nulls last');
  // The aggregates' where and expr (a filter and a map first), stated once for the family.
  expect(compact).toContain("aggregation (+ where?, expr?): sum avg median count_distinct*(field?)");
  expect(compact).toContain("count*(where?)");
  expect(compact).toContain("flat_map*(expr|field)");
  expect(compact).toContain("slice and range end are exclusive");
  expect(compact).toContain("date_range's to included");
  expect(compact).toContain("{id:06}, {x:.2f}");
  expect(compact).toContain("to_number°(default?, decimal?: .|,)");
  expect(compact).toMatch(/^unit: second\|minute\|hour\|day\|week\|month\|year\|quarter/m);
});

test("sizes: the compact prompt is less than half the full one (budgets: tests/js/token-budgets.test.cjs)", () => {
  const full = ptc.prompt();
  expect(ptc.prompt({ compact: true }).length).toBeLessThan(full.length / 2);
  // approximateTokens is a documented estimate (characters / 4), never a budget.
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
  // Minimal by default (issue 25): the engine's errors name every fix.
  expect(fn.parameters.properties.program.type).toBe("object");
  expect(fn.parameters.$defs).toBeUndefined();
  const full = ptc.asFunctionTool({ tools, schema: "full" });
  expect(full.parameters.$schema).toBeUndefined();
  expect(full.parameters.$defs.op_call.properties.tool.enum).toEqual(["search_orders", "get_users"]);
  expect(() => ptc.asFunctionTool({ schema: "all" })).toThrow('option schema must be "minimal" or "full"');
  expect(JSON.parse(JSON.stringify(fn))).toEqual(fn); // plain JSON, ready to send
  expect(ptc.asFunctionTool({ name: "ptc", compact: false }).description).toBe(ptc.prompt({}));
});

/** A paginated mock tool: pages of `items`, each with the next page number (null on the last). */
function pagedTool(pages, nextKey) {
  return async ({ page }) => ({ items: pages[page - 1] ?? [], [nextKey]: page < pages.length ? page + 1 : null });
}

const orders = [
  { id: 10, user_id: 2, total: 50 },
  { id: 11, user_id: 1, total: 300 },
  { id: 12, user_id: 1, total: 150 },
  { id: 13, user_id: 2, total: 20 },
];
const pricedPages = [
  [
    { id: 1, price: "50" },
    { id: 2, price: "150.5" },
  ],
  [{ id: 3, price: "101" }],
];

// What each program in the prompts runs against and must compute, by the start of
// its caption. `after`: a program whose memory it starts from (a second turn).
const PROGRAM_EXAMPLES = {
  "Total of the travel expenses": {
    context: {
      expenses: [
        { category: "travel", amount: 10 },
        { category: "food", amount: 3 },
        { category: "travel", amount: 5.5 },
      ],
    },
    result: 15.5,
  },
  "Each order with its customer's name": {
    context: {
      orders,
      users: [
        { id: 1, name: "Ada" },
        { id: 2, name: "Bo" },
      ],
    },
    result: [
      { id: 11, total: 300, customer: "Ada" },
      { id: 12, total: 150, customer: "Ada" },
      { id: 10, total: 50, customer: "Bo" },
    ],
  },
  "Return a count and keep the matching rows": {
    context: { orders },
    result: 2,
    memoryDelta: { big_orders: [orders[1], orders[2]] },
  },
  "A later program uses it": { after: "Return a count and keep the matching rows", result: 225 },
  "Total and count per region": {
    context: {
      sales: [
        { region: "EU", amount: 10 },
        { region: "US", amount: 25 },
        { region: "EU", amount: 7 },
      ],
    },
    result: [
      { key: "US", total: 25, n: 1 },
      { key: "EU", total: 17, n: 2 },
    ],
  },
  "All pages of a paginated tool": {
    tools: { list_items: pagedTool(pricedPages, "next_page") },
    result: [
      { id: 2, price: "150.5" },
      { id: 3, price: "101" },
    ],
  },
  "All pages": {
    tools: { list: pagedTool(pricedPages, "next") },
    result: [
      { items: pricedPages[0], next: 2 },
      { items: pricedPages[1], next: null },
    ],
  },
};

test("every program in the full and compact prompts runs and computes what its caption says", async () => {
  const examples = [...programsIn(ptc.prompt()), ...programsIn(ptc.prompt({ compact: true }))];
  const fixtureOf = (caption) => Object.keys(PROGRAM_EXAMPLES).find((start) => caption.startsWith(start));
  expect(examples.map((e) => [e.caption, fixtureOf(e.caption) !== undefined])).toEqual(
    examples.map((e) => [e.caption, true]),
  );
  expect(new Set(examples.map((e) => fixtureOf(e.caption)))).toEqual(new Set(Object.keys(PROGRAM_EXAMPLES)));
  const memoryAfter = {};
  for (const { program, caption } of examples) {
    const start = fixtureOf(caption);
    const { context, tools, after, result, memoryDelta } = PROGRAM_EXAMPLES[start];
    const r = await ptc.run(program, { context, tools, memory: after && memoryAfter[after] });
    expect([caption, r.ok ? r.result : r.error]).toEqual([caption, result]);
    if (memoryDelta) expect(r.memoryDelta).toEqual(memoryDelta);
    memoryAfter[start] = r.memory;
  }
});

// A current value for operation examples: the first of these each runs on.
const ROW = {
  id: 1,
  name: " Ada ",
  email: "Ada@Example.com",
  code: "ab",
  status: "active",
  deleted: false,
  active: true,
  role: "admin",
  amount: 10,
  price: 12.5,
  years: 3,
  duration: 4,
  age: 30,
  score: 100,
  quantity: 5,
  qty: 1,
  reorder_level: 5,
  total: 1200,
  customer_id: "c1",
  user_id: 1,
  region: "EU",
  team: "red",
  n: 2,
  tags: ["urgent", "featured"],
  names: ["a", "b"],
  user: { email: "a@b.c" },
  date: "2024-03-15",
  due: "2024-03-15",
  sku: "EU-1",
  phone: "555-1234",
  created_at: "2024-03-15T10:30:00Z",
  opened_at: "2024-03-01T08:00:00Z",
  closed_at: "2024-03-01T10:00:00Z",
  ts: 1710498600,
  check_in: "2024-03-15",
  check_out: "2024-03-17",
  content: '{"a": [1, 2]}',
  report: "a;b\n1;2",
  line: "level=warn ms=130",
};
const CURRENT_VALUES = [
  [ROW, { ...ROW, id: 2, region: "US", status: "pending" }],
  ROW,
  { ...ROW, price: "12.5", tags: "a,b" },
  [
    [1, 2],
    [3, 4],
  ],
];

/** Runs an operation as a pipe step after a current value; the first current value it succeeds on wins. */
async function runOnSomeValue(op) {
  const errors = [];
  for (const input of CURRENT_VALUES) {
    const r = await ptc.run(
      { program: { op: "pipe", steps: [{ op: "load", name: "input" }, op] } },
      {
        context: { input, orders },
        memory: { x: 2.345, defaults: { a: 1 }, overrides: { b: 2 }, a: [1], b: [2], order: { user_id: 1 } },
        tools: { get_expenses: async () => ({ items: [], next_page: null }) },
      },
    );
    if (r.ok) return "runs";
    errors.push(r.error.message);
  }
  return errors;
}

test("every operation written out in the prompts and docs/operations.md runs", async () => {
  const root = path.join(__dirname, "../..");
  const docs = fs.readFileSync(path.join(root, "docs/operations.md"), "utf8").replaceAll("\\|", "|");
  // describe_language's answer for each family holds each of its ops' example.
  const families = [...new Set(ops.map((o) => o.category))];
  const described = families.map((topic) => ptc.describeLanguage({ topic })).join("\n");
  const sources = { full: ptc.prompt(), compact: ptc.prompt({ compact: true }), docs, described };
  const counts = {};
  for (const [name, text] of Object.entries(sources)) {
    const found = operationsIn(text);
    counts[name] = found.length;
    for (const op of found)
      expect([JSON.stringify(op), await runOnSomeValue(op)]).toEqual([JSON.stringify(op), "runs"]);
  }
  // Each op's example is in the docs and in describe_language's answers; the prompts' prose adds more.
  expect(counts.full).toBeGreaterThan(0);
  expect(counts.described).toBeGreaterThanOrEqual(ops.length);
  expect(counts.docs).toBeGreaterThanOrEqual(ops.length);
});

// Issue 25: details on demand, the API twin of MCP's describe_language.
test("runtime.describeLanguage answers for an op, a family, an error code, step functions, or nothing", () => {
  const dateDiff = ops.find((o) => o.name === "date_diff");
  const op = ptc.describeLanguage({ topic: "date_diff" });
  expect(op).toContain(dateDiff.description);
  expect(op).toContain(`Example: \`${JSON.stringify(dateDiff.example)}\``);
  for (const f of dateDiff.fields) expect(op).toContain(`\`${f.name}\``);
  const family = ptc.describeLanguage({ topic: "Dates" });
  for (const o of ops.filter((o) => o.category === "dates")) expect(family).toContain(`**${o.name}**`);
  expect(ptc.describeLanguage({ topic: "not_allowed_here" })).toMatch(
    /^Error code not_allowed_here \(validation_error\)/,
  );
  expect(ptc.describeLanguage({ topic: "step-functions", compact: true })).toBe(ptc.workflowPrompt({ compact: true }));
  expect(ptc.describeLanguage({ topic: "$date_trunc" })).toContain("Step functions, function");
  expect(ptc.describeLanguage({ topic: "yield" })).toContain('Step functions, step "yield"');
  expect(ptc.describeLanguage()).toBe(ptc.prompt());
  expect(ptc.describeLanguage({ topic: "datez" })).toMatch(/^No topic 'datez'\. Did you mean 'dates'/);
});
