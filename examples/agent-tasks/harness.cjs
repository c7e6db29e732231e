// Runs an agent task (tasks.cjs) the way a host would: its context keys from
// the generated data, its mock tools, and for a conversation the memory each
// turn leaves for the next. Shared by the runner (run.mjs) and the test
// (tests/js/examples.test.cjs), which both compare each turn's result with the
// task's plain-JavaScript answer.
"use strict";
const { generate, tools: allTools } = require("./data.cjs");

/** The turns of a task: itself when it has one program. */
const turnsOf = (task) => task.turns ?? [task];

/** Each turn's question, program, its size in characters (compact JSON), the run and the JS answer. */
async function runTask(ptc, task, data = generate()) {
  const context = Object.fromEntries((task.context ?? []).map((key) => [key, data[key]]));
  const available = allTools(data);
  const tools = Object.fromEntries((task.tools ?? []).map((name) => [name, available[name]]));
  const out = [];
  let memory = {};
  for (const turn of turnsOf(task)) {
    const run = await ptc.run(turn.program, { context, tools, memory });
    if (run.ok) memory = run.memory;
    out.push({
      question: turn.question,
      program: turn.program,
      chars: JSON.stringify(turn.program).length,
      run,
      answer: turn.answer(data),
    });
  }
  return out;
}

/** Equal as JSON, numbers within a relative 1e-9 (the engine and JS may round a last bit apart). */
function sameAnswer(a, b) {
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => sameAnswer(x, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameAnswer(a[k], b[k]));
}

module.exports = { runTask, sameAnswer, turnsOf };
