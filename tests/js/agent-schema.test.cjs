// runtime.schema(): the JSON Schema of a program, generated from the op table.
// Both directions over every conformance case: what the engine accepts validates;
// what it rejects for a reason a schema can express is rejected by the schema.
const fs = require("node:fs");
const path = require("node:path");
const { Validator } = require("@cfworker/json-schema");
const Ajv2020 = require("ajv/dist/2020").default;
const { ptcWasm } = require("./helpers.cjs");

const dir = path.join(__dirname, "../conformance");
const cases = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).cases.map((c) => ({ ...c, file: f })));

let ptc, ops, generic;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
  ops = ptc.operations();
  generic = new Validator(ptc.schema(), "2020-12", false);
});

const toolNamesOf = (c) => (c.validateOnly ? undefined : Object.keys(c.tools ?? {}));

/** The case's program as a JSON value, or undefined when its text is not JSON at all. */
function programValue(c) {
  if (!("source" in c)) return { value: c.program };
  try {
    return { value: JSON.parse(c.source) };
  } catch {
    return undefined;
  }
}

function engineVerdict(c) {
  const program = "source" in c ? c.source : c.program;
  const tools = toolNamesOf(c);
  return ptc.validate(program, {
    ...(c.options?.maxDepth ? { maxDepth: c.options.maxDepth } : {}),
    ...(tools ? { tools } : {}),
  });
}

// What a JSON Schema cannot say, and so is left to the engine.
const engineOnly = [
  [/nested more than \d+ levels deep \(maxDepth\)/, "nesting depth (maxDepth) is not a JSON Schema constraint"],
  [
    /nested deeper than/i,
    "JSON nested deeper than the engine's parser accepts: the text is JSON, the limit is the engine's",
  ],
  [
    /An object whose first key is "|a keyed form's key is its first/,
    "which key of an object comes first (a keyed form's): JSON Schema does not order keys",
  ],
  [/^Unknown keyed operation/, "a keyed form's name misspelt by one slip: the engine's guess, no schema constraint"],
  [
    /cannot call tools in its expressions/,
    "a tool call anywhere inside group_by or from_entries: the schema does not track calls",
  ],
];
const toolNameRule = /^Unknown tool/; // expressible only when the schema knows the tool set

describe("the schema over every conformance case", () => {
  test("cases the engine accepts validate; structurally bad ones are rejected; the rest is engine-only", () => {
    const tally = { accepted: 0, rejected: 0, notJson: 0, engineOnly: 0, toolNames: 0 };
    const disagreements = [];
    for (const c of cases) {
      const parsed = programValue(c);
      const verdict = engineVerdict(c);
      if (!parsed) {
        // Not JSON text: a parse_error before any schema could look at it.
        expect([c.name, verdict.ok, verdict.error.type]).toEqual([c.name, false, "parse_error"]);
        tally.notJson++;
        continue;
      }
      const ok = generic.validate(parsed.value).valid;
      if (verdict.ok) {
        tally.accepted++;
        if (!ok) disagreements.push(`${c.file} / ${c.name}: the engine accepts it, the schema rejects it`);
        continue;
      }
      const rule = engineOnly.find(([re]) => re.test(verdict.error.message));
      if (rule) {
        tally.engineOnly++;
        continue;
      }
      if (toolNameRule.test(verdict.error.message)) {
        tally.toolNames++;
        const withTools = new Validator(ptc.schema({ tools: toolNamesOf(c) }), "2020-12", false);
        if (withTools.validate(parsed.value).valid)
          disagreements.push(`${c.file} / ${c.name}: unknown tool accepted by the schema that knows the tools`);
        continue;
      }
      tally.rejected++;
      if (ok)
        disagreements.push(
          `${c.file} / ${c.name}: ${verdict.error.type} "${verdict.error.message}" but the schema accepts it`,
        );
    }
    expect(disagreements).toEqual([]);
    // Every case was looked at, and each direction was exercised in earnest.
    expect(tally.accepted + tally.rejected + tally.notJson + tally.engineOnly + tally.toolNames).toBe(cases.length);
    expect(tally.accepted).toBeGreaterThan(500);
    expect(tally.rejected).toBeGreaterThan(100);
    expect(tally.engineOnly).toBeGreaterThan(0);
    expect(tally.toolNames).toBeGreaterThan(0);
    console.log(`schema round trip over ${cases.length} conformance cases: ${JSON.stringify(tally)}`);
  });

  test("with the run's tool set, a schema also accepts every accepted case that calls tools", () => {
    for (const c of cases.filter((c) => c.tools && !c.validateOnly)) {
      const parsed = programValue(c);
      if (!parsed || !engineVerdict(c).ok) continue;
      const withTools = new Validator(ptc.schema({ tools: c.tools }), "2020-12", false);
      expect([c.name, withTools.validate(parsed.value).valid]).toEqual([c.name, true]);
    }
  });
});

