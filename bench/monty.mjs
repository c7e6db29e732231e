// @pydantic/monty as a peer: a sandboxed Python interpreter (Rust, a native
// Node addon), running Python programs of the same meaning as the PTC-JSON
// ones. Its binary exists for a few platforms only, so it is loaded on demand:
// where it does not install or load, loadMonty() says why and the runner skips
// it with that reason.
//
// Like JSONata's expression, a Monty program is parsed once (new Monty(code))
// and run per call; the data crosses as the program's inputs (JS values turned
// into Python objects by the addon), which is on the clock, as for every peer.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LimitError } from "./limit-error.mjs";

// Not a dev dependency: its lock entries would name binaries for every platform,
// and those are not all on every registry mirror, which breaks `npm ci`.
// scripts/bench.sh installs it here (a pinned version) when it is missing.
const MONTY_CACHE = join(dirname(fileURLToPath(import.meta.url)), "../build/bench/peers");

/** W1: the sum of amount over the rows whose category is "travel". */
export const MONTY_W1 = "sum(r['amount'] for r in rows if r['category'] == 'travel')";

/**
 * W3: the join (orders × users): each order's user name, found by the first
 * user whose id equals the order's userId.
 */
export const MONTY_W3 = `
def name_of(user_id):
    for u in users:
        if u['id'] == user_id:
            return u['name']
    return None
[{'order_id': o['order_id'], 'name': name_of(o['user_id'])} for o in orders]`;

/** Group-by: total and count of amount per category. */
export const MONTY_GROUP_BY = `
totals = {}
for r in rows:
    t = totals.get(r['category'])
    if t is None:
        t = {'total': 0, 'count': 0}
        totals[r['category']] = t
    t['total'] += r['amount']
    t['count'] += 1
totals`;

// Monty's limits, from the runner's { timeoutMs, maxHeapBytes }.
const montyLimits = (limits) => ({ maxDurationSecs: limits.timeoutMs / 1000, maxMemory: limits.maxHeapBytes });

/**
 * { ok: true, version, runner(code, ...inputNames) } or { ok: false, reason }.
 * runner(code, ...names) parses the program once and returns
 * (input, limits) => result, where input is the value of the first name (or,
 * with several names, an object holding them).
 */
/** The @pydantic/monty module from the cache folder (throws where it is not installed). */
export const requireMonty = () => createRequire(join(MONTY_CACHE, "package.json"))("@pydantic/monty");

export async function loadMonty() {
  let mod;
  try {
    mod = requireMonty();
    new mod.Monty("1 + 1").run(); // the addon loads lazily: make sure it runs here
  } catch (e) {
    return { ok: false, reason: `@pydantic/monty does not load here: ${String(e?.message ?? e).split("\n")[0]}` };
  }
  const { Monty, MontyRuntimeError } = mod;
  return {
    ok: true,
    runner(code, ...names) {
      const program = new Monty(code, { inputs: names });
      return (input, limits) => {
        const inputs = names.length === 1 ? { [names[0]]: input } : input;
        try {
          return program.run({ inputs, limits: montyLimits(limits) });
        } catch (e) {
          // Monty reports its limits as runtime errors naming them.
          if (e instanceof MontyRuntimeError && /memory|time|duration|allocation/i.test(e.message))
            throw new LimitError(`monty: ${e.message}`);
          throw e;
        }
      };
    },
  };
}
