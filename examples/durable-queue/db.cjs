// The recipe's tables, next to pg-boss's own schema (pgboss) in the same database:
//   ptc.runs     one row per run: its program, its run_id (the runId its
//                tools see), which leg it is on (0, then one more per
//                approval), its status, the signed state it waits at, the
//                decisions for its next leg, its result.
//   ptc.writes   the dedupe table of write tools: PRIMARY KEY (run_id, call_id).
//   ptc.ledger   what the write tools do (the effect), inserted in the same
//                transaction as the dedupe row: an effect without its key, or a
//                key without its effect, cannot be committed.
//   ptc.endings  one row per leg that ended (the audit the fault test counts).
//   ptc.approvals  who decided what (the approver's record).
//   ptc.orders   the data the read tool serves.
// Programs, states and results are \`json\`, not \`jsonb\`: jsonb reorders object
// keys, and the order of a program's keys is its meaning (a let's bindings run
// in order).
const { createHash } = require("node:crypto");

const QUEUE = "ptc-runs";

const SCHEMA = `
CREATE SCHEMA IF NOT EXISTS ptc;
CREATE TABLE IF NOT EXISTS ptc.orders (
  id text PRIMARY KEY, customer text NOT NULL, amount integer NOT NULL);
CREATE TABLE IF NOT EXISTS ptc.runs (
  run_key text PRIMARY KEY,
  program json NOT NULL,
  leg integer NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'suspended', 'resuming', 'done', 'failed', 'refused')),
  run_id text NOT NULL,
  state json,
  decisions json,
  result json,
  error json,
  updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS ptc.writes (
  run_id text NOT NULL, call_id text NOT NULL, tool text NOT NULL,
  args jsonb NOT NULL, result json NOT NULL,
  PRIMARY KEY (run_id, call_id));
CREATE TABLE IF NOT EXISTS ptc.ledger (
  seq bigserial PRIMARY KEY, run_id text NOT NULL, call_id text NOT NULL,
  tool text NOT NULL, args jsonb NOT NULL, worker text NOT NULL);
CREATE TABLE IF NOT EXISTS ptc.endings (
  seq bigserial PRIMARY KEY, run_key text NOT NULL, leg integer NOT NULL,
  status text NOT NULL, worker text NOT NULL);
CREATE TABLE IF NOT EXISTS ptc.approvals (
  run_key text NOT NULL, leg integer NOT NULL, call_id text NOT NULL,
  tool text NOT NULL, args jsonb NOT NULL, approved boolean NOT NULL,
  PRIMARY KEY (run_key, leg, call_id));
`;

/** The pg-boss job id of a run's leg: the same on every try, so sending it twice queues it once. */
function jobId(runKey, leg) {
  const h = createHash("sha256").update(`${runKey}\u0000${leg}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** pg-boss's `db` option: its insert runs on our client, inside our transaction. */
const onClient = (client) => ({ executeSql: (text, values) => client.query(text, values) });

/** The queue's options: retried after a worker dies (its job expires), as often as it takes. */
function queueOptions() {
  return {
    retryLimit: 1000,
    retryDelay: 0,
    expireInSeconds: Number(process.env.PTC_QUEUE_EXPIRE_SECONDS ?? 60),
  };
}

/** pg-boss's constructor options: maintenance (which expires the jobs of dead workers) every few seconds. */
function bossOptions(url) {
  return {
    connectionString: url,
    max: 3,
    maintenanceIntervalSeconds: Number(process.env.PTC_QUEUE_MAINTENANCE_SECONDS ?? 5),
    monitorStateIntervalSeconds: 3600,
  };
}

module.exports = { QUEUE, SCHEMA, jobId, onClient, queueOptions, bossOptions };
