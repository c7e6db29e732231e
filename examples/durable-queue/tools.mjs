// The tools of the recipe's agent programs, on PostgreSQL. A write tool's
// effect and its dedupe key ({ runId, callId }, the call identity every tool of
// a gated run gets) are committed in one transaction: the same call made again
// (a retried job, a state resumed twice, a worker killed between the write and
// the journal entry that would have answered it) finds its key and returns the
// first result instead of writing again.
import { killPoint } from "./killpoints.cjs";

/**
 * One write: `effect(client)` runs only the first time this call identity is
 * seen, in the transaction that records the identity and the result.
 */
async function once(pool, call, tool, args, result, effect, point) {
  if (!call) throw new Error(`'${tool}' needs a call identity: run it in a gated run (a write tool makes one)`);
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const fresh = await client.query(
      `INSERT INTO ptc.writes (run_id, call_id, tool, args, result) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (run_id, call_id) DO NOTHING RETURNING result`,
      [call.runId, call.callId, tool, JSON.stringify(args), JSON.stringify(result)],
    );
    if (fresh.rowCount === 1) {
      await effect(client);
      killPoint(`${point}write-uncommitted`);
      await client.query("COMMIT");
      killPoint(`${point}write-committed`); // done, and no journal has it yet
      return result;
    }
    await client.query("ROLLBACK");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
  // Done before (by this run on an earlier try, or by another worker now): its first result.
  const { rows } = await pool.query(
    "SELECT result, tool = $3 AND args = $4::jsonb AS same FROM ptc.writes WHERE run_id = $1 AND call_id = $2",
    [call.runId, call.callId, tool, JSON.stringify(args)],
  );
  if (!rows[0].same) throw new Error(`call ${call.callId} of run ${call.runId} was a different write before: refusing`);
  return rows[0].result;
}

/**
 * The tools for one leg of a run. `resumed`: the leg runs after an approval
 * (its kill points are named resume-...). `worker` names who did a write.
 */
export function makeTools(pool, { worker, resumed }) {
  const point = resumed ? "resume-" : "";
  const ledger = (client, call, tool, args) =>
    client.query("INSERT INTO ptc.ledger (run_id, call_id, tool, args, worker) VALUES ($1, $2, $3, $4, $5)", [
      call.runId,
      call.callId,
      tool,
      JSON.stringify(args),
      worker,
    ]);
  // A write tool: its effect is a ledger row, done once per call identity.
  const writeTool = (name, description, approval, answer) => ({
    description,
    effect: "write",
    ...(approval === undefined ? {} : { approval }),
    execute: async (args, call) =>
      once(pool, call, name, args, answer(args), (c) => ledger(c, call, name, args), point),
  });
  return {
    orders: {
      description: "A customer's orders: [{ id, amount }]",
      parameters: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
      execute: async ({ customer }) => {
        const { rows } = await pool.query("SELECT id, amount FROM ptc.orders WHERE customer = $1 ORDER BY id", [
          customer,
        ]);
        killPoint(`${point}read`); // during a tool call
        return rows;
      },
    },
    note: writeTool("note", "Adds a note to a customer's file", undefined, () => ({ noted: true })),
    refund: writeTool(
      "refund",
      "Refunds an order",
      ({ amount }) => amount > 100,
      (args) => ({ id: args.id, refunded: args.amount }),
    ),
    escalate: writeTool("escalate", "Escalates a customer's refunds to finance", true, (args) => ({
      escalated: args.customer,
      total: args.total,
    })),
  };
}
