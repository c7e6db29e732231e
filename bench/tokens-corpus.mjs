// The token corpus (tests/token-corpus): each question's PTC-JSON program
// against its Python twin, in o200k_base tokens (gpt-tokenizer, the GPT-4o /
// o-series encoding). The TOKENS bench (bench/tokens.mjs) prints it; issue 25
// targets a total ratio of at most 1.2. The workflow corpus
// (tests/workflow-corpus) likewise: each workflow's step functions and PTC-JSON
// program against its Python twin, with issue 36's targets.
import { createRequire } from "node:module";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

const require = createRequire(import.meta.url);
const { tokenRows } = require("../tests/token-corpus/corpus.cjs");
const workflowCorpus = require("../tests/workflow-corpus/corpus.cjs");

const ratio = (ptc, python) => Math.round((ptc / python) * 100) / 100;

/** {rows: [{id, ptc, python, ratio}], total: {ptc, python, ratio}} over every question (all turns). */
export async function corpusTokens() {
  const rows = tokenRows((text) => encode(text).length);
  const ptc = rows.reduce((n, r) => n + r.ptc, 0);
  const python = rows.reduce((n, r) => n + r.python, 0);
  return { rows, total: { ptc, python, ratio: ratio(ptc, python) } };
}

/**
 * The workflow corpus: {rows: [{id, steps, ptc, python, stepsRatio, ptcRatio}],
 * total: {steps, ptc, python, stepsRatio, ptcRatio}, worst: {id, dialect, ratio}}
 * (worst: the highest ratio of either dialect to Python over the workflows).
 */
export async function workflowCorpusTokens() {
  const rows = workflowCorpus.tokenRows((text) => encode(text).length);
  const sum = (key) => rows.reduce((n, r) => n + r[key], 0);
  const [steps, ptc, python] = [sum("steps"), sum("ptc"), sum("python")];
  const total = { steps, ptc, python, stepsRatio: ratio(steps, python), ptcRatio: ratio(ptc, python) };
  const worst = rows
    .flatMap((r) => [
      { id: r.id, dialect: "step functions", ratio: r.stepsRatio },
      { id: r.id, dialect: "PTC-JSON", ratio: r.ptcRatio },
    ])
    .reduce((a, b) => (b.ratio > a.ratio ? b : a));
  return { rows, total, worst };
}

// `node bench/tokens-corpus.mjs`: the tables alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, total } = await corpusTokens();
  for (const r of [...rows, { id: "TOTAL", ...total }])
    console.log(
      `${r.id.padEnd(28)}${String(r.ptc).padStart(6)}${String(r.python).padStart(8)}${r.ratio.toFixed(2).padStart(7)}`,
    );
  const workflows = await workflowCorpusTokens();
  console.log(`\n${"workflow".padEnd(22)} steps    PTC  Python  steps/Py  PTC/Py`);
  for (const r of [...workflows.rows, { id: "TOTAL", ...workflows.total }])
    console.log(
      `${r.id.padEnd(22)}${String(r.steps).padStart(6)}${String(r.ptc).padStart(7)}${String(r.python).padStart(8)}` +
        `${r.stepsRatio.toFixed(2).padStart(10)}${r.ptcRatio.toFixed(2).padStart(8)}`,
    );
}
