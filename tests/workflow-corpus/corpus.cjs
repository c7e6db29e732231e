// Loads the workflow corpus (workflows.json, programs/) and runs a workflow's
// twins in each of its situations: the step functions and the PTC-JSON program
// through a runtime, the Python twin through python3 (harness.py), each against
// fresh stateful mocks of the same description (mocks.cjs, harness.py). Shared by
// the test (tests/js/workflow-corpus.test.cjs) and the bench
// (bench/tokens-corpus.mjs).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { mockWorld, toolSpecs, effectsAsCompared } = require("./mocks.cjs");
// Equal as JSON, numbers within a relative 1e-9.
const { sameAnswer } = require("../../examples/agent-tasks/harness.cjs");

const workflows = JSON.parse(fs.readFileSync(path.join(__dirname, "workflows.json"), "utf8"));
const programs = path.join(__dirname, "programs");
const DIALECTS = ["steps", "ptc", "python"];
const FILES = { steps: ".steps.json", ptc: ".json", python: ".py" };
// Generous: the suite runs on a loaded machine; no workflow comes near it.
const LIMITS = { timeoutMs: 20000 };

/** A workflow's three twins as text, as the model sent them. */
function twins(workflow) {
  const read = (dialect) => fs.readFileSync(path.join(programs, workflow.id + FILES[dialect]), "utf8").trim();
  return Object.fromEntries(DIALECTS.map((d) => [d, read(d)]));
}

/** What a run gave: {answer, effects} or {failed: the formatted error}. */
const outcome = (ptc, run, effects) =>
  run.ok ? { answer: run.result, effects } : { failed: ptc.formatError(run.error) };

/**
 * The file a step-function twin's request stands for, as run_workflow makes it
 * (js/src/agents/workflow-request.ts; tests/js/agent-ai-sdk.test.cjs runs the
 * short form through the tool): {"functions": [...]} is the file's functions;
 * {"steps": [...], "output"?} adds the entry "main" after them (output "any").
 */
function fileOf(request) {
  const entry = request.steps ? [{ function: "main", output: request.output ?? "any", steps: request.steps }] : [];
  if (request.steps && request.input) throw new Error("a short-form twin writes its values in place (no input)");
  return [...(request.functions ?? []), ...entry].map((f) => JSON.stringify(f)).join("\n");
}

/** The step-function twin ({"steps": [...]} or {"functions": [...]}, "input"?, "entry"?) in one situation. */
async function runSteps(ptc, workflow, situation) {
  const request = JSON.parse(twins(workflow).steps);
  const { tools, effects } = mockWorld(workflow, situation);
  const run = await ptc.runWorkflow(fileOf(request), {
    input: request.input ?? {},
    entry: request.entry,
    tools,
    ...LIMITS,
  });
  return outcome(ptc, run, effects);
}

/** The PTC-JSON twin ({"program": ...}) in one situation. */
async function runPtc(ptc, workflow, situation) {
  const { tools, effects } = mockWorld(workflow, situation);
  const run = await ptc.run(twins(workflow).ptc, { tools, ...LIMITS });
  return outcome(ptc, run, effects);
}

/** The Python twin in every situation of the workflow, one python3 process: [{answer, effects}]. */
function runPython(workflow) {
  const job = {
    code: twins(workflow).python,
    situations: workflow.situations.map((s) => ({ tools: toolSpecs(workflow, s) })),
  };
  const res = spawnSync("python3", [path.join(__dirname, "harness.py")], {
    input: JSON.stringify(job),
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`${workflow.id}.py failed: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

/** Does an outcome hold the situation's answer and effects? The compared forms, for a readable diff. */
function judge(workflow, situation, got) {
  const want = { answer: situation.answer, effects: effectsAsCompared(situation.effects, workflow.unordered) };
  const have = got.failed ? got : { answer: got.answer, effects: effectsAsCompared(got.effects, workflow.unordered) };
  return { pass: !have.failed && sameAnswer(have, want), have, want };
}

const ratio = (a, b) => Math.round((a / b) * 100) / 100;

/** Tokens of each workflow's twins with a counter (text -> number of tokens). */
function tokenRows(count) {
  return workflows.map((workflow) => {
    const t = twins(workflow);
    const [steps, ptc, python] = DIALECTS.map((d) => count(t[d]));
    return { id: workflow.id, steps, ptc, python, stepsRatio: ratio(steps, python), ptcRatio: ratio(ptc, python) };
  });
}

module.exports = { workflows, twins, runSteps, runPtc, runPython, judge, tokenRows, ratio };
