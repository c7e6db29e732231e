// Loads the token corpus (questions.cjs, programs/), runs a question's PTC-JSON
// twin through a runtime and its Python twin through python3 (harness.py), on
// the same data. Shared by the test (tests/js/token-corpus.test.cjs) and the
// bench (bench/tokens-corpus.mjs).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const questions = require("./questions.cjs");
const { generate, jsTool } = require("./data.cjs");
// Equal as JSON, numbers within a relative 1e-9 (Python and the engine may round a last bit apart).
const { sameAnswer } = require("../../examples/agent-tasks/harness.cjs");

const programs = path.join(__dirname, "programs");
const TURN = /^# turn\n/m;

/** A question's twins as text: the PTC-JSON turns (one a line) and the Python turns. */
function twins(question) {
  const ptc = fs
    .readFileSync(path.join(programs, `${question.id}.json`), "utf8")
    .trim()
    .split("\n");
  const python = fs
    .readFileSync(path.join(programs, `${question.id}.py`), "utf8")
    .trim()
    .split(TURN);
  return { ptc, python: python.map((code) => code.trim()) };
}

/** The context and the tool declarations a question's host gives, from the data. */
function hostOf(question, data) {
  const context = Object.fromEntries(question.context.map((key) => [key, data[key]]));
  const tools = Object.fromEntries(Object.entries(question.tools).map(([name, spec]) => [name, spec(data)]));
  return { context, tools };
}

/** Each turn's result (or formatted error) through the runtime, memory carried between turns. */
async function runPtc(ptc, question, data) {
  const { context, tools } = hostOf(question, data);
  const fns = Object.fromEntries(Object.entries(tools).map(([name, spec]) => [name, jsTool(spec)]));
  let memory = {};
  const out = [];
  for (const text of twins(question).ptc) {
    const run = await ptc.run(text, { context, tools: fns, memory });
    if (run.ok) memory = run.memory;
    out.push(run.ok ? run.result : ptc.formatError(run.error));
  }
  return out;
}

/** Each turn's answer from python3 running the Python twin (the harness prints them as JSON). */
function runPython(question, data) {
  const job = JSON.stringify({ ...hostOf(question, data), turns: twins(question).python });
  const res = spawnSync("python3", [path.join(__dirname, "harness.py")], { input: job, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${question.id}.py failed: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

/** Tokens of each question's twins (all turns) with a counter (text -> number of tokens). */
function tokenRows(count) {
  return questions.map((question) => {
    const { ptc, python } = twins(question);
    const p = ptc.reduce((n, text) => n + count(text), 0);
    const y = python.reduce((n, text) => n + count(text), 0);
    return { id: question.id, ptc: p, python: y, ratio: Math.round((p / y) * 100) / 100 };
  });
}

module.exports = { questions, generate, twins, runPtc, runPython, sameAnswer, tokenRows };
