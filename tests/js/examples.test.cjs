// The agent tasks of examples/agent-tasks: realistic questions over generated
// data with mock tools. Each program must run and return what the task's plain
// JavaScript computes from the same data (never a literal copied from a run).
const path = require("node:path");
const { ptcWasm } = require("./helpers.cjs");

const dir = path.join(__dirname, "../../examples/agent-tasks");
const tasks = require(path.join(dir, "tasks.cjs"));
const { runTask, sameAnswer, turnsOf } = require(path.join(dir, "harness.cjs"));
const { generate, tools } = require(path.join(dir, "data.cjs"));

let ptc;
const data = generate();
beforeAll(async () => {
  ptc = await ptcWasm.createRuntime();
});

test.each(tasks.map((t) => [t.id, t]))("%s: every turn's result is the plain-JS answer", async (_id, task) => {
  const turns = await runTask(ptc, task, data);
  expect(turns).toHaveLength(turnsOf(task).length);
  for (const { question, run, answer } of turns) {
    const got = run.ok ? run.result : ptc.formatError(run.error);
    if (!sameAnswer(got, answer)) expect({ question, got }).toEqual({ question, got: answer });
  }
});

test("at least ten tasks, with tools, a loop, try, memory, and programs under 600 characters", () => {
  expect(tasks.length).toBeGreaterThanOrEqual(10);
  expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
  const programs = tasks.flatMap((t) => turnsOf(t).map((turn) => JSON.stringify(turn.program)));
  for (const text of programs) expect([text.slice(0, 60), text.length <= 600]).toEqual([text.slice(0, 60), true]);
  for (const op of ["group_by", "percentile", "median", "to_number", "loop", "try", "call", "date_diff", "format_date"])
    expect([op, programs.some((p) => p.includes(`"op":"${op}"`))]).toEqual([op, true]);
  expect(tasks.some((t) => t.turns && t.turns.length >= 2)).toBe(true);
});

// The questions are only worth asking if the traps they mention are in the data.
test("the generated data holds what the questions are about", async () => {
  const completed = data.orders.filter((o) => o.status === "completed");
  const utcMonth = (iso) => new Date(iso).toISOString().slice(0, 7);
  expect(completed.some((o) => o.created_at.slice(0, 7) !== utcMonth(o.created_at))).toBe(true);
  expect(data.products.some((p) => p.price === "n/a")).toBe(true);
  expect(data.products.some((p) => p.price !== p.price.trim())).toBe(true);
  expect(data.employees.every((e) => typeof e.salary === "string")).toBe(true);
  expect(data.invoices.length).toBeGreaterThan(4 * 25); // several pages
  const latest = [...completed].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)).slice(0, 5);
  const lookups = await Promise.allSettled(latest.map((o) => tools(data).get_shipment({ order_id: o.id })));
  expect(lookups.map((l) => l.status)).toContain("rejected");
  expect(lookups.map((l) => l.status)).toContain("fulfilled");
  expect(data.tickets.some((t) => t.closed_at === null)).toBe(true);
  const snapshot = (d) => JSON.stringify({ ...d, shipments: [...d.shipments] });
  expect(snapshot(generate())).toBe(snapshot(data)); // deterministic
});
