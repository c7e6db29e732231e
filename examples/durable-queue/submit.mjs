// Submits the workload's programs (`node submit.mjs <runs> [seed] [review|small]`): the orders
// the read tool serves, then one run per program. Submitting again does nothing.
//   DATABASE_URL=postgres://... node examples/durable-queue/submit.mjs 12
import pg from "pg";
import workload from "./workload.cjs";
import { sender, setUp, submit } from "./queue.mjs";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("submit: set DATABASE_URL");
const [runs = "12", seed = "1", kind = "review"] = process.argv.slice(2); // kind "small": no approvals
const pool = new pg.Pool({ connectionString: url, max: 2 });
await setUp(pool, url);
const { orders, programs } = workload.makeWorkload(Number(runs), Number(seed), { small: kind === "small" });
for (const o of orders)
  await pool.query("INSERT INTO ptc.orders (id, customer, amount) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
    o.id,
    o.customer,
    o.amount,
  ]);
const boss = await sender(url);
let added = 0;
for (const p of programs) if (await submit(pool, boss, p.runKey, p.program)) added++;
console.log(`submit: ${added} run(s) queued`);
await boss.stop({ graceful: false, wait: true });
await pool.end();
