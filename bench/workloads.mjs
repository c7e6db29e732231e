// Workloads beyond W1 (issue 15): W3, a join of orders with users (map over
// the orders; per order, filter the users on the order's user_id, first), at
// 1k×1k and 10k×10k; and GROUP, total and count of amount per category over
// 100k rows. Every engine answers the same question from JS objects in to JS
// values out, timed warm, interleaved, medians (as run.mjs does for W1).
//
//   node --expose-gc bench/workloads.mjs [--quick]   # these alone
//   npm run bench -- --only W3,GROUP                 # through the runner's summary
import { fileURLToPath } from "node:url";
import jsonata from "jsonata";
import { getQuickJS } from "quickjs-emscripten";
import { generateRows, mulberry32 } from "./data.mjs";
import { loadMonty, MONTY_GROUP_BY, MONTY_W3 } from "./monty.mjs";

// ------------------------------------------------------------------ data --

// Users with ids 1..n (the fields a user table has), orders pointing at them;
// one order in 50 points at a user that does not exist (its name is null).
export function generateJoin(users, orders, seed = 7) {
  const rand = mulberry32(seed + users * 31 + orders);
  const u = new Array(users);
  for (let i = 0; i < users; i++)
    u[i] = { id: i + 1, name: `user ${i + 1}`, email: `user${i + 1}@example.com`, tier: i % 3 };
  const o = new Array(orders);
  for (let i = 0; i < orders; i++) {
    const missing = rand() < 0.02;
    o[i] = {
      order_id: 100_000 + i,
      user_id: missing ? users + 1 + i : 1 + Math.floor(rand() * users),
      total: Math.round(rand() * 50_000) / 100,
    };
  }
  return { users: u, orders: o };
}

export const W3_PROGRAM = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "orders" },
      {
        op: "map",
        expr: {
          order_id: { op: "get", field: "order_id" },
          name: {
            op: "pipe",
            steps: [
              { op: "load", name: "users" },
              { op: "filter", where: { op: "eq", field: "id", value: { op: "get", field: "user_id" } } },
              { op: "first" },
              { op: "get", field: "name" },
            ],
          },
        },
      },
    ],
  },
};

export const GROUP_PROGRAM = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "rows" },
      {
        op: "group_by",
        field: "category",
        aggs: { total: { op: "sum", field: "amount" }, count: { op: "count" } },
      },
    ],
  },
};

// ----------------------------------------------------------------- peers --

function joinJs({ users, orders }) {
  return orders.map((o) => ({ order_id: o.order_id, name: users.find((u) => u.id === o.user_id)?.name ?? null }));
}

function groupJs({ rows }) {
  const groups = new Map();
  for (const r of rows) {
    let g = groups.get(r.category);
    if (!g) groups.set(r.category, (g = { key: r.category, total: 0, count: 0 }));
    g.total += r.amount;
    g.count += 1;
  }
  return [...groups.values()];
}

// JSONata's answers come back in its own shape; these put them in the plain JS one.
const JSONATA_JOIN = jsonata(
  'orders.(  $uid := user_id; {"order_id": order_id, "name": $$.users[id = $uid][0].name} )',
);
const JSONATA_GROUP = jsonata('rows{category: {"total": $sum(amount), "count": $count(amount)}}');
async function joinJsonata(ctx) {
  const out = await JSONATA_JOIN.evaluate(ctx);
  return (Array.isArray(out) ? out : [out]).map((r) => ({ order_id: r.order_id, name: r.name ?? null }));
}
async function groupJsonata(ctx) {
  const out = await JSONATA_GROUP.evaluate(ctx);
  return Object.entries(out).map(([key, v]) => ({ key, total: v.total, count: v.count }));
}

// quickjs: a fresh runtime per call, the data in as JSON text (as in peers.mjs).
const QJS_JOIN =
  "JSON.stringify(((c) => c.orders.map((o) => ({ order_id: o.order_id, name: c.users.find((u) => u.id === o.user_id)?.name ?? null })))(JSON.parse(input)))";
const QJS_GROUP =
  "JSON.stringify(((c) => { const g = new Map(); for (const r of c.rows) { let x = g.get(r.category); if (!x) g.set(r.category, (x = { key: r.category, total: 0, count: 0 })); x.total += r.amount; x.count += 1; } return [...g.values()]; })(JSON.parse(input)))";
function quickjsRunner(QuickJS, source) {
  return (ctx) => {
    const runtime = QuickJS.newRuntime();
    try {
      runtime.setMemoryLimit(1024 * 1024 * 1024);
      const vm = runtime.newContext();
      try {
        const text = vm.newString(JSON.stringify(ctx));
        vm.setProp(vm.global, "input", text);
        text.dispose();
        const result = vm.evalCode(source);
        if (result.error) {
          const err = vm.dump(result.error);
          result.error.dispose();
          throw new Error(`quickjs failed: ${JSON.stringify(err)}`);
        }
        const json = vm.getString(result.value);
        result.value.dispose();
        return JSON.parse(json);
      } finally {
        vm.dispose();
      }
    } finally {
      runtime.dispose();
    }
  };
}

