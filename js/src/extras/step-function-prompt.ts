// The system-prompt text that teaches a model step functions (the second
// dialect, docs/step-functions.md). The step kinds, operators and functions
// (shapes, descriptions, examples) come from the engine's step table; the prose
// around them states the rules a model must know. Full and compact forms.
import { toolInfos } from "../run/descriptors.js";
import { hasUpstreamTools, toolLines, UPSTREAM_NOTE } from "./prompt.js";
import type { WorkflowLanguage, WorkflowPromptOptions } from "../types/public.js";

const json = (v: unknown) => JSON.stringify(v);

const SHAPE =
  'Send {"functions": [<function>, ...], "input": {...}}. The entry is the last function (or "entry": name); ' +
  '"input" holds exactly its parameters. A function is {"function": "name", "input": {"param": "type"}, ' +
  '"output": "type", "steps": [<step>, ...]} ("input" optional). Types: number, text, bool, nil, "list T", ' +
  '"result T E" (output only: return {"ok": v} or {"error": e}); any other word is a named type (any value but ' +
  "null). Calls among your functions may not recurse. A workflow of one function may be sent as its steps " +
  'alone: {"steps": [...]} is the function "main" with output "any" (any value but null; "output": "type" ' +
  'beside the steps says another) and, when "input" is given, a parameter for each of its keys; "functions" ' +
  "beside it are functions it calls, and pointers in errors then name the request's keys (/steps/2).";

const INTRO = [
  "# Step functions",
  "",
  "You can answer by writing a step-function file instead of making many tool calls: functions whose steps call " +
    "tools and pass data between them. The host verifies the whole file first (every call target exists, every " +
    "reference is bound), then runs its steps in order; only the entry function's return value comes back to you.",
  "",
  SHAPE,
];

const INTRO_COMPACT = [
  "# Step functions",
  "",
  'Send {"steps": [...]} (one function returning anything but null; or add "output": "type") or ' +
    '{"functions": [{"function": "name", "input"?: {"param": "type"}, "output": "type", "steps": [...]}, ...], ' +
    '"input": {...}}: the last gives the result. Types: number, text, bool, nil, ' +
    '"list T", "result T E" (return {"ok": v} or {"error": e}), other words (not null).',
];

const VALUES_FULL = [
  "## Values",
  "",
  'Every value position (expr, args, return, if, match, in, yield) takes JSON. In strings, "$input.field" is a ' +
    'parameter, "$x" / "$x.field.0" a variable bound by an earlier step (a missing field or index is null), ' +
    '"$error" the failure\'s message inside on-error. A string that is exactly one reference is that value; in ' +
    'any other string references are replaced by their text ("Total: $sum"); "$$" is a "$". Lists and objects ' +
    'are evaluated member by member; {"$merge": [a, b]} merges objects, later keys winning.',
  "",
  "A variable is visible from the next step to the end of its block and inside blocks nested there; a variable " +
    'bound inside a for body is not visible after the loop (bind the loop\'s list with its "let").',
];

const VALUES_COMPACT = [
  'Values: JSON; "$input.p", "$x.field.0" (missing: null), "$error"; "Hi $name" interpolates; ' +
    '{"$merge": [a, b]} merges.',
];

const FAILURES_FULL = [
  "## Failures",
  "",
  'A failure is a tool that throws, a called function returning {"error": ...}, or a function that cannot ' +
    "compute its value (an invalid date, a text that is not a number). A call step's on-error catches a failure " +
    'of that call (or of a function in its args): {"compensate": [calls], "return": value} or {"continue": true} ' +
    '(in a loop: skip the item) or {"break": true} (end the loop). Compensations run in written order, one at ' +
    'a time, even when one fails; one may call a function of the file, and its "let" binds its result (null ' +
    'if it failed) for the later compensations and the return. "then": [steps] runs after them with $error ' +
    '(branch on it with an if, yield, call), and "yield": v (with "to"?: a state list) is its last step, one loop ' +
    'keeping its failures; with "then" or "yield" and no return/continue/break the failure is handled and ' +
    'the steps after the call run (its let is null). A call step\'s "undo": {"call", "args"} runs, newest first, ' +
    'when its function fails later (an uncaught failure, or a result function\'s {"error"}); its args are ' +
    'evaluated when the call succeeds. Uncaught, a failure propagates: a "result" ' +
    'function returns {"error": message}, others pass it to their caller\'s call step. A fault (wrong types, ' +
    "division by zero, no matching case, a return of the wrong type) ends the run. Not in the language: while, " +
    "try, calls inside expressions (bind the result with a call step first).",
  "",
  '- Dates are ISO 8601 texts ("2024-03-15", "2024-03-15T10:30:00Z", offsets like +02:00) or epoch seconds, ' +
    "in UTC; there is no clock. Texts compare by code points, so ISO dates order correctly.",
  '- Numbers stored as text: convert with $to_number ("98000" > 100000 is a fault).',
  "- Units, parts, formats, $format's template and $to_number's default are constants.",
];

