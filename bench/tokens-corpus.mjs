// The token corpus (tests/token-corpus): each question's PTC-JSON program
// against its Python twin, in o200k_base tokens (gpt-tokenizer, the GPT-4o /
// o-series encoding). The TOKENS bench (bench/tokens.mjs) prints it; issue 25
// targets a total ratio of at most 1.2.
import { createRequire } from "node:module";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

const require = createRequire(import.meta.url);
const { tokenRows } = require("../tests/token-corpus/corpus.cjs");

const ratio = (ptc, python) => Math.round((ptc / python) * 100) / 100;

/** {rows: [{id, ptc, python, ratio}], total: {ptc, python, ratio}} over every question (all turns). */
export async function corpusTokens() {
  const rows = tokenRows((text) => encode(text).length);
  const ptc = rows.reduce((n, r) => n + r.ptc, 0);
  const python = rows.reduce((n, r) => n + r.python, 0);
  return { rows, total: { ptc, python, ratio: ratio(ptc, python) } };
}

// `node bench/tokens-corpus.mjs`: the table alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, total } = await corpusTokens();
  for (const r of [...rows, { id: "TOTAL", ...total }])
    console.log(
      `${r.id.padEnd(28)}${String(r.ptc).padStart(6)}${String(r.python).padStart(8)}${r.ratio.toFixed(2).padStart(7)}`,
    );
}