function ptcRunner(ptc, program) {
  return async (ctx) => {
    const r = await ptc.run(program, { context: ctx, timeoutMs: 120_000, maxHeapBytes: 1024 * 1024 * 1024 });
    if (!r.ok) throw new Error(`ptc-wasm failed: ${r.error.type}: ${r.error.message}`);
    return r.result;
  };
}

// ptc-wasm on data loaded into the engine once (runtime.load), outside the
// clock: a session's data that stays while programs come and go. Not a peer.
async function residentRunner(ptc, program, ctx) {
  const loaded = await ptc.load(ctx, { maxResidentBytes: 1024 * 1024 * 1024 });
  if (!loaded.ok) throw new Error(`ptc-wasm could not load: ${loaded.error.type}: ${loaded.error.message}`);
  const { resident } = loaded;
  return {
    close: () => resident.close(),
    run: async () => {
      const r = await ptc.run(program, { resident, timeoutMs: 120_000, maxHeapBytes: 1024 * 1024 * 1024 });
      if (!r.ok) throw new Error(`ptc-wasm (resident) failed: ${r.error.type}: ${r.error.message}`);
      return r.result;
    },
  };
}

// ---------------------------------------------------------------- answers --

function sameJoin(got, expected) {
  return JSON.stringify(got) === JSON.stringify(expected);
}
// Groups in any order (JSONata's object), totals within float-sum tolerance.
function sameGroups(got, expected) {
  if (!Array.isArray(got) || got.length !== expected.length) return false;
  const byKey = new Map(got.map((g) => [g.key, g]));
  return expected.every((e) => {
    const g = byKey.get(e.key);
    return g && g.count === e.count && Math.abs(g.total - e.total) <= 1e-9 * Math.max(1, Math.abs(e.total));
  });
}

// ------------------------------------------------------------- measuring --

const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const collect = globalThis.gc ? () => globalThis.gc() : () => {};

async function measure(workload, engines, ctx, expected, same, rounds) {
  const state = [];
  for (const e of engines) {
    if (e.skip) {
      state.push({ name: e.name, skipped: e.skip });
      continue;
    }
    const got = await e.run(ctx);
    if (!same(got, expected)) throw new Error(`WRONG ANSWER: ${workload}, ${e.name}`);
    state.push({ name: e.name, run: e.run, samples: [] });
  }
  const live = state.filter((s) => s.run);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < live.length; i++) {
      const s = live[(i + r) % live.length];
      collect();
      const t = now();
      await s.run(ctx);
      s.samples.push(now() - t);
    }
  }
  return {
    workload,
    results: state.map((s) => (s.skipped ? s : { name: s.name, medianMs: median(s.samples), runs: s.samples.length })),
  };
}

// Monty (bench/monty.mjs) where its binary loads: the same questions in Python,
// its answers reshaped into the JS ones' shape (outside Python, on the clock).
// Monty hands Python dicts back as Maps.
const fromPython = (v) =>
  v instanceof Map
    ? Object.fromEntries([...v].map(([k, x]) => [k, fromPython(x)]))
    : Array.isArray(v)
      ? v.map(fromPython)
      : v;

async function montyEngines() {
  const monty = await loadMonty();
  if (!monty.ok) return { join: () => ({ skip: monty.reason }), group: { name: "monty", skip: monty.reason } };
  const limits = { timeoutMs: 600_000, maxHeapBytes: 1024 * 1024 * 1024 };
  const join = monty.runner(MONTY_W3, "users", "orders");
  const group = monty.runner(MONTY_GROUP_BY, "rows");
  return {
    join: (n) => ({
      name: "monty",
      run: (ctx) => fromPython(join(ctx, limits)),
      skip: n > 1000 ? "quadratic in Python: minutes at this size" : null,
    }),
    group: {
      name: "monty",
      run: ({ rows }) =>
        Object.entries(fromPython(group(rows, limits))).map(([key, g]) => ({ key, total: g.total, count: g.count })),
    },
  };
}

/**
 * Runs W3 (1k×1k, 10k×10k) and GROUP (100k rows) on every engine that can;
 * `only` names which of the two ("W3", "GROUP").
 */
