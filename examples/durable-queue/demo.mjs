// The whole recipe on one machine, on a throw-away PostgreSQL server:
//   node examples/durable-queue/demo.mjs [workers=3] [runs=12]
// starts the server, the workers, submits the programs, plays the approver
// (a separate process) until every run has ended, prints what came of them,
// then stops everything. DATABASE_URL=... uses your server instead (and keeps it).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import pgServer from "./pg-server.cjs";

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const [workers = "3", runs = "12"] = process.argv.slice(2);
const server = process.env.DATABASE_URL ? undefined : await pgServer.startPostgres();
const url = process.env.DATABASE_URL ?? server.url;
const env = { ...process.env, DATABASE_URL: url, PTC_STATE_KEY: randomBytes(32).toString("hex") };

const node = (file, args = [], extra = {}) =>
  spawn(process.execPath, [here(file), ...args], { env: { ...env, ...extra }, stdio: "inherit" });
const finished = (child) => new Promise((resolve) => child.on("exit", (code) => resolve(code)));

const pool = new pg.Pool({ connectionString: url, max: 2 });
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, () => void server?.stop().then(() => process.exit(130)));
try {
  if ((await finished(node("submit.mjs", [runs]))) !== 0) throw new Error("submit failed");
  const team = Array.from({ length: Number(workers) }, (_, i) => node("worker.mjs", [], { PTC_WORKER_NAME: `w${i}` }));
  for (;;) {
    const { rows } = await pool.query("SELECT status, count(*)::int AS n FROM ptc.runs GROUP BY status");
    const by = Object.fromEntries(rows.map((r) => [r.status, r.n]));
    if (!by.queued && !by.resuming) {
      if (!by.suspended) break;
      await finished(node("approve.mjs"));
    } else await new Promise((r) => setTimeout(r, 200));
  }
  const { rows } = await pool.query("SELECT run_key, status, result, error FROM ptc.runs ORDER BY run_key");
  for (const r of rows)
    console.log(
      r.run_key,
      r.status,
      JSON.stringify(r.status === "done" ? { total: r.result.total, escalation: r.result.escalation } : r.error),
    );
  const w = await pool.query("SELECT tool, count(*)::int AS n FROM ptc.ledger GROUP BY tool ORDER BY tool");
  console.log("writes:", w.rows.map((r) => `${r.tool} ${r.n}`).join(", "));
  for (const child of team) child.kill("SIGTERM");
  await Promise.all(team.map(finished));
} finally {
  await pool.end();
  await server?.stop();
}
