// examples/durable-queue under faults: real PostgreSQL (a server of its own on a
// free port, stopped at the end), real pg-boss, worker processes that are
// SIGKILLed at named points and at random, an approver process (killed once
// mid-decision), and states tampered with while they wait. Checks that every run
// ends exactly once with the answer an uninterrupted run gives, every approved
// write happened exactly once, no unapproved write happened, a tampered state is
// refused, and no server process is left behind.
//
// Deterministic kills: a worker alone on the queue with PTC_QUEUE_KILL=<point>:<k>
// dies on the k-th pass of that point (examples/durable-queue/killpoints.cjs), so
// each point is reached; then several workers, with seeded random self-kills at
// every point and seeded SIGKILLs from here as runs end. No assertion on time:
// the waits are bounded only by generous limits.
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const pg = require("pg");
const { startPostgres } = require("../../examples/durable-queue/pg-server.cjs");
const workload = require("../../examples/durable-queue/workload.cjs");

const DIR = path.join(__dirname, "../../examples/durable-queue");
const WORKERS = 3;
const RUNS = 12;
const SEED = 39;
const TAMPERED = { "review-c001": "pending", "review-c002": "journal" };
const LIMIT_MS = 240000;
const KEEP = process.env.PTC_QUEUE_KEEP_LOGS === "1"; // keep the processes' logs (their dir is printed) // for any one wait: a loaded 2-core machine takes a few seconds

// Killed while it waits on its own: the leg-0 points, then those of legs after an approval.
const FIRST_LEGS = [
  "read:1", // in a read tool
  "write-uncommitted:1", // in a write's transaction (it rolls back)
  "write-committed:1", // the write is committed, its journal entry not made
  "write-committed:2",
  "unstored:1", // the run ended, its outcome not stored
  "stored:1", // the outcome stored, the job not marked done
];
const RESUMED_LEGS = [
  "resume:1", // an approved leg about to resume its state
  "resume-write-uncommitted:1",
  "resume-write-committed:1", // an approved write committed, its journal entry not made
  "resume-unstored:1",
  "stored:1",
];
const LAST_LEGS = ["resume-write-committed:1"];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let server;
let pool;
let tmp;
let env;
const live = new Set();
const random = workload.prng(SEED);
const tally = { scripted: 0, external: 0, workerStarts: 0 };

