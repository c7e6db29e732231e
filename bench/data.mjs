// Deterministic test data: the same rows on every run and every machine, so
// numbers from two runs (or two commits) describe the same work.

// mulberry32: a tiny 32-bit PRNG. Math.random() cannot be seeded, and a
// benchmark whose input changes between runs cannot be compared with itself.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// "travel" is one category of eight, so the filter keeps about 1/8 of the rows:
// selective enough that filtering matters, common enough that the sum is real.
export const CATEGORIES = ["travel", "food", "office", "software", "hardware", "training", "utilities", "other"];
const MERCHANTS = ["Acme Air", "Blue Hotel", "Cafe Uno", "Paper Co", "CloudSoft", "Rail One", "Taxi Plus", "Gizmo Ltd"];

/**
 * Expense rows shaped like a typical tool result: a handful of fields of mixed
 * types, not just the two the program reads. The unread fields matter: every
 * sandbox that receives data as JSON pays to serialise and parse them.
 * Amounts have cents (floats), so sums done in a different order may differ in
 * the last bits; the answer check allows for that.
 */
export function generateRows(count, seed = 42) {
  const rand = mulberry32(seed + count);
  const rows = new Array(count);
  for (let i = 0; i < count; i++) {
    const month = 1 + Math.floor(rand() * 12);
    const day = 1 + Math.floor(rand() * 28);
    rows[i] = {
      id: i + 1,
      date: `2024-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
      merchant: MERCHANTS[Math.floor(rand() * MERCHANTS.length)],
      category: CATEGORIES[Math.floor(rand() * CATEGORIES.length)],
      amount: Math.round(rand() * 100000) / 100, // 0.00 .. 1000.00
    };
  }
  return rows;
}

/**
 * The PTC-JSON program under test (the same question every peer answers): the
 * sum of amount over the rows whose category is "travel". Here, not in
 * peers.mjs, so the cold-start child can use it without loading the peers.
 */
export const PTC_PROGRAM = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "rows" },
      { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
      { op: "sum", field: "amount" },
    ],
  },
};

/**
 * The program as JSON text, made once: as a model writes it and an agent
 * passes it on. What the ptc-wasm peer runs (an object would be turned into
 * text on every call, since it may have changed; "ptc (object)" in W4 shows
 * what that costs).
 */
export const PTC_PROGRAM_TEXT = JSON.stringify(PTC_PROGRAM);

/**
 * The same question, written so that the engine cannot prove the program reads
 * only two fields (the compared value is a pipe, not a constant): the rows
 * cross whole, as JSON. Shows what projection (docs/semantics.md) is worth.
 */
export const PTC_PROGRAM_WHOLE_ROWS = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "rows" },
      {
        op: "filter",
        where: { op: "eq", field: "category", value: { op: "pipe", steps: [{ op: "literal", value: "travel" }] } },
      },
      { op: "sum", field: "amount" },
    ],
  },
};
