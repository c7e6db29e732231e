// A multi-turn agent session with ptc-wasm, runnable without network or API key:
// a scripted stand-in plays the model. Everything the model is given comes out
// of the package: the system prompt (runtime.prompt) and the function definition
// (runtime.asFunctionTool), both generated from the engine's op table; a failed
// program comes back as runtime.formatError's one line, which the stand-in uses
// to repair its program, as a model would.
//
//   node examples/agent-loop/agent.mjs
//
// Turn 1 loads data and stores the travel expenses in memory; turn 2 reads them
// back; turn 3 calls tools, with a typo the error message repairs.
import { readFileSync } from "node:fs";
import { createRuntime } from "ptc-wasm";
import * as tools from "./tools.mjs";

const context = JSON.parse(readFileSync(new URL("./data.json", import.meta.url), "utf8"));
const ptc = await createRuntime();

// What a real model would get: a system prompt and one function to call.
const system = ptc.prompt({ tools, context, compact: true });
const runProgram = ptc.asFunctionTool({ tools, context, name: "run_program" });
console.log(`system prompt: ${system.length} characters`);
console.log(`function: ${runProgram.name}(${Object.keys(runProgram.parameters.properties).join(", ")})`);

// ---- The host: runs the model's program, keeps memory between turns. -------
let memory = {};
async function runToolCall(call) {
  const program = JSON.parse(call.arguments);
  const r = await ptc.run(program, { context, memory, tools, timeoutMs: 2000 });
  if (!r.ok) return { error: ptc.formatError(r.error, program) };
  memory = r.memory;
  return { result: r.result, stored: Object.keys(r.memoryDelta) };
}

// ---- The stand-in for the model. ---------------------------------------------
// It plans one program per question; on an error it repairs the program from the
// formatted message alone: the JSON Pointer says where, the did-you-mean what.
function repair(program, message) {
  const where = /^\w+ at (\/\S*): /.exec(message)?.[1];
  const suggestion = /Did you mean '([^']+)'\?/.exec(message)?.[1];
  if (!where || !suggestion) return undefined;
  const fixed = structuredClone(program);
  const tokens = where
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const last = tokens.pop();
  let node = fixed;
  for (const token of tokens) node = node[token];
  if (/Unknown operation/.test(message))
    node[last].op = suggestion; // the pointer is the op's node
  else if (/Unknown field/.test(message)) {
    node[suggestion] = node[last]; // the pointer is the misspelled field
    delete node[last];
  } else return undefined;
  return fixed;
}

const plans = {
  "How much did we spend on travel? Keep those expenses for follow-up questions.": {
    program: {
      program: {
        op: "let",
        name: "travel",
        value: {
          op: "pipe",
          steps: [
            { op: "load", name: "expenses" },
            { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
          ],
        },
        in: {
          // A nested object is literal data inside an implicit object: build it with "object".
          result: {
            op: "object",
            fields: {
              total: {
                op: "pipe",
                steps: [
                  { op: "var", name: "travel" },
                  { op: "sum", field: "amount" },
                ],
              },
              count: { op: "pipe", steps: [{ op: "var", name: "travel" }, { op: "count" }] },
            },
          },
          travel_expenses: { op: "var", name: "travel" },
        },
      },
    },
    answer: ({ result, stored }) =>
      `Travel came to ${result.total} over ${result.count} expenses (kept in memory: ${stored.join(", ")}).`,
  },
  "Who had the most expensive trip?": {
    program: {
      // An object returned under "result" is not stored in memory.
      program: {
        result: {
          op: "pipe",
          steps: [
            { op: "var", name: "travel_expenses" },
            { op: "max_by", field: "amount" },
            { op: "select", fields: ["employee", "amount", "date"] },
          ],
        },
      },
    },
    answer: ({ result }) => `${result.employee}: ${result.amount} on ${result.date}.`,
  },
  "Which shipped orders over 100 belong to gold-tier customers?": {
    // "filer": the deliberate typo.
    program: {
      program: {
        op: "pipe",
        steps: [
          { op: "call", tool: "get_orders", args: { status: "shipped" } },
          { op: "filer", where: { op: "gt", field: "total", value: 100 } },
          {
            op: "map",
            expr: {
              id: { op: "get", field: "id" },
              total: { op: "get", field: "total" },
              customer: { op: "call", tool: "get_customer", args: { id: { op: "get", field: "customer_id" } } },
            },
          },
          {
            op: "filter",
            where: {
              op: "pipe",
              steps: [
                { op: "get", path: ["customer", "tier"] },
                { op: "eq", value: "gold" },
              ],
            },
          },
        ],
      },
    },
    answer: ({ result }) =>
      `${result.length} orders: ${result.map((o) => `#${o.id} (${o.total}, ${o.customer.name})`).join(", ")}.`,
  },
};
function scriptedModel(messages) {
  const last = messages[messages.length - 1];
  const question = [...messages].reverse().find((m) => m.role === "user").content;
  const plan = plans[question];
  if (last.role === "user") return { toolCall: { name: runProgram.name, arguments: JSON.stringify(plan.program) } };
  const output = JSON.parse(last.content);
  if (output.error) {
    const previous = JSON.parse([...messages].reverse().find((m) => m.toolCall).toolCall.arguments);
    const fixed = repair(previous, output.error);
    if (!fixed) return { content: `I could not repair my program: ${output.error}` };
    return { toolCall: { name: runProgram.name, arguments: JSON.stringify(fixed) } };
  }
  return { content: plan.answer(output) };
}

// ---- The loop. ------------------------------------------------------------------
const messages = [{ role: "system", content: system }];
let failures = 0;
for (const [turn, question] of Object.keys(plans).entries()) {
  console.log(`\n== turn ${turn + 1}\nuser: ${question}`);
  messages.push({ role: "user", content: question });
  for (let step = 0; step < 4; step++) {
    const reply = scriptedModel(messages);
    messages.push({ role: "assistant", ...reply });
    if (!reply.toolCall) {
      console.log(`assistant: ${reply.content}`);
      if (reply.content.startsWith("I could not")) failures++;
      break;
    }
    console.log(`assistant calls ${reply.toolCall.name}: ${reply.toolCall.arguments}`);
    const output = await runToolCall(reply.toolCall);
    console.log(output.error ? `host: error: ${output.error}` : `host: ${JSON.stringify(output)}`);
    messages.push({ role: "tool", content: JSON.stringify(output) });
  }
}
console.log(`\nmemory at the end: ${Object.keys(memory).join(", ")}`);
process.exitCode = failures ? 1 : 0;
