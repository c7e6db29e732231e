// The agent programs the demo, bench and fault test run, the approver's policy,
// and what each run must end with (its result and the writes it made): a
// refund review per customer.
//   read   orders({customer})            the customer's orders
//   write  note({customer, text})        no approval
//   write  refund({id, amount})          approval when amount > 100; the approver
//                                        approves up to 1000, denies above
//   write  escalate({customer, total})   always asks (a second suspension);
//                                        approved when total < 2000
// The program turns a denied refund into { id, refunded: 0 } with `try`.

const AMOUNTS = [20, 80, 250, 700, 1500, 3000];

// mulberry32: the same workload for the same seed.
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The program of one run. */
function reviewProgram(customer, escalate) {
  const call = (tool, args) => ({ op: "call", tool, args });
  const refunds = {
    op: "pipe",
    steps: [
      { op: "var", name: "orders" },
      {
        op: "map",
        expr: {
          op: "try",
          expr: call("refund", { id: { op: "get", field: "id" }, amount: { op: "get", field: "amount" } }),
          catch: { id: { op: "get", field: "id" }, refunded: 0 },
        },
      },
    ],
  };
  const total = {
    op: "pipe",
    steps: [
      { op: "var", name: "refunds" },
      { op: "sum", field: "refunded" },
    ],
  };
  const escalation = escalate
    ? { op: "try", expr: call("escalate", { customer, total: { op: "var", name: "total" } }), catch: "denied" }
    : null;
  return {
    program: {
      op: "let",
      bindings: {
        orders: call("orders", { customer }),
        noted: call("note", { customer, text: "refund review started" }),
        refunds,
        total,
      },
      in: {
        customer,
        total: { op: "var", name: "total" },
        refunds: { op: "var", name: "refunds" },
        escalation,
      },
    },
  };
}

/**
 * `runs` programs over `runs` customers with 2-5 orders each. `small`: orders
 * of 20 or 80 and no escalation, so no run asks for approval (the bench).
 */
function makeWorkload(runs, seed = 1, { small = false } = {}) {
  const amounts = small ? AMOUNTS.slice(0, 2) : AMOUNTS;
  const random = prng(seed);
  const orders = [];
  const programs = [];
  for (let i = 0; i < runs; i++) {
    const customer = `${small ? "s" : "c"}${String(i).padStart(3, "0")}`;
    const n = 2 + Math.floor(random() * 4);
    for (let j = 0; j < n; j++)
      orders.push({ id: `${customer}-o${j}`, customer, amount: amounts[Math.floor(random() * amounts.length)] });
    const escalate = !small && i % 3 === 0;
    programs.push({
      runKey: `${small ? "quick" : "review"}-${customer}`,
      customer,
      escalate,
      program: reviewProgram(customer, escalate),
    });
  }
  return { orders, programs };
}

/** The approver's decision on a pending call: { approved: true } or { approved: false, reason }. */
function decide(call) {
  if (call.tool === "refund")
    return call.args.amount <= 1000 ? { approved: true } : { approved: false, reason: "over the 1000 limit" };
  if (call.tool === "escalate")
    return call.args.total < 2000 ? { approved: true } : { approved: false, reason: "total too high" };
  return { approved: false, reason: `no policy for '${call.tool}'` };
}

/**
 * What a run must end with, given the orders: its result, and the writes it
 * must have made ({tool, args}, each exactly once). `tampered`: its state was
 * changed while it waited for the first approval, so only the writes of its
 * first leg (the note, the refunds that need no approval) happen.
 */
function expectedRun(p, allOrders, { tampered = false } = {}) {
  const orders = allOrders.filter((o) => o.customer === p.customer).sort((a, b) => a.id.localeCompare(b.id));
  const writes = [{ tool: "note", args: { customer: p.customer, text: "refund review started" } }];
  const refunds = orders.map((o) => {
    const needs = o.amount > 100;
    const ok = !needs || decide({ tool: "refund", args: o }).approved;
    if (!needs || (ok && !tampered)) writes.push({ tool: "refund", args: { id: o.id, amount: o.amount } });
    return { id: o.id, refunded: ok ? o.amount : 0 };
  });
  if (tampered) return { result: undefined, writes };
  const total = refunds.reduce((s, r) => s + r.refunded, 0);
  let escalation = null;
  if (p.escalate) {
    const args = { customer: p.customer, total };
    if (decide({ tool: "escalate", args }).approved) {
      writes.push({ tool: "escalate", args });
      escalation = { escalated: p.customer, total };
    } else escalation = "denied";
  }
  return { result: { customer: p.customer, total, refunds, escalation }, writes };
}

module.exports = { makeWorkload, reviewProgram, decide, expectedRun, prng };
