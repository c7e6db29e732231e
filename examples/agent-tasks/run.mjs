// Runs the agent tasks (tasks.cjs) over the generated data and prints, for each
// question, the program's size, its result and whether that equals the answer
// computed in plain JavaScript.
//
//   npm run examples:agent            (or: node examples/agent-tasks/run.mjs)
//   node examples/agent-tasks/run.mjs --programs    (also print each program)
import { createRuntime } from "ptc-wasm";
import tasks from "./tasks.cjs";
import harness from "./harness.cjs";

const ptc = await createRuntime();
const showPrograms = process.argv.includes("--programs");
const shown = (value) => {
  const text = JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
};

let failures = 0;
for (const task of tasks) {
  console.log(`\n${task.id}: ${task.question}`);
  for (const turn of await harness.runTask(ptc, task)) {
    const matches = turn.run.ok && harness.sameAnswer(turn.run.result, turn.answer);
    if (!matches) failures++;
    if (task.turns) console.log(`  > ${turn.question}`);
    if (showPrograms) console.log(`  program: ${JSON.stringify(turn.program)}`);
    console.log(`  program: ${turn.chars} characters`);
    console.log(`  ${turn.run.ok ? `result: ${shown(turn.run.result)}` : ptc.formatError(turn.run.error)}`);
    console.log(`  ${matches ? "matches the plain-JS answer" : `EXPECTED: ${shown(turn.answer)}`}`);
  }
}
console.log(failures ? `\n${failures} answer(s) differ` : `\nAll ${tasks.length} tasks answered correctly.`);
process.exitCode = failures ? 1 : 0;
