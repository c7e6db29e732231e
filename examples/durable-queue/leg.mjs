// One leg of a run, as a worker runs it for a job { runKey, leg }: from the run's
// row, resume its stored signed state with the decisions for this leg, and store
// what came of it (suspended again, done, refused...) if the row is still at
// this leg. Every step may be repeated after a worker dies (pg-boss hands the job
// out again once it expires), or run by two workers at once: the row's update
// is conditional, and write tools dedupe by { runId, callId }.
import { killPoint } from "./killpoints.cjs";
import { makeTools } from "./tools.mjs";

const LIVE = ["queued", "resuming"];

/**
 * A fresh run's first state. ptc-wasm gives a fresh run a new runId each time
 * it starts, and write tools dedupe by runId: a first leg retried from the
 * program would write again. So the first leg starts with `suspend: true`,
 * which calls no tool and returns a signed state at the program's first calls
 * (with its runId); the state is stored, and every try of the leg resumes the
 * stored one: the same runId, the same callIds.
 */
async function firstState(ptc, pool, row, options) {
  const first = await ptc.run(row.program, { tools: makeTools(pool, options), suspend: true, ...options.run });
  if (first.status !== "suspended") return { ended: first }; // no tool call (or an invalid program)
  await pool.query(
    "UPDATE ptc.runs SET state = $2, run_id = $3 WHERE run_key = $1 AND leg = 0 AND state IS NULL AND status = 'queued'",
    [row.run_key, JSON.stringify(first.state), first.state.runId],
  );
  const { rows } = await pool.query("SELECT state FROM ptc.runs WHERE run_key = $1", [row.run_key]);
  killPoint("first-state-stored");
  return { state: rows[0].state }; // this try's, or an earlier try's (the same program, another runId)
}

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
  let state = row.state;
  let r;
  if (leg === 0 && !state) {
    const first = await firstState(ptc, pool, row, legOptions);
    if (first.ended) r = first.ended;
    else state = first.state;
  }
  if (!r) {
    if (leg > 0) killPoint("resume");
    r = await ptc.resume(state, {
      results: row.decisions ?? {},
      tools: makeTools(pool, legOptions),
      ...legOptions.run,
    });
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
