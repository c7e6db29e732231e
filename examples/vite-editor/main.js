/* global document */
// An app that lets a model (or its user) write programs over data the page
// holds: the editor, the data for `load`, and a tool the program may call.
import { mount } from "ptc-wasm/editor";

const orders = [
  { id: 1, customer: "c1", total: 250 },
  { id: 2, customer: "c2", total: 80 },
  { id: 3, customer: "c1", total: 130.5 },
  { id: 4, customer: "c3", total: 99 },
];
const customers = { c1: "Ada", c2: "Grace", c3: "Edsger" };

const program = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "orders" },
      { op: "filter", where: { op: "gt", field: "total", value: 100 } },
      {
        op: "map",
        expr: {
          op: "object",
          fields: {
            id: { op: "get", path: ["id"] },
            total: { op: "get", path: ["total"] },
            customer: { op: "call", tool: "customer_name", args: { id: { op: "get", path: ["customer"] } } },
          },
        },
      },
    ],
  },
};

mount(document.getElementById("editor"), {
  program,
  context: { orders },
  tools: { customer_name: ({ id }) => customers[id] ?? null },
  // These tools only read: run on every edit (with tools the default is the Run button).
  runOnEdit: true,
});