describe("the schema is generated from the op table", () => {
  test("one definition per operation, with its fields, required fields, description and example", () => {
    const schema = ptc.schema();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$defs.operation.allOf).toHaveLength(ops.length);
    expect(schema.$defs.operation.properties.op.enum).toEqual(ops.map((o) => o.name));
    for (const op of ops) {
      const def = schema.$defs[`op_${op.name}`];
      expect(def.properties.op).toEqual({ const: op.name });
      expect(Object.keys(def.properties).sort()).toEqual(["op", ...op.fields.map((f) => f.name)].sort());
      expect(def.required).toEqual(["op", ...op.fields.filter((f) => f.presence === "required").map((f) => f.name)]);
      expect(def.description).toContain(op.description);
      expect(def.additionalProperties).toBe(false);
      expect(def.examples).toEqual([op.example]);
      for (const f of op.fields) expect(def.properties[f.name].description).toBe(f.description);
    }
  });

  test("it is a valid draft 2020-12 schema (ajv: no unknown keywords or formats)", () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false, allErrors: true });
    const validate = ajv.compile(ptc.schema());
    // The two validators agree on a sample.
    expect(validate({ program: { op: "count" } })).toBe(true);
    expect(validate({ program: { op: "cuont" } })).toBe(false);
  });

  test("validation is linear in the program's depth, even for a validator that collects every error", () => {
    const collectAll = new Validator(ptc.schema(), "2020-12", false);
    let program = { op: "literal", value: true };
    for (let i = 0; i < 60; i++)
      program = [
        { op: "not", condition: program },
        { op: "if", condition: program, then: 1, else: 2 },
        { op: "pipe", steps: [{ a: program }] },
      ][i % 3];
    // Validation exponential in the depth would not end at all: Jest's own time limit catches it.
    expect(collectAll.validate({ program }).valid).toBe(true);
  });

  // Every field of every op, mutated to a value of the wrong kind: the schema and the engine both reject it.
  const wrongValue = {
    string: 5,
    field: 5,
    string_list: "x",
    non_negative_integer: -1,
    precision: 16,
    order: "up",
    sort_keys: "x",
    percent: 101,
    percentile_method: "median",
    choice: "no-such-choice",
    text: 5,
    iterations: 0,
    expr_list: "x",
    expr_fields: [1],
  };

  test("mutations of every op's example: missing required field, unknown field, wrong kind, unknown op", () => {
    let checked = 0;
    const expectBothReject = (label, program) => {
      const engine = ptc.validate({ program });
      const schema = generic.validate({ program }).valid;
      expect([label, engine.ok, schema]).toEqual([label, false, false]);
      checked++;
    };
    const expectBothAccept = (label, program) => {
      expect([label, ptc.validate({ program }).ok, generic.validate({ program }).valid]).toEqual([label, true, true]);
      checked++;
    };
    for (const op of ops) {
      const example = op.example;
      expectBothAccept(`${op.name} example`, example);
      expectBothReject(`${op.name} + unknown field`, { ...example, no_such_field: 1 });
      expectBothReject(`${op.name} renamed`, { ...example, op: `${op.name}x` });
      for (const f of op.fields) {
        if (f.presence === "required") {
          const { [f.name]: _gone, ...rest } = example;
          expectBothReject(`${op.name} without ${f.name}`, rest);
        }
        if (f.kind in wrongValue) {
          const mutated = { ...example, [f.name]: wrongValue[f.kind] };
          if (f.presence === "one_of")
            for (const g of op.fields) if (g !== f && g.presence === "one_of") delete mutated[g.name];
          expectBothReject(`${op.name}.${f.name} of the wrong kind`, mutated);
        }
      }
    }
    expectBothReject("op not a string", { op: 5 });
    expectBothReject("bad op nested in an implicit object", { a: { op: "cuont" } });
    expectBothReject("bad op nested deep in an implicit object", { a: { b: [{ op: "cuont" }] } });
    expectBothReject("bad op in a list in an expression position", { op: "pipe", steps: [[{ op: "cuont" }]] });
    expectBothAccept("operations at any depth of an implicit object", { a: { b: [{ op: "var", name: "x" }] } });
    expectBothAccept("literal keeps data holding op keys", { op: "literal", value: { a: { op: "cuont" } } });
    expectBothReject("a constant condition", { op: "not", condition: true });
    expectBothReject("a constant among conditions", { op: "and", conditions: [{ op: "var", name: "x" }, 1] });
    expectBothReject("a bare string as a pipe step", { op: "pipe", steps: [{ op: "var", name: "x" }, "amount"] });
    expectBothReject("a bare string as a map expression", { op: "map", expr: "name" });
    expectBothAccept("a bare number as a map expression", { op: "map", expr: 0 });
    expect(checked).toBeGreaterThan(ops.length * 4);
  });

  test("known tools become an enum of call.tool", () => {
    const schema = ptc.schema({ tools: { search: () => 1, fetch_page: { execute: () => 1 } } });
    expect(schema.$defs.op_call.properties.tool.enum).toEqual(["search", "fetch_page"]);
    const v = new Validator(schema, "2020-12", false);
    expect(v.validate({ program: { op: "call", tool: "search" } }).valid).toBe(true);
    expect(v.validate({ program: { op: "call", tool: "serch" } }).valid).toBe(false);
  });
});