function node(file, extra, name, args = []) {
  const log = fs.openSync(path.join(tmp, `${name}.log`), "a");
  const child = spawn(process.execPath, [path.join(DIR, file), ...args], {
    env: { ...env, ...extra },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  child.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  live.add(child);
  void child.exited.then(() => live.delete(child));
  return child;
}

function startWorker(name, kill = {}) {
  tally.workerStarts++;
  return node("worker.mjs", { PTC_WORKER_NAME: name, ...kill }, name);
}

async function counts() {
  const runs = await pool.query("SELECT status, count(*)::int AS n FROM ptc.runs GROUP BY status");
  const jobs = await pool.query(
    "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'ptc-runs' AND state IN ('created', 'retry', 'active')",
  );
  const by = Object.fromEntries(runs.rows.map((r) => [r.status, r.n]));
  return { ...by, openJobs: jobs.rows[0].n };
}
// Runs that ended with an error other than a refusal: none should (their errors, to say why).
async function failures() {
  const { rows } = await pool.query("SELECT run_key, leg, error FROM ptc.runs WHERE status = 'failed'");
  return rows.map((r) => `${r.run_key} leg ${r.leg}: ${r.error.code}: ${r.error.message}`);
}
const quiet = (c) => !c.queued && !c.resuming && c.openJobs === 0;

function logs() {
  return fs
    .readdirSync(tmp)
    .filter((f) => f.endsWith(".log"))
    .map((f) => `--- ${f}\n${fs.readFileSync(path.join(tmp, f), "utf8").slice(-1500)}`)
    .join("\n");
}

// Waits until `done()` holds; fails (with the processes' logs) past LIMIT_MS.
async function until(what, done) {
  const started = Date.now();
  for (;;) {
    const value = await done();
    if (value) return value;
    if (Date.now() - started > LIMIT_MS) throw new Error(`durable-queue: gave up waiting for ${what}\n${logs()}`);
    await sleep(150);
  }
}

async function stopAll() {
  for (const child of live) child.kill("SIGTERM");
  const all = Promise.all([...live].map((c) => c.exited));
  const late = setTimeout(() => [...live].forEach((c) => c.kill("SIGKILL")), 30000);
  await all;
  clearTimeout(late);
}

// One worker at a time, each told to die at one point: it is alone, so it
// reaches the point while work is left (or the test says which was not reached).
async function scriptedKills(points) {
  for (const point of points) {
    const child = startWorker(`scripted-${point.replace(":", "-")}`, { PTC_QUEUE_KILL: point });
    const end = await until(`a worker to die at ${point}`, async () => {
      const exit = await Promise.race([child.exited, sleep(100).then(() => undefined)]);
      if (exit) return exit;
      if (quiet(await counts())) return { notReached: true };
      return undefined;
    });
    if (end.notReached) {
      child.kill("SIGKILL");
      await child.exited;
      throw new Error(`durable-queue: no work was left to reach kill point ${point}\n${logs()}`);
    }
    if (end.signal !== "SIGKILL")
      throw new Error(`durable-queue: the worker for ${point} ended otherwise (${JSON.stringify(end)})\n${logs()}`);
    tally.scripted++;
  }
}

// WORKERS workers: their first generation dies at random points (seeded), and
// as runs end this test SIGKILLs a random one now and then (seeded); each dead
// one is replaced by one without kills, until the queue is quiet.
async function team(round) {
  const slots = [];
  let stopping = false;
  const start = (i, generation) => {
    const kill =
      generation === 0 ? { PTC_QUEUE_KILL_SEED: String(SEED * 100 + round * 10 + i), PTC_QUEUE_KILL_RATE: "0.04" } : {};
    const child = startWorker(`team${round}-w${i}-g${generation}`, kill);
    slots[i] = { child, generation };
    void child.exited.then(() => {
      if (!stopping && slots[i].child === child) start(i, generation + 1);
    });
  };
  for (let i = 0; i < WORKERS; i++) start(i, 0);
  let endings = 0;
  let killsLeft = 3;
  await until(`round ${round} to settle`, async () => {
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM ptc.endings");
    if (rows[0].n > endings) {
      endings = rows[0].n;
      if (killsLeft > 0 && random() < 0.3) {
        const slot = slots[Math.floor(random() * WORKERS)];
        if (slot.generation < 2) {
          killsLeft--;
          slot.child.kill("SIGKILL");
          tally.external++;
        }
      }
    }
    return quiet(await counts());
  });
  stopping = true;
  await stopAll();
}

async function tamper() {
  for (const [runKey, part] of Object.entries(TAMPERED)) {
    const pointer = part === "pending" ? "{pending,0,args,amount}" : "{journal,0,value,0,amount}";
    const changed = await pool.query(
      `UPDATE ptc.runs SET state = jsonb_set(state::jsonb, $2, '1')::json WHERE run_key = $1 AND status = 'suspended'`,
      [runKey, pointer],
    );
    expect(changed.rowCount).toBe(1);
  }
}

async function approve(kill = {}) {
  const child = node("approve.mjs", kill, "approve");
  return child.exited;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-queue-test-"));
  server = await startPostgres();
  env = {
    ...process.env,
    DATABASE_URL: server.url,
    PTC_STATE_KEY: "durable-queue-test-key-0123456789abcdef",
    PTC_QUEUE_KILL_LOG: path.join(tmp, "kills.txt"),
    PTC_QUEUE_EXPIRE_SECONDS: "4",
    PTC_QUEUE_MAINTENANCE_SECONDS: "1",
  };
  pool = new pg.Pool({ connectionString: server.url, max: 3 });
}, LIMIT_MS);

afterAll(async () => {
  await stopAll();
  await pool?.end();
  if (server) {
    await server.stop();
    expect(server.alive()).toBe(false); // no server process left behind
    expect(fs.existsSync(server.dir)).toBe(false);
  }
  if (tmp && !KEEP) fs.rmSync(tmp, { recursive: true, force: true });
  else if (tmp) console.log(`durable-queue: logs in ${tmp}`);
}, LIMIT_MS);

test("runs on pg-boss survive killed workers: each ends once, each approved write happens once", async () => {
  expect((await node("submit.mjs", {}, "submit", [String(RUNS), String(SEED)]).exited).code).toBe(0);

  // Leg 0: read, write, and stop at the approvals.
  await scriptedKills(FIRST_LEGS);
  await team(1);
  expect(await failures()).toEqual([]);
  expect(await counts()).toEqual({ suspended: RUNS, openJobs: 0 }); // every program asks for an approval

  // Two states are changed while they wait; the approver dies once mid-way, then runs again.
  await tamper();
  expect(await approve({ PTC_QUEUE_KILL: "approve-uncommitted:3" })).toEqual({ code: null, signal: "SIGKILL" });
  expect((await approve()).code).toBe(0);

  await scriptedKills(RESUMED_LEGS);
  await team(2);
  expect((await approve()).code).toBe(0); // the escalations
  await scriptedKills(LAST_LEGS);
  await team(3);
  expect((await approve()).code).toBe(0); // nothing left
  const end = await counts();
  expect(end).toEqual({ done: RUNS - 2, refused: 2, openJobs: 0 });

  // Every run's answer: what an uninterrupted run gives.
  const { orders, programs } = workload.makeWorkload(RUNS, SEED);
  const runs = new Map(
    (await pool.query("SELECT run_key, run_id, leg, status, result, error FROM ptc.runs")).rows.map((r) => [
      r.run_key,
      r,
    ]),
  );
  const expected = new Map(
    programs.map((p) => [p.runKey, workload.expectedRun(p, orders, { tampered: p.runKey in TAMPERED })]),
  );
  for (const p of programs) {
    const row = runs.get(p.runKey);
    if (p.runKey in TAMPERED) {
      expect([p.runKey, row.status, row.error.code]).toEqual([p.runKey, "refused", "bad_state"]);
      expect(row.error.message).toMatch(/mac does not match/);
    } else expect([p.runKey, row.status, row.result]).toEqual([p.runKey, "done", expected.get(p.runKey).result]);
  }

  // Each leg (each job) ended exactly once, legs 0..last.
  const endings = (await pool.query("SELECT run_key, leg, count(*)::int AS n FROM ptc.endings GROUP BY 1, 2")).rows;
  for (const p of programs) {
    const legs = endings.filter((e) => e.run_key === p.runKey);
    expect(legs.map((e) => e.n)).toEqual(legs.map(() => 1));
    expect(legs.map((e) => e.leg).sort()).toEqual([...Array(runs.get(p.runKey).leg + 1).keys()]);
  }
  const legsTotal = [...runs.values()].reduce((n, r) => n + r.leg + 1, 0);
  const jobs = await pool.query(
    `SELECT state::text, count(*)::int AS n FROM (SELECT state FROM pgboss.job WHERE name = 'ptc-runs'
     UNION ALL SELECT state FROM pgboss.archive WHERE name = 'ptc-runs') j GROUP BY 1`,
  );
  expect(jobs.rows).toEqual([{ state: "completed", n: legsTotal }]);

  // The writes: exactly the expected ones, each once, each with its dedupe key.
  const ledger = (await pool.query("SELECT run_id, call_id, tool, args FROM ptc.ledger ORDER BY seq")).rows;
  const byRunId = new Map([...runs.values()].map((r) => [r.run_id, r.run_key]));
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const canon = (w) => JSON.stringify([w.tool, sorted(w.args)]);
  for (const p of programs) {
    const made = ledger.filter((l) => byRunId.get(l.run_id) === p.runKey).map(canon);
    expect([p.runKey, made.sort()]).toEqual([p.runKey, expected.get(p.runKey).writes.map(canon).sort()]);
  }
  expect(ledger.filter((l) => !byRunId.has(l.run_id))).toEqual([]);
  const keys = ledger.map((l) => `${l.run_id} ${l.call_id}`);
  expect(new Set(keys).size).toBe(keys.length);
  const writes = await pool.query("SELECT count(*)::int AS n FROM ptc.writes");
  expect(writes.rows[0].n).toBe(ledger.length);

  // Approved writes happened once; nothing that asked happened without a yes.
  const approvals = (await pool.query("SELECT run_key, call_id, approved FROM ptc.approvals")).rows;
  const approved = new Set(approvals.filter((a) => a.approved).map((a) => `${a.run_key} ${a.call_id}`));
  const asked = ledger.filter((l) => l.tool === "escalate" || (l.tool === "refund" && l.args.amount > 100));
  for (const l of asked) expect(approved.has(`${byRunId.get(l.run_id)} ${l.call_id}`)).toBe(true);
  for (const a of approvals.filter((x) => x.approved && !(x.run_key in TAMPERED)))
    expect([
      a.run_key,
      ledger.filter((l) => l.call_id === a.call_id && byRunId.get(l.run_id) === a.run_key).length,
    ]).toEqual([a.run_key, 1]);
  expect(approvals.filter((a) => !a.approved).length).toBeGreaterThan(0); // denials were tried

  // Every named point was reached (the kill log), and the counts for the record.
  const kills = fs.readFileSync(env.PTC_QUEUE_KILL_LOG, "utf8").trim().split("\n");
  const named = new Set(kills.map((k) => k.split(" ")[0]));
  for (const point of [...FIRST_LEGS, ...RESUMED_LEGS, ...LAST_LEGS, "approve-uncommitted:3"])
    expect(named).toContain(point.split(":")[0]);
  console.log(
    `durable-queue: ${RUNS} runs, ${legsTotal} jobs, ${ledger.length} writes, ${approvals.length} decisions ` +
      `(${approved.size} approved); kills: ${tally.scripted} at named points, ${kills.length - tally.scripted - 1} ` +
      `random self-kills, ${tally.external} SIGKILLs from the test, 1 approver; ${tally.workerStarts} worker starts`,
  );
}, 900000);
