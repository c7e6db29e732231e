// Tools for the agent-loop example, as descriptors: the prompt lists their
// descriptions and parameters, and a call whose args do not match `parameters`
// fails (naming the arg) before `execute` runs. Also the tools module for
//   npx ptc-wasm mcp --tools examples/agent-loop/tools.mjs
// (every export that is a function or a descriptor becomes a tool).

const customers = [
  { id: 1, name: "Ada Lovelace", country: "UK", tier: "gold" },
  { id: 2, name: "Grace Hopper", country: "US", tier: "silver" },
  { id: 3, name: "Edsger Dijkstra", country: "NL", tier: "gold" },
  { id: 4, name: "Barbara Liskov", country: "US", tier: "bronze" },
];

const statuses = ["open", "shipped", "delivered", "cancelled"];
const orders = Array.from({ length: 40 }, (_, i) => ({
  id: 1000 + i,
  customer_id: (i % customers.length) + 1,
  status: statuses[Math.floor(i / 3) % statuses.length],
  total: Math.round(((i * 37) % 250) * 100 + 999) / 100,
  placed: `2024-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 27) + 1).padStart(2, "0")}`,
}));

export const get_orders = {
  description: "Orders, optionally only those with one status; newest first.",
  parameters: {
    type: "object",
    properties: {
      status: { enum: statuses, description: "only orders with this status" },
      limit: { type: "integer", minimum: 1, maximum: 100, description: "at most this many orders" },
    },
    additionalProperties: false,
  },
  async execute({ status, limit }) {
    const matching = orders
      .filter((o) => !status || o.status === status)
      .sort((a, b) => b.placed.localeCompare(a.placed));
    return matching.slice(0, limit ?? matching.length);
  },
};

export const get_customer = {
  description: "One customer by id: {id, name, country, tier}, or null.",
  parameters: {
    type: "object",
    properties: { id: { type: "integer", description: "customer id" } },
    required: ["id"],
    additionalProperties: false,
  },
  async execute({ id }) {
    return customers.find((c) => c.id === id) ?? null;
  },
};
