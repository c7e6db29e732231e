// The token corpus's data: the agent tasks' shop (examples/agent-tasks/data.cjs)
// plus the shapes those tasks lack: nested line items, money and durations
// written as text, click streams (sessions), an account's event log, a price
// service taking a few ids per call, a cursor-paginated audit log, account
// lookups that fail for some ids, a status log (latest record per key), an org
// chart by manager ids and a leaderboard with ties.
// Deterministic: a seeded generator, so both twins of every question see the
// same rows.
"use strict";
// The shop's seeded generator (mulberry32), with a seed of its own below.
const { generate: shop, generator, isoAt } = require("../../examples/agent-tasks/data.cjs");
const { addTextData } = require("./data-text.cjs");

function generate() {
  const data = shop();
  const random = generator(7);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const cents = (lo, hi) => int(lo * 100, hi * 100) / 100;
  const t0 = Date.UTC(2024, 2, 1);
  const skus = data.products.map((p) => p.sku);

  // Carts with nested line items.
  data.carts = Array.from({ length: 50 }, (_, i) => ({
    id: `K${i + 1}`,
    customer_id: pick(data.customers).id,
    lines: Array.from({ length: int(1, 4) }, () => ({
      sku: pick(skus.slice(0, 12)),
      qty: int(1, 5),
      price: cents(3, 90),
    })),
  }));

  // Expenses as a spreadsheet exports them: money as "$1,234.50", durations as "h:mm".
  data.expenses = Array.from({ length: 40 }, () => {
    const amount = cents(4, 2400);
    return {
      category: pick(["travel", "meals", "software", "hardware"]),
      amount: `$${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    };
  });
  data.timesheet = Array.from({ length: 45 }, () => ({
    person: pick(["ana", "bo", "cy", "di"]),
    spent: `${int(0, 7)}:${String(int(0, 59)).padStart(2, "0")}`,
  }));

  // Page views of a few users, sorted by time: a gap over 30 minutes starts a new session.
  let clock = t0;
  data.views = Array.from({ length: 120 }, () => {
    clock += int(1, 50) * 60e3;
    return { user: pick(["u1", "u2", "u3"]), at: isoAt(clock), page: pick(["/", "/cart", "/item", "/pay"]) };
  }).sort((a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : 0));

  // An account's event log in order: the balance after each event.
  data.ledger = Array.from({ length: 60 }, (_, i) => ({
    seq: i + 1,
    type: pick(["deposit", "deposit", "withdrawal"]),
    amount: int(10, 500),
  }));

  // The price service answers at most 10 skus per call.
  data.prices = Object.fromEntries(skus.map((sku) => [sku, cents(1, 100)]));
  data.wishlist = Array.from({ length: 34 }, (_, i) => skus[(i * 7) % skus.length]);

  // The audit log behind a cursor.
  data.audit = Array.from({ length: 93 }, (_, i) => ({
    id: i + 1,
    actor: pick(["alice", "bob", "carol", "system"]),
    action: pick(["login", "login", "export", "delete", "update"]),
  }));

  // Accounts flagged for review; the account service fails for some of them.
  data.flagged = Array.from({ length: 12 }, (_, i) => `A${100 + i * 3}`);
  data.accounts = Object.fromEntries(
    data.flagged
      .filter(() => random() < 0.75)
      .map((id) => [id, { id, owner: pick(data.customers).name, risk: int(1, 99) }]),
  );

  // Every status change of the tickets, oldest first: the latest one per ticket is its status.
  data.status_log = Array.from({ length: 150 }, (_, i) => ({
    ticket: `T-${int(1, 30)}`,
    status: pick(["open", "pending", "solved", "closed"]),
    at: isoAt(t0 + i * 3600e3 + int(0, 3000) * 1e3),
  }));

  // An org chart (each person's manager_id, the head's null) and a leaderboard with tied points.
  const first = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max", "Ned"];
  data.staff = Array.from({ length: 45 }, (_, i) => ({
    id: i + 1,
    name: `${pick(first)} ${String.fromCharCode(65 + (i % 26))}.`,
    manager_id: i === 0 ? null : i < 5 ? 1 : int(2, i),
  }));
  data.scores = Array.from({ length: 30 }, (_, i) => ({ player: `p${i + 1}`, points: int(5, 15) * 10 }));
  return addTextData(data);
}

/**
 * The corpus's mock tools, declared as data so that the engine's run (js) and
 * the Python twin (harness.py) serve the same answers:
 * - pages: {items, next_page} for args.page (1-based), `size` per page
 * - cursor: {items, next_cursor} for args.cursor (null for the first page)
 * - lookup: table[args[key]], or a failure when missing
 * - batch: the rows of table for args[key] (a list of at most `max` ids), a failure for more
 */
function jsTool(spec) {
  switch (spec.kind) {
    case "pages":
      return async ({ page = 1 }) => {
        const items = spec.items.slice((page - 1) * spec.size, page * spec.size);
        return { items, next_page: page * spec.size < spec.items.length ? page + 1 : null };
      };
    case "cursor":
      return async ({ cursor = null }) => {
        const at = cursor === null ? 0 : Number(cursor.slice(1));
        const next = at + spec.size;
        return { items: spec.items.slice(at, next), next_cursor: next < spec.items.length ? `c${next}` : null };
      };
    case "lookup":
      return async (args) => {
        const row = spec.table[args[spec.key]];
        if (row === undefined) throw new Error(`not found: ${args[spec.key]}`);
        return row;
      };
    case "batch":
      return async (args) => {
        const ids = args[spec.key];
        if (ids.length > spec.max) throw new Error(`at most ${spec.max} ids per call`);
        return ids.map((id) => ({ id, value: spec.table[id] ?? null }));
      };
    default:
      throw new Error(`unknown tool kind ${spec.kind}`);
  }
}

module.exports = { generate, jsTool };
