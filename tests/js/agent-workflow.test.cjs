// Step functions for agents (issue 13 item 11): runtime.workflowPrompt() and
// runtime.workflowSchema(), generated from the engine's step table, operators and
// functions (runtime.workflowLanguage()). The prompt's examples run; the schema
// accepts every step-function conformance case the engine verifies.
const fs = require("node:fs");
const path = require("node:path");
const { Validator } = require("@cfworker/json-schema");
const { ptcWasm } = require("./helpers.cjs");

const root = path.join(__dirname, "../..");
const dir = path.join(root, "tests/conformance-workflows");

let ptc, language;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  language = ptc.workflowLanguage();
});

/**
 * Each balanced {"functions": ...} or {"steps": ...} object written out in a
 * text, as {functions, input?}: the short form's steps are the function "main"
 * with output "any", as run_workflow makes them (js/src/agents/workflow-request.ts).
 */
function filesIn(text) {
  return [...requestsIn(text, '{"functions"'), ...requestsIn(text, '{"steps"')].map((r) =>
    r.steps ? { ...r, functions: [{ function: "main", output: "any", steps: r.steps }] } : r,
  );
}

function requestsIn(text, start) {
  const found = [];
  for (let at = text.indexOf(start); at >= 0; at = text.indexOf(start, at + 1)) {
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
        if (!/<|\.\.\./.test(candidate)) found.push(JSON.parse(candidate));
        break;
      }
    }
  }
  return found;
}

// Tools the prompt's examples call.
const exampleTools = {
  get_ticket: async ({ id }) => {
    if (id === "t2") throw new Error("no ticket t2");
    return { id, opened_at: "2024-03-01T22:00:00Z", closed_at: "2024-03-02T01:30:00+01:00" };
  },
  get_order: async ({ id }) => ({ id, created_at: "2024-03-31T23:30:00-02:00", amount: "12.50" }),
  reserve: async ({ room }) => ({ id: `hold-${room}` }),
  charge: async () => {
    throw new Error("card declined");
  },
  release: async (args) => args,
};

