// A worker process: takes run legs from the pg-boss queue and runs them on one
// ptc-wasm runtime. Start as many as you like, on as many machines:
//   DATABASE_URL=postgres://... PTC_STATE_KEY=... node examples/durable-queue/worker.mjs
// PTC_WORKER_CONCURRENCY=n runs n legs at a time (default 1). SIGTERM stops it
// after the legs in hand. A worker killed outright (SIGKILL, a lost machine)
// leaves its job active until it expires (expireInSeconds, db.cjs); pg-boss then
// hands it out again, and a worker runs the leg again from the stored state.
//
// It fetches jobs itself rather than with boss.work(): work() waits out its
// polling interval after every job, which caps a busy worker at one job per
// interval (two a second at the shortest); this loop waits only when the queue
// is empty.
import PgBoss from "pg-boss";
import pg from "pg";
import { createRuntime } from "ptc-wasm";
import db from "./db.cjs";
import { runLeg } from "./leg.mjs";

const url = process.env.DATABASE_URL;
const stateKey = process.env.PTC_STATE_KEY;
if (!url || !stateKey) throw new Error("worker: set DATABASE_URL and PTC_STATE_KEY");
const worker = process.env.PTC_WORKER_NAME ?? `worker-${process.pid}`;
const concurrency = Number(process.env.PTC_WORKER_CONCURRENCY ?? 1);
const verbose = process.env.PTC_QUEUE_VERBOSE === "1";

const pool = new pg.Pool({ connectionString: url, max: 2 + 2 * concurrency });
const boss = new PgBoss(db.bossOptions(url));
boss.on("error", (e) => console.error(`${worker}: pg-boss: ${e.message}`));
await boss.start();
const ptc = await createRuntime();
let stopping = false;

async function loop() {
  while (!stopping) {
    const [job] = await boss.fetch(db.QUEUE, { batchSize: 1 });
    if (!job) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      const done = await runLeg(ptc, pool, job.data, { stateKey, worker });
      if (verbose) console.log(`${worker}: ${job.data.runKey} leg ${job.data.leg}: ${done}`);
      await boss.complete(db.QUEUE, job.id, { done });
    } catch (e) {
      // A database hiccup, say: the job is tried again (retryLimit, db.cjs).
      console.error(`${worker}: ${job.data.runKey} leg ${job.data.leg}: ${e.message}`);
      await boss.fail(db.QUEUE, job.id, { message: e.message });
    }
  }
}

const loops = Array.from({ length: concurrency }, loop);
console.log(`${worker}: ready`);
process.once("SIGTERM", () => (stopping = true));
await Promise.all(loops);
await boss.stop({ graceful: false, wait: true });
await pool.end();
ptc.close?.();
