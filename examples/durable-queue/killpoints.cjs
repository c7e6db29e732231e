// Named points where a worker may die, for the fault test: the process SIGKILLs
// itself (nothing runs after: no finally, no exit handler, open transactions
// are rolled back by the server when the connection drops).
//   PTC_QUEUE_KILL="write-committed:1,read:3"   die on the 1st pass of
//                                               write-committed, the 3rd of read
//   PTC_QUEUE_KILL_SEED=7 PTC_QUEUE_KILL_RATE=0.05   and at any point, with that
//                                               chance per pass (a seeded PRNG)
//   PTC_QUEUE_KILL_LOG=file                     a line "name pass pid" is
//                                               appended before dying
// Unset, a pass costs a Map lookup.
const fs = require("node:fs");

const planned = new Map(
  (process.env.PTC_QUEUE_KILL ?? "")
    .split(",")
    .filter(Boolean)
    .map((spec) => {
      const [name, k] = spec.split(":");
      return [name, Number(k ?? 1)];
    }),
);
const rate = Number(process.env.PTC_QUEUE_KILL_RATE ?? 0);
let seed = Number(process.env.PTC_QUEUE_KILL_SEED ?? 1) >>> 0;
// mulberry32
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const passes = new Map();

/** A named point: the worker dies here when the environment says so. */
function killPoint(name) {
  const pass = (passes.get(name) ?? 0) + 1;
  passes.set(name, pass);
  const die = planned.get(name) === pass || (rate > 0 && random() < rate);
  if (!die) return;
  if (process.env.PTC_QUEUE_KILL_LOG)
    fs.appendFileSync(process.env.PTC_QUEUE_KILL_LOG, `${name} ${pass} ${process.pid}\n`);
  process.kill(process.pid, "SIGKILL");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // not reached: nothing runs after the signal
}

module.exports = { killPoint };
