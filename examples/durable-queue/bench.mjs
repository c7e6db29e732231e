// Figures for the recipe's README (not a test): throughput and the size of a
// stored state, on a throw-away PostgreSQL server (or DATABASE_URL's).
//   node examples/durable-queue/bench.mjs [workers=1] [runs=200] [concurrency=1]
// 1. Throughput: `runs` programs that need no approval (a read, a note and 2-5
//    refunds: 4-7 tool calls, 3-6 of them writes, each its own transaction)
//    submitted to `workers` worker processes already up; programs per second,
//    from the first submit to the last run stored, and per worker.
// 2. State size: review programs that stop for approval; the bytes of their
//    stored signed state (JSON text, and PostgreSQL's stored size).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import pgServer from "./pg-server.cjs";

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const [workers = "1", runs = "200", concurrency = "1"] = process.argv.slice(2);
const server = process.env.DATABASE_URL ? undefined : await pgServer.startPostgres();
const url = process.env.DATABASE_URL ?? server.url;
const env = {
  ...process.env,
  DATABASE_URL: url,
  PTC_STATE_KEY: randomBytes(32).toString("hex"),
  PTC_WORKER_CONCURRENCY: concurrency,
};
const node = (file, args = [], stdio = "inherit") =>
  spawn(process.execPath, [here(file), ...args], { env, stdio: ["ignore", stdio, "inherit"] });
const finished = (child) => new Promise((resolve) => child.on("exit", (code) => resolve(code)));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pool = new pg.Pool({ connectionString: url, max: 2 });
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, () => void server?.stop().then(() => process.exit(130)));
const count = async (sql) => (await pool.query(sql)).rows[0].n;

try {
  // Tables and queue first (submit of nothing), then the workers, each up before the clock starts.
  if ((await finished(node("submit.mjs", ["0"]))) !== 0) throw new Error("set-up failed");
  const team = Array.from({ length: Number(workers) }, () => node("worker.mjs", [], "pipe"));
  await Promise.all(team.map((w) => new Promise((resolve) => w.stdout.once("data", resolve))));

  const started = performance.now();
  if ((await finished(node("submit.mjs", [runs, "7", "small"]))) !== 0) throw new Error("submit failed");
  while ((await count("SELECT count(*)::int AS n FROM ptc.runs WHERE status = 'done'")) < Number(runs)) await sleep(50);
  const seconds = (performance.now() - started) / 1000;
  const calls = await count("SELECT count(*)::int AS n FROM ptc.ledger");
  const rate = Number(runs) / seconds;
  console.log(
    `throughput: ${runs} programs (${calls} writes) in ${seconds.toFixed(1)} s on ${workers} worker(s) ` +
      `x ${concurrency}: ${rate.toFixed(1)} programs/s, ${(rate / Number(workers)).toFixed(1)} per worker`,
  );

  const reviews = 30;
  if ((await finished(node("submit.mjs", [String(reviews), "7"]))) !== 0) throw new Error("submit failed");
  while ((await count("SELECT count(*)::int AS n FROM ptc.runs WHERE status IN ('queued', 'resuming')")) > 0)
    await sleep(50);
  const { rows } = await pool.query(
    `SELECT octet_length(state::text) AS text, pg_column_size(state) AS stored,
            json_array_length(state->'journal') AS journal, json_array_length(state->'pending') AS pending
     FROM ptc.runs WHERE status = 'suspended' ORDER BY 1`,
  );
  const median = rows[rows.length >> 1];
  console.log(
    `state: ${rows.length} of ${reviews} review runs suspended for approval; median ${median.text} bytes of JSON ` +
      `(${median.stored} stored by PostgreSQL; ${median.journal} answered calls, ${median.pending} pending), ` +
      `range ${rows[0].text}-${rows[rows.length - 1].text} bytes`,
  );
  for (const w of team) w.kill("SIGTERM");
  await Promise.all(team.map(finished));
} finally {
  await pool.end();
  await server?.stop();
}
