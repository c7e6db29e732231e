// A program that reads only some fields of a loaded list gets just those
// fields (engine/ptc_json/projection.h + payloadFor): the rest is never serialised. The
// shared conformance file loaded-rows.json checks results against the native
// engine, which always gets everything; this file checks what is JavaScript's
// own: getters, prototypes, hidden keys, toJSON, the values JSON has no word
// for, and that projection happens. (The read fields cross as binary row
// blocks, js/src/engine/rows.ts, when they can, else as JSON with a key list.)
const { ptcWasm } = require("./helpers.cjs");

let rt;
beforeAll(async () => {
  rt = await ptcWasm.createRuntime();
});

const pipe = (...steps) => ({ program: { op: "pipe", steps: [{ op: "load", name: "rows" }, ...steps] } });
const sumTravel = pipe(
  { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
  { op: "sum", field: "amount" },
);
const names = pipe({ op: "map", expr: { op: "get", field: "name" } });

function rowWithWatchedField(row, touched) {
  return Object.defineProperty({ ...row }, "notes", {
    enumerable: true,
    get() {
      touched.count++;
      return "a long text the program never reads";
    },
  });
}

test("fields the program does not read are never serialised", async () => {
  const touched = { count: 0 };
  const rows = [
    rowWithWatchedField({ category: "travel", amount: 5 }, touched),
    rowWithWatchedField({ category: "food", amount: 7 }, touched),
  ];
  const r = await rt.run(sumTravel, { context: { rows } });
  expect(r.result).toBe(5);
  expect(touched.count).toBe(0);
});

test("group_by with aggregates, sort_by keys and as variables read only their fields", async () => {
  const touched = { count: 0 };
  const rows = [
    rowWithWatchedField({ category: "travel", amount: 5, id: 1 }, touched),
    rowWithWatchedField({ category: "food", amount: 7, id: 2 }, touched),
    rowWithWatchedField({ category: "travel", amount: 1.5, id: 3 }, touched),
  ];
  const grouped = pipe({
    op: "group_by",
    field: "category",
    aggs: { total: { op: "sum", field: "amount" }, count: { op: "count" } },
  });
  expect((await rt.run(grouped, { context: { rows } })).result).toEqual([
    { key: "travel", total: 6.5, count: 2 },
    { key: "food", total: 7, count: 1 },
  ]);
  const sorted = pipe(
    { op: "filter", as: "r", where: { op: "gt", field: "amount", value: { op: "var", name: "r", field: "id" } } },
    { op: "sort_by", by: [{ field: "category", order: "desc" }, "id"] },
    { op: "map", expr: { op: "get", field: "id" } },
  );
  expect((await rt.run(sorted, { context: { rows } })).result).toEqual([1, 2]);
  expect(touched.count).toBe(0);
});

test("a program that returns rows gets them whole", async () => {
  const touched = { count: 0 };
  const rows = [rowWithWatchedField({ category: "travel", amount: 5 }, touched)];
  const r = await rt.run(pipe({ op: "filter", where: { op: "eq", field: "category", value: "travel" } }), {
    context: { rows },
  });
  expect(r.result).toEqual([{ category: "travel", amount: 5, notes: "a long text the program never reads" }]);
  expect(touched.count).toBe(1);
});

test("the same program over data that cannot be projected gives the same answers", async () => {
  class Expense {
    constructor(category, amount) {
      this.category = category;
      this._amount = amount;
    }
    get amount() {
      return this._amount; // on the prototype: JSON.stringify leaves it out
    }
  }
  const hidden = Object.defineProperty({ category: "travel" }, "amount", { value: 3, enumerable: false });
  const inherited = Object.assign(Object.create({ amount: 4 }), { category: "travel" });
  const cases = [
    // A getter on the prototype is not data: the amount is missing, so sum skips it.
    [[new Expense("travel", 2)], { result: 0 }],
    [[hidden, { category: "travel", amount: 1 }], { result: 1 }],
    [[inherited, { category: "travel", amount: 1 }], { result: 1 }],
    // Items with toJSON (a Date) and lists are sent as JSON.stringify writes them: a text
    // and a list, whose field a comparison may not read.
    [
      [new Date(0), { category: "travel", amount: 2 }],
      { error: "'eq' reads field 'category', but the current value is a string" },
    ],
    [
      [[{ category: "travel", amount: 9 }], { category: "travel", amount: 2 }],
      { error: "but the current value is a list" },
    ],
    [
      Object.assign([{ category: "travel", amount: 9 }], { toJSON: () => [{ category: "travel", amount: 6 }] }),
      { result: 6 },
    ],
  ];
  for (const [rows, want] of cases) {
    const r = await rt.run(sumTravel, { context: { rows } });
    if (want.error) expect(r.error?.message).toContain(want.error);
    else expect(r.result).toBe(want.result);
  }
});

test("rows that are not plain objects, or name a field constructor, read as JSON.stringify writes them", async () => {
  class Expense {
    constructor(category, amount) {
      this.category = category;
      this.amount = amount;
    }
  }
  const bare = (row) => Object.assign(Object.create(null), row);
  const cases = [
    [
      [
        { constructor: "desk", category: "travel", amount: 5 },
        { category: "travel", amount: 1 },
      ],
      6,
    ],
    [[bare({ category: "travel", amount: 7 }), { category: "food", amount: 1 }], 7],
    [[new Expense("travel", 2), { category: "travel", amount: 3 }, new Expense("food", 4)], 5],
    [[{ category: "travel", amount: 1, constructor: Object }, bare({ category: "travel", amount: 2 })], 3],
  ];
  for (const [rows, want] of cases) {
    const r = await rt.run(sumTravel, { context: { rows } });
    expect(r.result).toBe(want);
    expect(r.result).toBe(
      JSON.parse(JSON.stringify(rows))
        .filter((x) => x.category === "travel")
        .reduce((sum, x) => sum + x.amount, 0),
    );
  }
  // A boxed number is a number item, as JSON.stringify writes it, not a row without fields.
  const boxed = await rt.run(sumTravel, { context: { rows: [{ category: "travel", amount: 1 }, new Number(4)] } });
  expect(boxed.error?.message).toContain("the current value is a number");
});

test("a read field that holds an object is sent whole, nested keys and all", async () => {
  // With a key list, JSON.stringify would also strip the nested object's keys.
  const byObject = pipe(
    { op: "filter", where: { op: "eq", field: "category", value: { op: "literal", value: { name: "travel" } } } },
    { op: "sum", field: "amount" },
  );
  const rows = [
    { category: { name: "travel" }, amount: 1 },
    { category: "travel", amount: 2 },
  ];
  expect((await rt.run(byObject, { context: { rows } })).result).toBe(1);
});

test("values JSON has no word for read as JSON.stringify would write them", async () => {
  const fn = () => 1;
  const rows = [
    { name: "nan", amount: NaN, category: "travel" }, // NaN and Infinity are written null
    { name: "inf", amount: -Infinity },
    { name: "undef", amount: undefined }, // undefined, functions and symbols in an object: left out
    { name: "fn", amount: fn },
    { name: "sym", amount: Symbol("s") },
    { name: "neg zero", amount: -0 },
    { name: "big int", amount: 2 ** 53 + 2 },
  ];
  const r = await rt.run(pipe({ op: "select", fields: ["name", "amount"] }), { context: { rows } });
  expect(r.result).toEqual([
    { name: "nan", amount: null },
    { name: "inf", amount: null },
    { name: "undef" },
    { name: "fn" },
    { name: "sym" },
    { name: "neg zero", amount: 0 },
    { name: "big int", amount: 2 ** 53 + 2 },
  ]);
  // Items that are not objects: undefined, functions and symbols in a list are written null.
  const items = await rt.run(pipe({ op: "map", expr: { op: "get", field: "x" } }, { op: "count" }), {
    context: { rows: [undefined, fn, Symbol("s"), 1] },
  });
  expect(items.result).toBe(4);
  const kinds = await rt.run(pipe({ op: "filter", where: { op: "eq", field: "x", value: null } }, { op: "count" }), {
    context: { rows: [undefined, { x: undefined }, { x: null }, { y: 1 }] },
  });
  expect(kinds.result).toBe(4);
});

test("rows with the same keys as the row before still have hidden and inherited fields checked", async () => {
  // rows.ts checks a row's keys once per key list (Object.keys), not per field:
  // a field outside the list may still be hidden or inherited in this row.
  const plain = (amount) => ({ category: "travel", amount });
  const hidden = Object.defineProperty({ category: "travel" }, "amount", { value: 100, enumerable: false });
  const inherited = Object.assign(Object.create({ amount: 1000 }), { category: "travel" });
  const hiddenCategory = Object.defineProperty({ amount: 10000 }, "category", { value: "travel", enumerable: false });
  const cases = [
    [[{ category: "travel" }, hidden, { category: "travel" }, plain(1)], 1],
    [[{ category: "travel" }, inherited, plain(2)], 2],
    [[{ amount: 5 }, hiddenCategory, plain(3)], 3],
    // Past a few changes of key list the rows are checked field by field.
    [[...Array.from({ length: 12 }, (_, i) => ({ category: "travel", amount: 1, [`k${i}`]: i })), hidden], 12],
    // Rows wider than the compared key lists are checked field by field.
    [[Object.assign(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])), plain(1)), hidden], 1],
    // Same keys, another order: both fields are still read.
    [[plain(1), { amount: 2, category: "travel" }, plain(4)], 7],
  ];
  for (const [rows, want] of cases) expect((await rt.run(sumTravel, { context: { rows } })).result).toBe(want);
});

