// Realistic questions an agent gets, each with the PTC-JSON program that answers
// it over the generated data (data.cjs) and its tools, and `answer`: the same
// answer computed in plain JavaScript, independently of the engine, which the
// runner (run.mjs) and the test (tests/js/examples.test.cjs) compare it with.
// A task with `turns` is a conversation: each turn's program sees the memory the
// earlier turns stored.
"use strict";

const utcMonth = (iso) => new Date(iso).toISOString().slice(0, 7);
const hoursBetween = (from, to) => (Date.parse(to) - Date.parse(from)) / 3600e3;
const round2 = (x) => Math.round(x * 100) / 100;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** PERCENTILE.INC: rank p/100 × (n−1), interpolated between the closest two. */
function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return s[lo] + (s[hi] - s[lo]) * (rank - lo);
}

/** Groups in first-seen order, as [key, items] pairs. */
function groups(items, keyOf) {
  const map = new Map();
  for (const item of items) {
    const key = keyOf(item);
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(item);
  }
  return [...map];
}

const completed = (data) => data.orders.filter((o) => o.status === "completed");

module.exports = [
  {
    id: "revenue-per-category",
    question: "How much did completed orders bring in per product category, and how many were there? Largest first.",
    context: ["orders"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "orders" },
          { op: "filter", where: { op: "eq", field: "status", value: "completed" } },
          {
            op: "group_by",
            field: "category",
            aggs: {
              revenue: { op: "round", value: { op: "sum", field: "amount" }, precision: 2 },
              orders: { op: "count" },
            },
          },
          { op: "sort_by", field: "revenue", order: "desc" },
        ],
      },
    },
    answer: (data) =>
      groups(completed(data), (o) => o.category)
        .map(([key, items]) => ({ key, revenue: round2(sum(items.map((o) => o.amount))), orders: items.length }))
        .sort((a, b) => b.revenue - a.revenue),
  },
  {
    id: "revenue-per-month",
    question:
      "What was the completed revenue in each month (UTC)? Some timestamps carry a local offset, so the month in the text is not always the UTC month.",
    context: ["orders"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "orders" },
          { op: "filter", where: { op: "eq", field: "status", value: "completed" } },
          {
            op: "group_by",
            key: { op: "format_date", field: "created_at", format: "month" },
            aggs: { revenue: { op: "round", value: { op: "sum", field: "amount" }, precision: 2 } },
          },
          { op: "sort_by", field: "key" },
        ],
      },
    },
    answer: (data) =>
      groups(completed(data), (o) => utcMonth(o.created_at))
        .map(([key, items]) => ({ key, revenue: round2(sum(items.map((o) => o.amount))) }))
        .sort((a, b) => byText(a.key, b.key)),
  },
  {
    id: "search-latency",
    question: "What are the median and the 95th-percentile durations (ms) of successful /api/search requests?",
    context: ["requests"],
    program: {
      program: {
        op: "let",
        name: "ok",
        value: {
          op: "pipe",
          steps: [
            { op: "load", name: "requests" },
            {
              op: "filter",
              where: {
                op: "and",
                conditions: [
                  { op: "eq", field: "endpoint", value: "/api/search" },
                  { op: "eq", field: "status", value: 200 },
                ],
              },
            },
          ],
        },
        in: {
          result: {
            median: {
              op: "pipe",
              steps: [
                { op: "var", name: "ok" },
                { op: "median", field: "duration_ms" },
              ],
            },
            p95: {
              op: "pipe",
              steps: [
                { op: "var", name: "ok" },
                { op: "percentile", field: "duration_ms", p: 95 },
              ],
            },
          },
        },
      },
    },
    answer: (data) => {
      const ms = data.requests
        .filter((r) => r.endpoint === "/api/search" && r.status === 200)
        .map((r) => r.duration_ms);
      return { median: percentile(ms, 50), p95: percentile(ms, 95) };
    },
  },
  {
    id: "top-salaries",
    question: "Who are the five best-paid people in Engineering? Salaries come as text; break ties by name.",
    context: ["employees"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "employees" },
          { op: "filter", where: { op: "eq", field: "department", value: "Engineering" } },
          { op: "map", expr: { name: { op: "get", field: "name" }, salary: { op: "to_number", field: "salary" } } },
          { op: "sort_by", by: [{ field: "salary", order: "desc" }, "name"] },
          { op: "take", count: 5 },
        ],
      },
    },
    answer: (data) =>
      data.employees
        .filter((e) => e.department === "Engineering")
        .map((e) => ({ name: e.name, salary: Number(e.salary) }))
        .sort((a, b) => b.salary - a.salary || byText(a.name, b.name))
        .slice(0, 5),
  },
  {
    id: "stock-value",
    question:
      "What is our stock worth (quantity × price) per category? Prices are text from a spreadsheet: some padded with spaces, some 'n/a' (leave those out).",
    context: ["products"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "products" },
          { op: "reject", where: { op: "eq", field: "price", value: "n/a" } },
          {
            op: "group_by",
            field: "category",
            aggs: {
              value: {
                op: "round",
                value: {
                  op: "pipe",
                  steps: [
                    {
                      op: "map",
                      expr: {
                        op: "mul",
                        left: { op: "get", field: "qty" },
                        right: { op: "to_number", field: "price" },
                      },
                    },
                    { op: "sum" },
                  ],
                },
                precision: 2,
              },
            },
          },
          { op: "sort_by", field: "key" },
        ],
      },
    },
    answer: (data) =>
      groups(
        data.products.filter((p) => p.price !== "n/a"),
        (p) => p.category,
      )
        .map(([key, items]) => ({ key, value: round2(sum(items.map((p) => p.qty * Number(p.price.trim())))) }))
        .sort((a, b) => byText(a.key, b.key)),
  },
  {
    id: "unpaid-invoices",
    question: "How many invoices are unpaid and how much do they add up to? list_invoices returns 25 per page.",
    tools: ["list_invoices"],
    program: {
      program: {
        op: "pipe",
        steps: [
          {
            op: "loop",
            init: { op: "call", tool: "list_invoices", args: { page: 1 } },
            while: { op: "get", field: "next_page" },
            next: { op: "call", tool: "list_invoices", args: { page: { op: "get", field: "next_page" } } },
            max: 100,
          },
          { op: "flat_map", expr: { op: "get", field: "items" } },
          { op: "filter", where: { op: "eq", field: "paid", value: false } },
          {
            result: {
              count: { op: "count" },
              owed: { op: "round", value: { op: "sum", field: "total" }, precision: 2 },
            },
          },
        ],
      },
    },
    answer: (data) => {
      const unpaid = data.invoices.filter((i) => !i.paid);
      return { count: unpaid.length, owed: round2(sum(unpaid.map((i) => i.total))) };
    },
  },
  {
    id: "carriers-of-latest-orders",
    question:
      "Which carrier ships each of the five latest completed orders? The shipment lookup fails for some orders: say 'unknown' for those.",
    context: ["orders"],
    tools: ["get_shipment"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "orders" },
          { op: "filter", where: { op: "eq", field: "status", value: "completed" } },
          { op: "map", expr: { id: { op: "get", field: "id" }, t: { op: "to_timestamp", field: "created_at" } } },
          { op: "sort_by", field: "t", order: "desc" },
          { op: "take", count: 5 },
          {
            op: "map",
            expr: {
              id: { op: "get", field: "id" },
              carrier: {
                op: "try",
                expr: {
                  op: "pipe",
                  steps: [
                    { op: "call", tool: "get_shipment", args: { order_id: { op: "get", field: "id" } } },
                    { op: "get", field: "carrier" },
                  ],
                },
                catch: "unknown",
              },
            },
          },
        ],
      },
    },
    answer: (data) =>
      [...completed(data)]
        .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))
        .slice(0, 5)
        .map((o) => ({ id: o.id, carrier: data.shipments.get(o.id)?.carrier ?? "unknown" })),
  },
  {
    id: "low-spenders",
    question: "A conversation about customers who spent little.",
    context: ["orders", "customers"],
    turns: [
      {
        question:
          "Which customers spent less than 1,500 on completed orders? Keep them for my next question; just tell me how many.",
        program: {
          program: {
            op: "let",
            name: "low",
            value: {
              op: "pipe",
              steps: [
                { op: "load", name: "orders" },
                { op: "filter", where: { op: "eq", field: "status", value: "completed" } },
                { op: "group_by", field: "customer_id", aggs: { spent: { op: "sum", field: "amount" } } },
                { op: "filter", where: { op: "lt", field: "spent", value: 1500 } },
              ],
            },
            in: {
              result: { op: "pipe", steps: [{ op: "var", name: "low" }, { op: "count" }] },
              low_spenders: { op: "var", name: "low" },
            },
          },
        },
        answer: (data) => lowSpenders(data).length,
      },
      {
        question: "Of those, which are gold-tier customers? Their names, A to Z.",
        program: {
          program: {
            op: "pipe",
            steps: [
              { op: "load", name: "customers" },
              { op: "filter", where: { op: "eq", field: "tier", value: "gold" } },
              {
                op: "filter_in",
                field: "id",
                value: {
                  op: "pipe",
                  steps: [
                    { op: "var", name: "low_spenders" },
                    { op: "map", expr: { op: "get", field: "key" } },
                  ],
                },
              },
              { op: "map", expr: { op: "get", field: "name" } },
              { op: "sort_by" },
            ],
          },
        },
        answer: (data) => {
          const low = new Set(lowSpenders(data));
          return data.customers
            .filter((c) => c.tier === "gold" && low.has(c.id))
            .map((c) => c.name)
            .sort(byText);
        },
      },
    ],
  },
  {
    id: "revenue-per-tier",
    question: "How much revenue do completed orders bring per customer tier (a join of orders with customers)?",
    context: ["orders", "customers"],
    program: {
      program: {
        op: "let",
        name: "customers",
        value: { op: "load", name: "customers" },
        in: {
          op: "pipe",
          steps: [
            { op: "load", name: "orders" },
            { op: "filter", where: { op: "eq", field: "status", value: "completed" } },
            {
              op: "group_by",
              as: "o",
              key: {
                op: "pipe",
                steps: [
                  { op: "var", name: "customers" },
                  {
                    op: "filter",
                    where: { op: "eq", field: "id", value: { op: "var", name: "o", field: "customer_id" } },
                  },
                  { op: "first" },
                  { op: "get", field: "tier" },
                ],
              },
              aggs: { revenue: { op: "round", value: { op: "sum", field: "amount" }, precision: 2 } },
            },
            { op: "sort_by", field: "key" },
          ],
        },
      },
    },
    answer: (data) => {
      const tier = new Map(data.customers.map((c) => [c.id, c.tier]));
      return groups(completed(data), (o) => tier.get(o.customer_id))
        .map(([key, items]) => ({ key, revenue: round2(sum(items.map((o) => o.amount))) }))
        .sort((a, b) => byText(a.key, b.key));
    },
  },
  {
    id: "reorder",
    question: "Which products are at or below their reorder level? SKUs, lowest stock first (then by SKU).",
    context: ["products"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "products" },
          {
            op: "filter",
            as: "p",
            where: { op: "lte", field: "qty", value: { op: "var", name: "p", field: "reorder_level" } },
          },
          { op: "sort_by", by: ["qty", "sku"] },
          { op: "map", expr: { op: "get", field: "sku" } },
        ],
      },
    },
    answer: (data) =>
      data.products
        .filter((p) => p.qty <= p.reorder_level)
        .sort((a, b) => a.qty - b.qty || byText(a.sku, b.sku))
        .map((p) => p.sku),
  },
  {
    id: "open-escalations",
    question: "List the urgent and high-priority tickets still open: urgent first, oldest first within a priority.",
    context: ["tickets"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "tickets" },
          { op: "filter", where: { op: "eq", field: "closed_at", value: null } },
          { op: "filter_in", field: "priority", value: ["urgent", "high"] },
          { op: "sort_by", by: [{ field: "priority", order: "desc" }, "opened_at"] },
          { op: "select", fields: ["id", "priority", "opened_at"] },
        ],
      },
    },
    answer: (data) =>
      data.tickets
        .filter((t) => t.closed_at === null && ["urgent", "high"].includes(t.priority))
        .sort((a, b) => byText(b.priority, a.priority) || byText(a.opened_at, b.opened_at))
        .map(({ id, priority, opened_at }) => ({ id, priority, opened_at })),
  },
  {
    id: "time-to-close",
    question: "Per team: how many closed tickets, how many closed within 24 hours, and the median hours to close?",
    context: ["tickets"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "tickets" },
          { op: "reject", where: { op: "eq", field: "closed_at", value: null } },
          {
            op: "map",
            expr: {
              team: { op: "get", field: "team" },
              h: { op: "date_diff", field: "opened_at", to: { op: "get", field: "closed_at" }, unit: "hour" },
            },
          },
          {
            op: "group_by",
            field: "team",
            aggs: {
              closed: { op: "count" },
              within_24h: {
                op: "pipe",
                steps: [{ op: "filter", where: { op: "lte", field: "h", value: 24 } }, { op: "count" }],
              },
              median_hours: { op: "median", field: "h" },
            },
          },
        ],
      },
    },
    answer: (data) =>
      groups(
        data.tickets
          .filter((t) => t.closed_at !== null)
          .map((t) => ({ team: t.team, h: hoursBetween(t.opened_at, t.closed_at) })),
        (t) => t.team,
      ).map(([key, items]) => ({
        key,
        closed: items.length,
        within_24h: items.filter((t) => t.h <= 24).length,
        median_hours: percentile(
          items.map((t) => t.h),
          50,
        ),
      })),
  },
  {
    id: "email-domains",
    question: "How many customers use each email domain (case does not matter)? Most used first, then A to Z.",
    context: ["customers"],
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: "customers" },
          {
            op: "group_by",
            key: {
              op: "pipe",
              steps: [{ op: "split", field: "email", sep: "@" }, { op: "last" }, { op: "lower" }],
            },
            aggs: { customers: { op: "count" } },
          },
          { op: "sort_by", by: [{ field: "customers", order: "desc" }, "key"] },
        ],
      },
    },
    answer: (data) =>
      groups(data.customers, (c) => c.email.split("@").pop().toLowerCase())
        .map(([key, items]) => ({ key, customers: items.length }))
        .sort((a, b) => b.customers - a.customers || byText(a.key, b.key)),
  },
];

function lowSpenders(data) {
  return groups(completed(data), (o) => o.customer_id)
    .filter(([, items]) => sum(items.map((o) => o.amount)) < 1500)
    .map(([id]) => id);
}
