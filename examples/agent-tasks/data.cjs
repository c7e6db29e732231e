// Generated data for the agent tasks: a small shop's customers, orders,
// support tickets, inventory, staff, request logs and invoices. Deterministic
// (a seeded generator), so every run and every test sees the same rows; shaped
// like real exports: timestamps with Z and with offsets, numbers stored as
// text, missing values, mixed-case text.
"use strict";

/** mulberry32: a small seeded generator of floats in [0, 1). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n, width = 2) => String(n).padStart(width, "0");

/** An ISO 8601 text for epoch milliseconds, in UTC or at a whole-hour offset. */
function isoAt(ms, offsetHours = 0) {
  const d = new Date(ms + offsetHours * 3600e3);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const zone = offsetHours === 0 ? "Z" : `${offsetHours > 0 ? "+" : "-"}${pad(Math.abs(offsetHours))}:00`;
  return `${date}T${time}${zone}`;
}

function generate(seed = 2024) {
  const random = generator(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const cents = (lo, hi) => int(lo * 100, hi * 100) / 100;
  const year2024 = Date.UTC(2024, 0, 1);
  const yearMs = 366 * 86400e3;

  const firstNames = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Ken", "Radia", "Linus"];
  const lastNames = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Hamilton", "Thompson", "Perlman"];
  const domains = ["example.com", "Mail.test", "corp.example", "example.org"];

  const customers = Array.from({ length: 40 }, (_, i) => {
    const name = `${pick(firstNames)} ${pick(lastNames)}`;
    return {
      id: `C${pad(i + 1, 3)}`,
      name,
      email: `${name.split(" ")[0].toLowerCase()}.${i + 1}@${pick(domains)}`,
      region: pick(["EU", "US", "APAC"]),
      tier: pick(["gold", "silver", "silver", "bronze", "bronze", "bronze"]),
    };
  });

  const categories = ["books", "games", "garden", "kitchen", "toys"];
  const orders = Array.from({ length: 600 }, (_, i) => ({
    id: 10001 + i,
    customer_id: pick(customers).id,
    category: pick(categories),
    amount: cents(5, 400),
    status: pick(["completed", "completed", "completed", "refunded", "cancelled"]),
    // Some shops export local time with its offset: the UTC month can differ from the text's.
    created_at: isoAt(year2024 + Math.floor(random() * yearMs), pick([0, 0, 0, 2, -5])),
  }));

  const tickets = Array.from({ length: 300 }, (_, i) => {
    const opened = year2024 + Math.floor(random() * yearMs);
    const open = random() < 0.1;
    return {
      id: `T-${i + 1}`,
      team: pick(["billing", "shipping", "accounts"]),
      priority: pick(["low", "normal", "normal", "high", "urgent"]),
      opened_at: isoAt(opened),
      closed_at: open ? null : isoAt(opened + int(10, 96 * 60) * 60e3, pick([0, 1])),
    };
  });

  const products = Array.from({ length: 80 }, (_, i) => ({
    sku: `${pick(["EU", "US"])}-${pad(i + 1, 4)}`,
    name: `${pick(["Red", "Blue", "Small", "Large", "Classic"])} ${pick(["Mug", "Kite", "Board game", "Rake", "Novel"])}`,
    category: pick(categories),
    qty: int(0, 60),
    reorder_level: int(5, 25),
    // Prices as a spreadsheet export gives them: text, now and then padded or missing.
    price: random() < 0.05 ? "n/a" : `${random() < 0.2 ? " " : ""}${cents(2, 120).toFixed(2)}`,
  }));

  const departments = ["Engineering", "Sales", "Support", "Finance"];
  const employees = Array.from({ length: 60 }, (_, i) => ({
    id: i + 1,
    name: `${pick(firstNames)} ${pick(lastNames)}`,
    department: pick(departments),
    salary: String(int(38, 180) * 1000), // text, as the HR export has it
    hired: `${int(2012, 2024)}-${pad(int(1, 12))}-${pad(int(1, 28))}`,
  }));

  const endpoints = ["/api/search", "/api/search", "/api/orders", "/api/login"];
  const requests = Array.from({ length: 2000 }, (_, i) => ({
    id: i + 1,
    endpoint: pick(endpoints),
    status: random() < 0.06 ? pick([500, 502, 404]) : 200,
    duration_ms: Math.round(20 + 400 * random() ** 3 + (random() < 0.03 ? int(1000, 4000) : 0)),
  }));

  const invoices = Array.from({ length: 137 }, (_, i) => ({
    number: `INV-${pad(i + 1, 4)}`,
    customer_id: pick(customers).id,
    total: cents(20, 2500),
    paid: random() < 0.7,
    due: isoAt(year2024 + Math.floor(random() * yearMs)).slice(0, 10),
  }));

  // The carrier service knows most completed orders; the rest fail to look up.
  const shipments = new Map(
    orders
      .filter((o) => o.status === "completed" && random() < 0.85)
      .map((o) => [o.id, { order_id: o.id, carrier: pick(["DHL", "UPS", "PostNL"]), days: int(1, 9) }]),
  );

  return { customers, orders, tickets, products, employees, requests, invoices, shipments };
}

/** Mock async tools over the data, as a host would register them. */
function tools(data, pageSize = 25) {
  return {
    // Paginated: {items, next_page}; next_page is null on the last page.
    list_invoices: async ({ page = 1 }) => {
      const items = data.invoices.slice((page - 1) * pageSize, page * pageSize);
      return { items, next_page: page * pageSize < data.invoices.length ? page + 1 : null };
    },
    // One order's shipment; fails (as a remote service would) for unknown orders.
    get_shipment: async ({ order_id }) => {
      const shipment = data.shipments.get(order_id);
      if (!shipment) throw new Error(`no shipment for order ${order_id}`);
      return shipment;
    },
    get_customers: async ({ region } = {}) => data.customers.filter((c) => !region || c.region === region),
  };
}

module.exports = { generate, generator, tools, isoAt };