test("a getter that deletes a later read field of its row leaves that field out, as JSON.stringify does", async () => {
  const row = {
    category: "travel",
    get amount() {
      delete this.tip;
      return 2;
    },
    tip: 5,
  };
  const r = await rt.run(pipe({ op: "select", fields: ["amount", "tip"] }), { context: { rows: [row] } });
  expect(r.result).toEqual(JSON.parse(JSON.stringify([{ amount: 2 }])));
});

test("a BigInt in a read field fails as JSON.stringify does", async () => {
  const r = await rt.run(sumTravel, { context: { rows: [{ category: "travel", amount: 10n }] } });
  expect(r.error).toMatchObject({ type: "execution_error", message: expect.stringContaining("BigInt") });
});

test("many rows, many distinct and non-ASCII strings cross intact", async () => {
  const rows = Array.from({ length: 70000 }, (_, i) => ({
    name: `n${i} é ${i % 3 ? "日本" : "\ud800"}`,
    n: i,
    skip: { deep: i },
  }));
  const r = await rt.run(pipe({ op: "map", expr: { op: "get", field: "name" } }), {
    context: { rows },
    maxHeapBytes: 256 * 1024 * 1024,
    timeoutMs: 20000,
  });
  expect(r.result).toHaveLength(rows.length);
  expect(r.result[1]).toBe("n1 é 日本");
  expect(r.result[3]).toBe("n3 é \ufffd"); // a lone surrogate crosses as U+FFFD, as in JSON
  expect(r.result[69998]).toBe("n69998 é 日本");
  expect(r.result[69999]).toBe("n69999 é \ufffd");
  const total = await rt.run(pipe({ op: "sum", field: "n" }), { context: { rows } });
  expect(total.result).toBe((69999 * 70000) / 2);
});

