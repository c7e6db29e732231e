// The token corpus (tests/token-corpus, issue 25): every question's PTC-JSON
// program runs through the built package and its Python twin through python3,
// on the same data and tools; their answers must agree. The tokens they cost
// are the TOKENS bench's (bench/tokens-corpus.mjs).
const { encode } = require("gpt-tokenizer/encoding/o200k_base");
const { ptcWasm } = require("./helpers.cjs");
const corpus = require("../token-corpus/corpus.cjs");
const TARGETS = require("../../bench/token-targets.json");

let ptc;
const data = corpus.generate();
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

test.each(corpus.questions.map((q) => [q.id, q]))("%s: the PTC-JSON answer is the Python twin's", async (_id, q) => {
  const got = await corpus.runPtc(ptc, q, data);
  const want = corpus.runPython(q, data);
  if (!corpus.sameAnswer(got, want)) expect({ id: q.id, got }).toEqual({ id: q.id, got: want });
});

test("at least 25 questions, each program one line per turn, as many turns in both twins", () => {
  expect(corpus.questions.length).toBeGreaterThanOrEqual(25);
  expect(new Set(corpus.questions.map((q) => q.id)).size).toBe(corpus.questions.length);
  for (const q of corpus.questions) {
    const { ptc: turns, python } = corpus.twins(q);
    expect([q.id, turns.length]).toEqual([q.id, python.length]);
    for (const text of turns)
      expect([q.id, text.startsWith('{"program":'), JSON.parse(text) !== null]).toEqual([q.id, true, true]);
  }
});

// The shapes the questions are about must be in the data, or the programs prove nothing.
test("the data holds the traps the questions mention", async () => {
  const views = data.views;
  const gap = (a, b) => (Date.parse(b.at) - Date.parse(a.at)) / 60e3;
  expect(views.some((v, i) => i > 0 && v.user === views[i - 1].user && gap(views[i - 1], v) > 30)).toBe(true);
  expect(data.wishlist.length).toBeGreaterThan(30); // several batches of 10
  expect(data.flagged.some((id) => !(id in data.accounts))).toBe(true);
  expect(data.customers.some((c) => !data.carts.some((k) => k.customer_id === c.id))).toBe(true);
  expect(data.expenses.some((e) => e.amount.includes(","))).toBe(true);
  expect(data.audit.length).toBeGreaterThan(40); // several cursor pages
});

// Issue 35: no question costs more than corpusWorstRatio x its Python twin's
// tokens (o200k_base, the twins as written; the TOKENS bench prints every ratio).
test(`no question's PTC-JSON twin is over ${TARGETS.corpusWorstRatio}x its Python twin's tokens`, () => {
  const over = corpus.tokenRows((text) => encode(text).length).filter((r) => r.ratio > TARGETS.corpusWorstRatio);
  expect(over).toEqual([]);
});

// Issue 35: the whole corpus costs at most corpusRatio x its Python twins' tokens.
test(`the corpus's PTC-JSON twins are at most ${TARGETS.corpusRatio}x the Python twins' tokens in total`, () => {
  const rows = corpus.tokenRows((text) => encode(text).length);
  const total = (key) => rows.reduce((n, r) => n + r[key], 0);
  expect({ ptc: total("ptc"), ratio: total("ptc") / total("python") <= TARGETS.corpusRatio }).toEqual({
    ptc: total("ptc"),
    ratio: true,
  });
});
