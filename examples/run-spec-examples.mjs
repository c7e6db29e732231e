// Runs the spec's complete examples (examples/spec-examples.json) through the
// package and prints each program's result: what `npm start` shows until the
// playground exists. Mock tools return the example's sample data.
import { readFileSync } from "node:fs";
import { createRuntime } from "ptc-wasm";

const { examples } = JSON.parse(readFileSync(new URL("./spec-examples.json", import.meta.url), "utf8"));
const ptc = await createRuntime();

function mockTools(spec = {}) {
  return Object.fromEntries(Object.entries(spec).map(([name, data]) => [name, async () => structuredClone(data)]));
}

function show(label, r) {
  if (r.ok) {
    console.log(`  ${label}result: ${JSON.stringify(r.result)}`);
    if (Object.keys(r.memoryDelta).length) console.log(`  ${label}memory after: ${JSON.stringify(r.memory)}`);
    console.log(`  ${label}(${r.metrics.durationMs.toFixed(2)} ms, ${r.metrics.toolCalls} tool calls)`);
  } else {
    console.log(`  ${label}${ptc.formatError(r.error)}`);
  }
}

let failures = 0;
for (const ex of examples) {
  console.log(`\n${ex.id} ${ex.title}`);
  const tools = mockTools(ex.tools);
  if (!ex.turns) {
    const r = await ptc.run(ex.program, { context: ex.context, tools });
    show("", r);
    failures += r.ok ? 0 : 1;
    continue;
  }
  let memory = {};
  let previous;
  for (const [i, turn] of ex.turns.entries()) {
    const context = turn.contextFromPreviousResult ? { [turn.contextFromPreviousResult]: previous } : ex.context;
    const r = await ptc.run(turn.program, { context, memory, tools });
    show(`turn ${i + 1} `, r);
    if (!r.ok) failures++;
    else ({ memory, result: previous } = r);
  }
}
console.log(failures ? `\n${failures} example(s) failed` : "\nAll examples ran.");
process.exitCode = failures ? 1 : 0;