describe("the engine's step-function table", () => {
  test("has every step kind (as the trace names them), the operators and the functions", () => {
    expect(language.steps.map((s) => s.name)).toEqual(["let", "call", "match", "if", "return", "for", "yield"]);
    expect(language.operators.map((o) => o.key)).toEqual([..."+ - * / > >= < <= == !=".split(" "), "and", "or", "not"]);
    // The functions are PTC-JSON operations: their descriptions come from the op table.
    const ops = new Map(ptc.operations().map((op) => [op.name, op]));
    for (const f of language.functions) {
      expect([f.key, f.description]).toEqual([`$${f.op}`, ops.get(f.op).description]);
      expect(f.params[0].name).toBe("value");
    }
    expect(language.functions.map((f) => f.key)).toEqual(
      expect.arrayContaining(["$to_number", "$lower", "$split", "$starts_with", "$date_diff", "$date_trunc"]),
    );
    expect(language.functions.find((f) => f.key === "$date_add").shape).toBe(
      '{"$date_add": [<value>, <amount>, "second"|"minute"|"hour"|"day"|"week"|"month"|"year"]}',
    );
  });

  test("every function has conformance cases that run it (tests/conformance-workflows/functions.json)", () => {
    const { cases } = JSON.parse(fs.readFileSync(path.join(dir, "functions.json"), "utf8"));
    const run = JSON.stringify(cases.filter((c) => !c.validateOnly).map((c) => c.functions));
    const missing = language.functions.map((f) => f.key).filter((key) => !run.includes(`"${key}"`));
    expect(missing).toEqual([]);
  });

  test("each function's example verifies", () => {
    for (const f of language.functions) {
      const refs = [...new Set(JSON.stringify(f.example).match(/\$[a-z_]+(?=")/g) ?? [])].filter((r) => r !== f.key);
      const steps = [...refs.map((r) => ({ let: r.slice(1), expr: null })), { return: f.example }];
      const source = JSON.stringify({ function: "f", output: "nil", steps });
      expect([f.key, ptc.validateWorkflow(source)]).toEqual([f.key, { ok: true }]);
    }
  });
});

describe.each([
  ["full", {}],
  ["compact", { compact: true }],
])("the %s step-function prompt", (_form, options) => {
  test("names every step kind, operator and function of the table", () => {
    const text = ptc.workflowPrompt(options);
    // Compact: the shape names the kind, without section references; functions by name and arguments.
    for (const kind of language.steps)
      expect(text).toContain(
        options.compact
          ? `${kind.shape}: ${kind.description.replace(/ \(§\d+\)/g, "")}`
          : `${kind.name} ${kind.shape}: ${kind.description}`,
      );
    for (const o of language.operators) expect(text).toContain(o.key);
    for (const f of language.functions) {
      expect(text).toContain(f.key);
      if (!options.compact) expect(text).toContain(f.description);
    }
    for (const needle of ["on-error", "$input", "result", "JSON Pointer", "ValidationError", "UTC"])
      expect([needle, text.includes(needle)]).toEqual([needle, true]);
  });

  // Issue 36: what models guessed at, and the forms they lacked, are stated.
  test("states the order of a loop's items, compensations, match keys and how not is written", () => {
    const text = ptc.workflowPrompt(options);
    const needles = options.compact
      ? [
          "A for runs its items in order",
          '"parallel": true or N',
          "[calls of tools or your functions, in order",
          '"let" binds each',
        ]
      : [
          "a for runs its items in order",
          '"parallel": true (or a number',
          "Compensations run in written order",
          "may call a function of the file",
        ];
    for (const needle of [...needles, 'true is "true"', '{"not": ', '"then"', '"else"', '"break"', '"retry"', "where"])
      expect([needle, text.includes(needle)]).toEqual([needle, true]);
    expect(text).not.toMatch(/No while, break|else, while, break/);
  });

  test("is generated from the table: a new step kind, operator or function appears in it", () => {
    const fake = Object.create(ptc);
    const more = {
      steps: [
        ...language.steps,
        {
          name: "wait",
          description: "Waits a while.",
          shape: "{wait}",
          keys: [{ name: "wait", kind: "expr", presence: "kind" }],
        },
      ],
      operators: [...language.operators, { key: "%", minOperands: 2, maxOperands: 2, description: "remainder" }],
      functions: [
        ...language.functions,
        { ...language.functions[0], key: "$abs", shape: '{"$abs": [<value>]}', description: "Absolute value." },
      ],
    };
    fake.workflowLanguage = () => more;
    const text = fake.workflowPrompt(options);
    expect(text).toContain(options.compact ? "{wait}: Waits a while." : "wait {wait}: Waits a while.");
    expect(text).toContain("%");
    expect(text).toContain("$abs");
    expect(ptc.workflowPrompt(options)).not.toContain("Waits a while.");
    const schema = fake.workflowSchema();
    expect(schema.$defs.step_wait.required).toEqual(["wait"]);
    expect(schema.$defs.function_abs.title).toBe("$abs");
  });

  test("lists the tools, with their signatures in the compact form", () => {
    const tools = {
      get_ticket: {
        description: "A ticket by id.",
        parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        execute: async () => ({}),
      },
    };
    const text = ptc.workflowPrompt({ ...options, tools });
    expect(text).toContain("A ticket by id.");
    if (options.compact) expect(text).toContain("get_ticket(id: string)");
    if (!options.compact) expect(ptc.workflowPrompt(options)).toContain("No tools are available");
  });

  test("every example in it verifies and runs", async () => {
    const files = filesIn(ptc.workflowPrompt(options));
    expect(files.length).toBeGreaterThanOrEqual(options.compact ? 1 : 3);
    const validator = new Validator(ptc.workflowSchema(), "2020-12", false);
    for (const file of files) {
      const source = file.functions.map((f) => JSON.stringify(f)).join("\n");
      expect(validator.validate({ functions: file.functions }).valid).toBe(true);
      const r = await ptc.runWorkflow(source, { input: file.input ?? {}, tools: exampleTools });
      expect([source, r.ok ? "ok" : r.error]).toEqual([source, "ok"]);
    }
  });
});

test("the compact prompt is shorter than the full one", () => {
  // The budgets, in o200k_base tokens, are checked in tests/js/token-budgets.test.cjs.
  expect(ptc.workflowPrompt({ compact: true }).length).toBeLessThan(ptc.workflowPrompt().length / 2);
});

describe("the step-function schema", () => {
  const cases = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).cases.map((c) => ({ ...c, file: f })));

  /** The case's functions as JSON values, or undefined when its text is not a sequence of JSON objects. */
  function functionsOf(c) {
    if (c.functions) return c.functions;
    const text = c.sourceFile ? fs.readFileSync(path.join(root, c.sourceFile), "utf8") : c.source;
    try {
      return JSON.parse(`[${text.replace(/\}\s*\{/g, "},{")}]`);
    } catch {
      return undefined;
    }
  }

  // The cases the engine verifies: those that run or fail only while running.
  const verified = cases.filter((c) => !["parse_error", "validation_error"].includes(c.expect?.error?.type));

  test("has one definition per step kind, operator and function", () => {
    const { $defs } = ptc.workflowSchema();
    for (const kind of language.steps) expect($defs[`step_${kind.name}`].title).toBe(`${kind.name} step`);
    for (const f of language.functions) expect($defs[`function_${f.key.slice(1)}`].title).toBe(f.key);
  });

  test.each(verified.map((c) => [`${c.file} ${c.name}`, c]))("accepts %s", (_name, c) => {
    const functions = functionsOf(c);
    if (!functions) return; // its text is not JSON objects (a case about reading the file)
    const { valid, errors } = new Validator(ptc.workflowSchema(), "2020-12", false).validate({ functions });
    expect(valid ? [] : errors.slice(-3)).toEqual([]);
  });

  test("rejects what it can see is wrong: an unknown step, a function's argument count or unit", () => {
    const validator = new Validator(ptc.workflowSchema(), "2020-12", false);
    const file = (step) => ({ functions: [{ function: "f", output: "nil", steps: [step] }] });
    expect(validator.validate(file({ return: 1 })).valid).toBe(true);
    expect(validator.validate(file({ wait: 1 })).valid).toBe(false);
    expect(validator.validate(file({ return: 1, extra: 2 })).valid).toBe(false);
    expect(validator.validate(file({ return: { $date_add: ["2024-01-01", 1, "day"] } })).valid).toBe(true);
    expect(validator.validate(file({ return: { $date_add: ["2024-01-01", 1] } })).valid).toBe(false);
    expect(validator.validate(file({ return: { $date_add: ["2024-01-01", 1, "days"] } })).valid).toBe(false);
    expect(validator.validate(file({ return: { $upper: "$x" } })).valid).toBe(true);
  });
});
