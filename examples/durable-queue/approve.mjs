// The approver: a separate process, as an HTTP request from a person's "approve"
// button would be. Decides every run waiting for approval with the workload's
// policy (refunds up to 1000, escalations under 2000) and queues its next leg.
//   DATABASE_URL=postgres://... node examples/durable-queue/approve.mjs
import pg from "pg";
import workload from "./workload.cjs";
import { approve, sender, waiting } from "./queue.mjs";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("approve: set DATABASE_URL");
const pool = new pg.Pool({ connectionString: url, max: 2 });
const boss = await sender(url);
let decided = 0;
for (const run of await waiting(pool)) if (await approve(pool, boss, run, workload.decide)) decided++;
console.log(`approve: decided ${decided} run(s)`);
await boss.stop({ graceful: false, wait: true });
await pool.end();