export async function measureWorkloads(ptc, { quick = false, progress = () => {}, only = ["W3", "GROUP"] } = {}) {
  const QuickJS = await getQuickJS();
  const monty = await montyEngines();
  const out = [];
  for (const [n, rounds] of !only.includes("W3")
    ? []
    : quick
      ? [[1000, 5]]
      : [
          [1000, 15],
          [10_000, 3],
        ]) {
    progress(`W3 join ${n}×${n}`);
    const ctx = generateJoin(n, n);
    const expected = joinJs(ctx);
    out.push(
      await measure(
        `W3 join ${n / 1000}k×${n / 1000}k`,
        [
          { name: "ptc-wasm", run: ptcRunner(ptc, W3_PROGRAM) },
          { name: "plain JS", run: joinJs },
          {
            name: "JSONata",
            run: joinJsonata,
            skip: n > 1000 ? "quadratic: minutes at this size (2.9 s at 1k×1k)" : null,
          },
          { name: "quickjs", run: quickjsRunner(QuickJS, QJS_JOIN) },
          { name: "monty", ...monty.join(n) },
        ],
        ctx,
        expected,
        sameJoin,
        rounds,
      ),
    );
  }
  if (!only.includes("GROUP")) return out;
  progress("GROUP 100k rows");
  const ctx = { rows: generateRows(100_000) };
  const resident = await residentRunner(ptc, GROUP_PROGRAM, ctx);
  try {
    out.push(
      await measure(
        "GROUP by category 100k",
        [
          { name: "ptc-wasm", run: ptcRunner(ptc, GROUP_PROGRAM) },
          { name: "plain JS", run: groupJs },
          { name: "JSONata", run: groupJsonata },
          { name: "quickjs", run: quickjsRunner(QuickJS, QJS_GROUP) },
          monty.group,
          { name: "ptc resident", run: resident.run },
        ],
        ctx,
        groupJs(ctx),
        sameGroups,
        quick ? 3 : 9,
      ),
    );
  } finally {
    resident.close();
  }
  return out;
}

const fmt = (ms) =>
  ms < 1
    ? `${(ms * 1000).toFixed(1)} µs`
    : ms < 1000
      ? `${ms.toFixed(ms < 10 ? 2 : 1)} ms`
      : `${(ms / 1000).toFixed(2)} s`;

/** One table: median per engine and ptc-wasm's time over each peer's. */
export function reportWorkloads(results, say) {
  say("JOIN AND GROUP-BY: JS objects in, JS values out (warm; medians of interleaved runs)");
  say("ratio = ptc-wasm time / peer time: below 1 means ptc-wasm is faster");
  const line = "-".repeat(78);
  say(line);
  for (const { workload, results: rs } of results) {
    const ptcMs = rs.find((r) => r.name === "ptc-wasm").medianMs;
    rs.forEach((r, i) => {
      const head = (i === 0 ? workload : "").padEnd(26) + r.name.padEnd(12);
      if (r.skipped) return say(`${head}  skipped: ${r.skipped}`);
      const ratio = r.name.startsWith("ptc") ? "" : `${(ptcMs / r.medianMs).toFixed(2)}x`;
      say(head + fmt(r.medianMs).padStart(11) + String(r.runs).padStart(6) + ratio.padStart(11));
    });
    say(line);
  }
}

/**
 * Issue 15's targets for these workloads, as run.mjs's [label, verdict, detail]
 * rows: W3 at most plain JS's time; GROUP at most 2× plain JS (rows crossing,
 * and resident) and at least 10× faster than JSONata and quickjs.
 */
export function workloadTargets(results) {
  const rows = [];
  const check = (workload, peer, label, limit, ptcName = "ptc-wasm") => {
    const rs = results.find((r) => r.workload === workload)?.results;
    const p = rs?.find((r) => r.name === ptcName);
    const q = rs?.find((r) => r.name === peer);
    if (!p || !q || q.skipped) return;
    const ratio = p.medianMs / q.medianMs;
    rows.push([
      label,
      ratio <= limit ? "PASS" : "MISS",
      `${fmt(p.medianMs)} vs ${fmt(q.medianMs)} (ratio ${ratio.toFixed(2)}x)`,
    ]);
  };
  for (const r of results.filter((x) => x.workload.startsWith("W3")))
    check(r.workload, "plain JS", `${r.workload} ≤ 1.0× plain JS`, 1);
  const group = "GROUP by category 100k";
  check(group, "plain JS", "GROUP ≤ 2× plain JS", 2);
  check(group, "plain JS", "GROUP resident ≤ 2× plain JS", 2, "ptc resident");
  check(group, "JSONata", "GROUP ≥ 10× faster than JSONata", 0.1);
  check(group, "quickjs", "GROUP ≥ 10× faster than quickjs", 0.1);
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { createRuntime } = await import("../dist/node.mjs");
  const ptc = await createRuntime();
  const say = (s = "") => process.stdout.write(s + "\n");
  const results = await measureWorkloads(ptc, {
    quick: process.argv.includes("--quick"),
    progress: (s) => process.stderr.write(`  … ${s}\n`),
  });
  reportWorkloads(results, say);
  for (const [label, verdict, detail] of workloadTargets(results)) say(`${verdict}  ${label.padEnd(34)}${detail}`);
}
