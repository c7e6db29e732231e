// The workflow corpus (tests/workflow-corpus, issue 36): every workflow's three
// twins (step functions, PTC-JSON, Python) run in every situation of the world
// against fresh stateful mock tools, and each must give the situation's answer
// AND leave its effects (what was booked, charged, refunded, released, sent).
// The step functions and the PTC-JSON program run through the built package,
// the Python twin through python3 (harness.py) with the same mocks, interpreted
// from the same JSON description. The tokens the twins cost are the TOKENS
// bench's (bench/tokens-corpus.mjs, npm run bench -- --only TOKENS).
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { encode } = require("gpt-tokenizer/encoding/o200k_base");
const { ptcWasm } = require("./helpers.cjs");
const corpus = require("../workflow-corpus/corpus.cjs");
const { mockWorld } = require("../workflow-corpus/mocks.cjs");
const TARGETS = require("../../bench/token-targets.json").workflowCorpus;

let ptc;
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

const cases = corpus.workflows.flatMap((w) => w.situations.map((s, i) => [w.id, s.name, w, s, i]));

// A failure shows the compared forms of what the twin did and what the situation expects.
const expectJudged = (workflow, situation, got) => {
  const { pass, have, want } = corpus.judge(workflow, situation, got);
  if (!pass) expect(have).toEqual(want);
};

test.each(cases)("%s, %s: the step functions give the answer and the effects", async (_id, _s, w, s) => {
  expectJudged(w, s, await corpus.runSteps(ptc, w, s));
});

test.each(cases)("%s, %s: the PTC-JSON program gives the answer and the effects", async (_id, _s, w, s) => {
  expectJudged(w, s, await corpus.runPtc(ptc, w, s));
});

const python = new Map(); // workflow id -> [{answer, effects}] per situation: one python3 per workflow
test.each(cases)("%s, %s: the Python twin gives the answer and the effects", (id, _s, w, s, i) => {
  if (!python.has(id)) python.set(id, corpus.runPython(w));
  expectJudged(w, s, python.get(id)[i]);
});

test("at least 15 workflows, each in 3 or more situations, with three twins as a model sends them", () => {
  const ids = corpus.workflows.map((w) => w.id);
  expect(ids.length).toBeGreaterThanOrEqual(15);
  expect(new Set(ids).size).toBe(ids.length);
  const programs = fs.readdirSync(path.join(__dirname, "../workflow-corpus/programs"));
  expect(programs.sort()).toEqual(ids.flatMap((id) => [`${id}.json`, `${id}.py`, `${id}.steps.json`]).sort());
  for (const w of corpus.workflows) {
    expect([w.id, typeof w.instruction, w.situations.length >= 3]).toEqual([w.id, "string", true]);
    const names = w.situations.map((s) => s.name);
    expect([w.id, new Set(names).size]).toEqual([w.id, names.length]);
    // A situation changes only tools the workflow has, and every effect names one.
    for (const s of w.situations) {
      for (const name of [...Object.keys(s.tools ?? {}), ...s.effects.map(([tool]) => tool)])
        expect([w.id, s.name, name, name in w.tools]).toEqual([w.id, s.name, name, true]);
      expect([w.id, s.name, "answer" in s]).toEqual([w.id, s.name, true]);
    }
    // One line each, as the compact prompts ask: {"steps": [...]} or {"functions": [...]}, and {"program": ...}.
    const { steps, ptc: program } = corpus.twins(w);
    const stepsKey = Object.keys(JSON.parse(steps)).find((k) => k === "steps" || k === "functions");
    expect([w.id, steps.includes("\n"), stepsKey !== undefined]).toEqual([w.id, false, true]);
    expect([w.id, program.includes("\n"), Object.keys(JSON.parse(program))[0]]).toEqual([w.id, false, "program"]);
  }
});