test("keys named like JavaScript internals are read as data, not from the prototype", async () => {
  const rows = JSON.parse('[{"__proto__": "own", "name": "a"}, {"name": "b"}]');
  const r = await rt.run(
    pipe({ op: "map", expr: { p: { op: "get", field: "__proto__" }, c: { op: "get", field: "constructor" } } }),
    {
      context: { rows },
    },
  );
  expect(r.result).toEqual([
    { p: "own", c: null },
    { p: null, c: null },
  ]);
});

test("projection is per run: the same program takes whole data after projected data", async () => {
  expect((await rt.run(names, { context: { rows: [{ name: "a", x: 1 }] } })).result).toEqual(["a"]);
  expect((await rt.run(names, { context: { rows: [{ name: { first: "b" } }] } })).result).toEqual([{ first: "b" }]);
  expect((await rt.run(names, { context: { rows: [{ name: "c" }] } })).result).toEqual(["c"]);
});

test("a projected run holds less in the engine than one over whole rows", async () => {
  const rows = Array.from({ length: 2000 }, (_, i) => ({
    id: i,
    category: i % 2 ? "travel" : "food",
    amount: i,
    note: `row number ${i}`,
    tags: ["x", "y"],
  }));
  const projected = await rt.run(sumTravel, { context: { rows } });
  const whole = await rt.run(pipe({ op: "filter", where: { op: "eq", field: "category", value: "travel" } }), {
    context: { rows },
  });
  expect(projected.result).toBe(rows.filter((r) => r.category === "travel").reduce((s, r) => s + r.amount, 0));
  expect(whole.result).toHaveLength(1000);
  expect(projected.metrics.memoryBytes * 2).toBeLessThan(whole.metrics.memoryBytes);
});

