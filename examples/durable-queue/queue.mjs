// What the host's other processes do: set up the tables and the queue, submit
// programs, approve or deny what suspended runs wait for. Each step commits its
// row change and its pg-boss job in one transaction (pg-boss's `db` option), and
// a job's id is fixed by run and leg: repeating a step after a crash is harmless.
import PgBoss from "pg-boss";
import db from "./db.cjs";
import { killPoint } from "./killpoints.cjs";

/** Creates the tables, pg-boss's schema and the queue (idempotent). */
export async function setUp(pool, url) {
  await pool.query(db.SCHEMA);
  const boss = new PgBoss({ ...db.bossOptions(url), supervise: false, schedule: false });
  await boss.start();
  const queues = await boss.getQueues();
  if (!queues.some((q) => q.name === db.QUEUE)) await boss.createQueue(db.QUEUE, db.queueOptions());
  await boss.stop({ graceful: false, wait: true });
}

/** A pg-boss instance that only sends (no maintenance, no workers). */
export async function sender(url) {
  const boss = new PgBoss({ ...db.bossOptions(url), supervise: false, schedule: false, max: 2 });
  await boss.start();
  return boss;
}

async function inTransaction(pool, work) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const out = await work(client);
    await client.query("COMMIT");
    return out;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/**
 * Submits a program as run `runKey` (once: a second submit of the key does
 * nothing). Its run_id, the `runId` option its first leg runs with, is the key
 * itself: any 1 to 128 printable ASCII characters without spaces would do, as
 * long as every try of the run uses the same.
 */
export function submit(pool, boss, runKey, program) {
  return inTransaction(pool, async (client) => {
    const added = await client.query(
      "INSERT INTO ptc.runs (run_key, run_id, program) VALUES ($1, $1, $2) ON CONFLICT (run_key) DO NOTHING",
      [runKey, JSON.stringify(program)],
    );
    if (added.rowCount === 1)
      await boss.send(db.QUEUE, { runKey, leg: 0 }, { id: db.jobId(runKey, 0), db: db.onClient(client) });
    return added.rowCount === 1;
  });
}

/** The runs waiting for a decision: [{ runKey, leg, pending }], pending read from the stored state. */
export async function waiting(pool) {
  const { rows } = await pool.query(
    "SELECT run_key, leg, state->'pending' AS pending FROM ptc.runs WHERE status = 'suspended' ORDER BY run_key",
  );
  return rows.map((r) => ({ runKey: r.run_key, leg: r.leg, pending: r.pending }));
}

/**
 * Decides a suspended run's pending calls (`decide(call)` gives { approved, reason? })
 * and queues its next leg, which any free worker takes. What is shown to the
 * person deciding is the state's own pending list: if the state was changed,
 * its signature no longer matches and the worker refuses it (status "refused").
 */
export function approve(pool, boss, run, decide) {
  return inTransaction(pool, async (client) => {
    const results = {};
    for (const call of run.pending) results[call.id] = decide(call);
    const next = run.leg + 1;
    const moved = await client.query(
      `UPDATE ptc.runs SET leg = $3, status = 'resuming', decisions = $4, updated_at = now()
       WHERE run_key = $1 AND leg = $2 AND status = 'suspended'`,
      [run.runKey, run.leg, next, JSON.stringify(results)],
    );
    if (moved.rowCount !== 1) return false; // decided already
    for (const call of run.pending)
      await client.query(
        "INSERT INTO ptc.approvals (run_key, leg, call_id, tool, args, approved) VALUES ($1, $2, $3, $4, $5, $6)",
        [run.runKey, next, call.id, call.tool, JSON.stringify(call.args), results[call.id].approved === true],
      );
    await boss.send(
      db.QUEUE,
      { runKey: run.runKey, leg: next },
      { id: db.jobId(run.runKey, next), db: db.onClient(client) },
    );
    killPoint("approve-uncommitted");
    return true;
  });
}
