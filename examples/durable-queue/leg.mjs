// One leg of a run, as a worker runs it for a job { runKey, leg }: from the run's
// row, run its program (leg 0, under the row's run_id) or resume its stored
// signed state with the decisions for this leg, and store what came of it
// (suspended again, done, refused...) if the row is still at this leg. Every
// step may be repeated after a worker dies (pg-boss hands the job out again
// once it expires), or run by two workers at once: the row's update is
// conditional, and write tools dedupe by { runId, callId }.
import { killPoint } from "./killpoints.cjs";
import { makeTools } from "./tools.mjs";

const LIVE = ["queued", "resuming"];

/** What a run's result makes of its row. */
function outcome(r) {
  if (r.status === "suspended") return { status: "suspended", state: r.state };
  if (r.ok) return { status: "done", result: r.result };
  const refused = r.error.code === "bad_state" || r.error.code === "bad_resume";
  return { status: refused ? "refused" : "failed", error: r.error };
}

/**
 * Runs the leg `leg` of run `runKey`. options: { stateKey, worker, run? (more run
 * options: limits, context) }. Resolves to what happened: "stale" (the row is
 * past this leg: a repeated job), or the status stored.
 */
export async function runLeg(ptc, pool, { runKey, leg }, options) {
  const { rows } = await pool.query("SELECT * FROM ptc.runs WHERE run_key = $1", [runKey]);
  const row = rows[0];
  if (!row || row.leg !== leg || !LIVE.includes(row.status)) return "stale";
  const legOptions = { worker: options.worker, resumed: leg > 0, run: { stateKey: options.stateKey, ...options.run } };
  const tools = makeTools(pool, legOptions);
  let r;
  if (leg === 0) {
    // The first leg runs the program, under the run's own id (the row's run_id,
    // chosen at submit): every try of this leg gives each call the same
    // { runId, callId }, so a write a killed try made is found by its key.
    r = await ptc.run(row.program, { tools, runId: row.run_id, ...legOptions.run });
  } else {
    killPoint("resume");
    // A resumed run keeps the runId its state holds (the same run_id).
    r = await ptc.resume(row.state, { results: row.decisions ?? {}, tools, ...legOptions.run });
  }
  const o = outcome(r);
  killPoint(leg > 0 ? "resume-unstored" : "unstored"); // the run is over, its outcome not stored
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const stored = await client.query(
      `UPDATE ptc.runs SET status = $3, state = COALESCE($4, state), result = $5, error = $6, updated_at = now()
       WHERE run_key = $1 AND leg = $2 AND status = ANY($7)`,
      [
        runKey,
        leg,
        o.status,
        o.state ? JSON.stringify(o.state) : null,
        o.result === undefined ? null : JSON.stringify(o.result),
        o.error ? JSON.stringify(o.error) : null,
        LIVE,
      ],
    );
    if (stored.rowCount === 1)
      await client.query("INSERT INTO ptc.endings (run_key, leg, status, worker) VALUES ($1, $2, $3, $4)", [
        runKey,
        leg,
        o.status,
        options.worker,
      ]);
    await client.query("COMMIT");
    killPoint("stored"); // stored, and the job not yet marked done: pg-boss hands it out again
    return stored.rowCount === 1 ? o.status : "stale";
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