const FAILURES_COMPACT = [
  'Failures (a throw, an {"error"} result) go to the call\'s on-error: {"compensate"?: [calls of tools or ' +
    'your functions, in order; "let" binds each, null if failed], "then"?: [steps], "yield"?: v, "return": v} ' +
    "or " +
    '{"continue"/"break": true} in a loop; else a "result" function returns {"error": msg}, others pass it up; ' +
    "faults end the run.",
];

const ERRORS_FULL = [
  "## Errors",
  "",
  'A failed run gives one line: "<Type> at <JSON Pointer>: <message>". The pointer treats the file as the list ' +
    "of functions: /1/steps/3/on-error/return. ValidationError: the file does not verify (unknown key, step " +
    "kind, operator or function, unbound reference, unknown call target, wrong arguments); nothing ran, the " +
    "message gives the fix. ExecutionError: a fault, or an unhandled failure at the entry. Timeout, " +
    "MemoryExceeded: it ran too long or held too much. Fix the node at the pointer and send the whole file again.",
];

const ERRORS_COMPACT = ["Errors: a JSON Pointer; ValidationError: nothing ran."];

// Complete files: each one runs (tests/js/agent-workflow.test.cjs).
const EXAMPLE_COMPACT = [
  "Example:",
  '{"steps": [{"for": "id", "in": ["t1", "t2"], "do": [' +
    '{"let": "t", "call": "get_ticket", "args": {"id": "$id"}, "on-error": {"continue": true}}, ' +
    '{"yield": "$t.closed_at"}]}]}',
];

const EXAMPLES_FULL = [
  "## Examples",
  "",
  "Each order's month and amount (stored as text), skipping orders whose lookup fails:",
  '{"functions": [{"function": "order-line", "input": {"id": "text"}, "output": "line", "steps": [' +
    '{"let": "o", "call": "get_order", "args": {"id": "$input.id"}}, ' +
    '{"return": {"id": "$input.id", "month": {"$date_trunc": ["$o.created_at", "month"]}, ' +
    '"amount": {"$to_number": ["$o.amount", 0]}}}]}, ' +
    '{"function": "lines", "input": {"ids": "list text"}, "output": "list line", "steps": [' +
    '{"for": "id", "in": "$input.ids", "do": [' +
    '{"let": "line", "call": "order-line", "args": {"id": "$id"}, "on-error": {"continue": true}}, ' +
    '{"yield": "$line"}]}]}], "input": {"ids": ["o1", "o2"]}}',
  "",
  "Book a room, and release it when the payment fails:",
  '{"functions": [{"function": "book", "input": {"room": "text", "amount": "number"}, ' +
    '"output": "result text text", "steps": [' +
    '{"let": "hold", "call": "reserve", "args": {"room": "$input.room"}}, ' +
    '{"call": "charge", "args": {"amount": "$input.amount"}, "on-error": {' +
    '"compensate": [{"call": "release", "args": {"hold": "$hold.id"}}], ' +
    '"return": {"error": "Payment failed: $error"}}}, ' +
    '{"return": {"ok": "Booked $input.room"}}]}], "input": {"room": "r1", "amount": 90}}',
  "",
  "Label a ticket by its priority, in upper case:",
  '{"functions": [{"function": "label", "input": {"priority": "text"}, "output": "text", "steps": [' +
    '{"let": "p", "expr": {"$lower": {"$trim": "$input.priority"}}}, ' +
    '{"let": "label", "match": "$p", "cases": {"high": "urgent", "low": "later", "_": "normal"}}, ' +
    '{"return": {"$upper": "$label"}}]}], "input": {"priority": " High "}}',
];

function stepsSection(language: WorkflowLanguage, compact: boolean): string[] {
  const lines = compact ? ["Steps:"] : ["## Steps", ""];
  if (!compact) lines.push('Each step is an object with these keys ("?": optional):', "");
  // Compact: the shape names the kind (its kind key); no section references.
  for (const kind of language.steps)
    lines.push(
      compact
        ? `- ${kind.shape}: ${kind.description.replace(/ \(§\d+\)/g, "")}`
        : `- ${kind.name} ${kind.shape}: ${kind.description}`,
    );
  if (compact) lines.push('A for runs its items in order; "parallel": true or N: concurrently.');
  else
    lines.push(
      "",
      "A function ends with return; one whose output is nil may end without it, and one whose last step is a for " +
        'without let returns the loop\'s list. In a result function every return is {"ok": ...} or ' +
        '{"error": ...} (elsewhere an object whose only key is "ok" or "error" is refused: give it another key). ' +
        'match keys the subject by its text (true is "true", 2 is "2"; null, lists and objects take "_").',
      "",
      "Tools run one at a time, in step order, with the evaluated args; a for runs its items in order. " +
        '"parallel": true (or a number, at most that many at once) runs a for\'s items concurrently, their yields ' +
        "kept in item order; it is refused on a body that can end the loop or the function (return, break).",
    );
  return lines;
}

