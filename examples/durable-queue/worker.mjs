// A worker process: takes run legs from the pg-boss queue, one at a time, on
// one ptc-wasm runtime. Start as many as you like, on as many machines:
//   DATABASE_URL=postgres://... PTC_STATE_KEY=... node examples/durable-queue/worker.mjs
// SIGTERM stops it after the job in hand. A worker killed outright (SIGKILL,
// a lost machine) leaves its job active until it expires (expireInSeconds,
// db.cjs); pg-boss then hands it to another worker, which runs the leg again
// from the stored state.
import PgBoss from "pg-boss";
import pg from "pg";
import { createRuntime } from "ptc-wasm";
import db from "./db.cjs";
import { runLeg } from "./leg.mjs";

const url = process.env.DATABASE_URL;
const stateKey = process.env.PTC_STATE_KEY;
if (!url || !stateKey) throw new Error("worker: set DATABASE_URL and PTC_STATE_KEY");
const worker = process.env.PTC_WORKER_NAME ?? `worker-${process.pid}`;

const pool = new pg.Pool({ connectionString: url, max: 4 });
const boss = new PgBoss(db.bossOptions(url));
boss.on("error", (e) => console.error(`${worker}: pg-boss: ${e.message}`));
await boss.start();
const ptc = await createRuntime();

await boss.work(db.QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
  const done = await runLeg(ptc, pool, job.data, { stateKey, worker });
  if (process.env.PTC_QUEUE_VERBOSE) console.log(`${worker}: ${job.data.runKey} leg ${job.data.leg}: ${done}`);
  return { done };
});
console.log(`${worker}: ready`);

process.once("SIGTERM", async () => {
  await boss.stop({ graceful: true, wait: true, timeout: 30000 });
  await pool.end();
  ptc.close?.();
  process.exit(0);
});