test("every workflow's effects differ between situations: the situations test the failures they name", () => {
  for (const w of corpus.workflows) {
    const distinct = new Set(w.situations.map((s) => JSON.stringify([s.answer, s.effects])));
    expect([w.id, distinct.size]).toEqual([w.id, w.situations.length]);
  }
});

// The mocks cannot drift between the two hosts: one description exercising every
// rule (when, call numbers, fail, an effect before a failure, an idempotency key,
// templates) answers the same calls the same way in JavaScript and in Python.
test("the JavaScript and Python mocks interpret a description the same way", async () => {
  const workflow = {
    tools: {
      pay: {
        effect: true,
        idempotent: "key",
        returns: { id: "p-{#}", amount: "{amount}", note: "paid {amount} for {key}" },
        rules: [
          { call: 1, fail: "timeout on {key}", effect: true },
          { when: { key: "k2" }, call: [2, 3], fail: "busy" },
          { when: { amount: 0.5 }, returns: { id: "half", n: "{#}" } },
        ],
      },
      read: {
        returns: null,
        rules: [
          { when: { q: null }, returns: [1, { a: "{q}" }] },
          { when: { q: 2 }, fail: "no {q}" },
        ],
      },
    },
  };
  const calls = [
    ["pay", { key: "k1", amount: 10 }],
    ["pay", { key: "k1", amount: 10 }],
    ["pay", { key: "k2", amount: 2.5 }],
    ["pay", { key: "k2", amount: 2.5 }],
    ["pay", { key: "k2", amount: 2.5 }],
    ["pay", { key: "k3", amount: 0.5 }],
    ["pay", { key: "k3", amount: 0.5 }],
    ["read", { q: null }],
    ["read", { q: 2 }],
    ["read", { q: "x" }],
  ];
  const { tools, effects } = mockWorld(workflow, {});
  const js = [];
  for (const [name, args] of calls)
    js.push(
      await tools[name](args).then(
        (ok) => ({ ok }),
        (e) => ({ error: e.message }),
      ),
    );
  const code = `out = []
for name, args in ${JSON.stringify(calls).replace(/null/g, "None")}:
    try:
        out.append({"ok": globals()[name](**args)})
    except Exception as e:
        out.append({"error": str(e)})
out`;
  const job = { code, situations: [{ tools: workflow.tools }] };
  const res = spawnSync("python3", [path.join(__dirname, "../workflow-corpus/harness.py")], {
    input: JSON.stringify(job),
    encoding: "utf8",
  });
  expect(res.stderr).toBe("");
  const [py] = JSON.parse(res.stdout);
  expect(py).toEqual({ answer: js, effects });
  // What the rules say: the first call's effect is kept, so its key's retry gets the same payment.
  expect(js.slice(0, 2)).toEqual([
    { error: "timeout on k1" },
    { ok: { id: "p-1", amount: 10, note: "paid 10 for k1" } },
  ]);
  expect(effects.map(([, args]) => args.key)).toEqual(["k1", "k2", "k3"]);
});

// Issue 36's targets; skipped while token-targets.json marks the corpus as the baseline.
(TARGETS.enforced ? test : test.skip)(
  `tokens: step functions <= ${TARGETS.stepsRatio}x Python, PTC-JSON <= ${TARGETS.ptcRatio}x, no workflow over ${TARGETS.worstRatio}x`,
  () => {
    const rows = corpus.tokenRows((text) => encode(text).length);
    const sum = (key) => rows.reduce((n, r) => n + r[key], 0);
    expect(corpus.ratio(sum("steps"), sum("python"))).toBeLessThanOrEqual(TARGETS.stepsRatio);
    expect(corpus.ratio(sum("ptc"), sum("python"))).toBeLessThanOrEqual(TARGETS.ptcRatio);
    const over = rows.filter((r) => Math.max(r.stepsRatio, r.ptcRatio) > TARGETS.worstRatio).map((r) => r.id);
    expect(over).toEqual([]);
  },
);