function operatorsSection(language: WorkflowLanguage, compact: boolean): string[] {
  if (compact)
    return [
      `Operators {"+": [a, b]}, {"not": c}: ${language.operators.map((o) => o.key).join(" ")}; conditions bool or null.`,
    ];
  const lines = [
    '## Operators\n\nAn object with one key, the operator, whose value is the list of operands: {"+": ["$a", 1]}, ' +
      '{"not": "$user.verified"}.\n',
  ];
  for (const o of language.operators) lines.push(`- \`${o.key}\`: ${o.description}`);
  lines.push("", "Conditions (if, and, or, not) are bool, or null counting as false; anything else is a fault.");
  return lines;
}

function functionsSection(language: WorkflowLanguage, compact: boolean): string[] {
  if (compact) return compactFunctions(language);
  const lines = [
    compact
      ? ""
      : "## Functions\n\nThe text, date and conversion operations of PTC-JSON: an object with one key, the function, " +
        'whose value is the list of arguments, the value first ({"$upper": ["$name"]}; a single argument may be ' +
        "bare). A null value gives null (except $to_string, $format and the text tests). Shapes (`?`: optional):\n",
  ];
  for (const f of language.functions) {
    const args = f.shape.slice(f.key.length + 5, -1); // [<value>, ...]
    lines.push(
      compact
        ? `- ${f.key} ${args}: ${f.description}`
        : `- \`${f.shape}\`: ${f.description} Example: \`${json(f.example)}\``,
    );
  }
  return lines;
}

/**
 * The functions with their arguments after the value, a few tokens each: the
 * semantics are PTC-JSON's ops of the same name, and the note states what
 * models guessed at.
 */
function compactFunctions(language: WorkflowLanguage): string[] {
  const signature = (f: WorkflowLanguage["functions"][number]) => {
    const args = f.params.slice(1).map((p) => `${p.name}${p.required ? "" : "?"}`); // the value is first
    return args.length ? `${f.key}(${args.join(", ")})` : f.key;
  };
  // Each choice parameter's texts over all functions (a wrong one is a validation error listing the right ones).
  const names = ["unit"]; // parts and formats are plain words; a wrong one is an error listing them
  const choices = names
    .map((name) => {
      const texts = language.functions.flatMap((f) => f.params.find((p) => p.name === name)?.choices ?? []);
      return `${name} ${[...new Set(texts)].join("|")}`;
    })
    .join("; ");
  return [
    'Functions {"$name": [value, args]}, null in null out: ' +
      language.functions.map(signature).join(", ") +
      `. Texts: ${choices}. Dates: UTC; $date_diff fractional; $date_add/$date_trunc keep the kind.`,
  ];
}

function toolsSection(options: WorkflowPromptOptions, compact: boolean): string[] {
  const tools = toolInfos(options.tools);
  if (compact && !tools.length) return []; // the call step says what else it calls
  const lines = [
    compact
      ? 'Tools (call with {"let": "x", "call": name, "args": {...}}):'
      : '## Available tools\n\nCall a tool with a call step: {"let": "x", "call": "<name>", "args": {...}}. Its args ' +
        "must match its parameters, or the call fails before the tool runs.\n",
  ];
  if (!tools.length) lines.push("No tools are available: calls can only name functions of the file.");
  if (hasUpstreamTools(tools)) lines.push(UPSTREAM_NOTE);
  for (const tool of tools) lines.push(...toolLines(tool, compact, false));
  return lines;
}

/** The system-prompt text teaching step functions, generated from the engine's step table. */
export function workflowLanguagePrompt(language: WorkflowLanguage, options: WorkflowPromptOptions = {}): string {
  const compact = options.compact === true;
  const sections = [
    compact ? INTRO_COMPACT : INTRO,
    compact ? VALUES_COMPACT : VALUES_FULL,
    stepsSection(language, compact),
    operatorsSection(language, compact),
    functionsSection(language, compact),
    compact ? FAILURES_COMPACT : FAILURES_FULL,
    toolsSection(options, compact),
    compact ? ERRORS_COMPACT : ERRORS_FULL,
    compact ? EXAMPLE_COMPACT : EXAMPLES_FULL,
  ];
  return (
    sections
      .map((lines) => lines.join("\n"))
      .join("\n\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim() + "\n"
  );
}