test("worker mode projects too", async () => {
  const w = await ptcWasm.createRuntime({ worker: true });
  try {
    const touched = { count: 0 };
    const rows = [rowWithWatchedField({ category: "travel", amount: 5 }, touched)];
    expect((await w.run(sumTravel, { context: { rows } })).result).toBe(5);
    expect(touched.count).toBe(0);
  } finally {
    w.close();
  }
});

// The block buffer is kept from run to run (js/src/engine/rows.ts) and let go after
// many small ones: a small run after a big one, and a big one after that, or
// after the buffer was let go, must read only their own rows.
test("runs of different sizes one after another each read their own rows", async () => {
  const rowsOf = (n, category) => Array.from({ length: n }, (_, i) => ({ category, amount: i % 10 }));
  const sizes = [200_000, 3, 200_000, 0, ...Array(17).fill(2), 70_000, 1];
  for (const [i, n] of sizes.entries()) {
    const category = i % 2 ? "travel" : "food";
    const rows = rowsOf(n, category);
    const want = category === "travel" ? rows.reduce((s, r) => s + r.amount, 0) : 0;
    const r = await rt.run(sumTravel, { context: { rows }, maxHeapBytes: 64 << 20, timeoutMs: 60_000 });
    expect(r).toMatchObject({ ok: true, result: want });
  }
});

test("texts cross intact: many distinct ones, and ones alike in length and first letter", async () => {
  // Past 65536 distinct texts a list's new texts are sent each time; texts of
  // one length and first letter share a slot of the recent-text table.
  const rows = Array.from({ length: 70_000 }, (_, i) => ({ name: `n${i}`, tag: i % 2 ? "ab" : "ac" }));
  rows.push({ name: "n0", tag: "ab" }, { name: "n69999", tag: "ad" });
  const r = await rt.run(pipe({ op: "map", expr: { op: "get", field: "name" } }), {
    context: { rows },
    maxHeapBytes: 64 << 20,
  });
  expect(r.result).toEqual(rows.map((row) => row.name));
  const tags = await rt.run(
    pipe({ op: "group_by", field: "tag", aggs: { n: { op: "count" } } }, { op: "sort_by", field: "key" }),
    { context: { rows } },
  );
  expect(tags.result).toEqual([
    { key: "ab", n: 35_001 },
    { key: "ac", n: 35_000 },
    { key: "ad", n: 1 },
  ]);
});

test("a list whose items are not all objects crosses as JSON and reads the same", async () => {
  const rows = [{ category: "travel", amount: 2 }, null, { category: "travel", amount: 3 }];
  expect((await rt.run(sumTravel, { context: { rows } })).result).toBe(5);
  const grouped = await rt.run(pipe({ op: "group_by", field: "category", aggs: { n: { op: "count" } } }), {
    context: { rows },
  });
  expect(grouped.result).toEqual([
    { key: "travel", n: 2 },
    { key: null, n: 1 },
  ]);
});
