// The error codes: a stable, machine-readable reason beside each error's type,
// so that hosts and repair loops branch on `error.code` instead of message text.
// The engine's codes are its ErrorCode enum (engine/core/error.h; a test keeps
// the two lists equal); "package" codes come from this wrapper. docs/errors.md
// is generated from this table (scripts/gen-docs.mjs).

/** The five error types of the language spec. */
export type ErrorType = "parse_error" | "validation_error" | "execution_error" | "timeout" | "memory_exceeded";

export interface ErrorCodeInfo {
  code: string;
  /** The type(s) an error with this code has; "warning" for the codes of warnings. */
  types: readonly (ErrorType | "warning")[];
  /** Where the code comes from: the engine, or the package around it. */
  source: "engine" | "package";
  when: string;
  fix: string;
}

const P = "parse_error",
  V = "validation_error",
  E = "execution_error",
  W = "warning"; // not an error: a warning beside the result (RunSuccess.warnings)

function c(code: string, types: readonly (ErrorType | "warning")[], when: string, fix: string): ErrorCodeInfo {
  return { code, types, source: "engine", when, fix };
}

export const ERROR_CODES = [
  c(
    "json_syntax",
    [P, E],
    "The text is not valid JSON (`position` is the byte offset), or a text `parse_json` read is not.",
    "Fix the JSON at `position`; for `parse_json`, wrap it in `try` or fix the text.",
  ),
  c(
    "json_too_deep",
    [P, E],
    "JSON nested deeper than 1000 levels (or than values may nest, in `parse_json`).",
    "Send flatter data.",
  ),
  c(
    "not_an_object",
    [P, V],
    "The program, context, memory or a step-function file entry is not a JSON object.",
    'Send `{"program": {...}}`, objects for context and memory, function objects one after another.',
  ),
  c(
    "missing_program",
    [P],
    "The program envelope has no `program` key.",
    'Wrap the program: `{"program": {"op": ...}}`.',
  ),
  c("bad_row_block", [P], "A host sent a malformed row block (a host bug).", "Report it; programs never cause it."),
  c(
    "too_deep",
    [V],
    "The program nests operations (or steps) deeper than `maxDepth`.",
    "Flatten it with `pipe` or `let` (steps: split into functions).",
  ),
  c("unknown_op", [V], "`op` names no operation.", "Use the suggested name, or one of docs/operations.md."),
  c("unknown_field", [V], "An operation, step or function has a key it does not take.", "Remove or rename the key."),
  c("missing_field", [V], "A required field (or one of a pair) is missing.", "Add it; the message shows the shape."),
  c("conflicting_fields", [V], "Fields that exclude each other are given together.", "Keep one of them."),
  c(
    "wrong_kind",
    [V],
    "A field holds the wrong kind of JSON (a string for a list, a number out of its range, ...).",
    "Give the kind the message names.",
  ),
  c(
    "bad_value",
    [V],
    "A field has the right kind but a value it cannot take.",
    "Change the value as the message says.",
  ),
  c(
    "constant_predicate",
    [V],
    "A condition is a constant (always true or always false).",
    "Write a comparison operation instead.",
  ),
  c(
    "bare_string",
    [V],
    "A bare string stands where a computed value is expected (almost always a field name).",
    'Write `{"op": "get", "field": ...}` or `{"op": "literal", "value": ...}`.',
  ),
  c(
    "not_allowed_here",
    [V],
    "An operation or step where it cannot be (filter_in as a condition, a tool call inside group_by, a call inside an expression, continue/yield outside a for).",
    "Move it where the message says.",
  ),
  c("unknown_tool", [V], "A call names a tool (or function, or dep) the run does not have.", "Use an available name."),
  c("unknown_entry", [V], "The `entry` option names no function of the file.", "Use one of the listed functions."),
  c(
    "bad_option",
    [V],
    "The host's run options cannot be used: a limit is not a positive number, or the options text (limits, tool names, the tools' declared results) cannot be read. The host's configuration, never the program's.",
    "The host passes positive numbers, and JSON Schemas the package can send (it simplifies or drops a declared result over its bounds).",
  ),
  c("too_large", [V], "The program text is over 1 MiB.", "Pass large data as context, not in the program."),
  c("unknown_step", [V], "A step of a step function has no known kind.", "Use one of the step shapes listed."),
  c("bad_name", [V], "A function, parameter, bound or dep name is not a NAME, or is reserved.", "Rename it."),
  c("duplicate_name", [V], "Two functions (or deps) share a name.", "Rename or remove one."),
  c(
    "bad_type",
    [V],
    "A type string of a step function cannot be read.",
    'Write a type such as "number" or "list text".',
  ),
  c("unknown_argument", [V], "A call of a file function passes an argument it has no parameter for.", "Remove it."),
  c("missing_argument", [V], "A call of a file function leaves out one of its parameters.", "Pass it."),
  c("undeclared_dep", [V], 'A function with "deps" calls a name it does not list.', 'Add the name to "deps".'),
  c("unknown_operator", [V], "An expression uses an operator that does not exist.", "Use one of the operators listed."),
  c("bad_operands", [V], "An operator gets the wrong number or shape of operands.", "Give it the operands shown."),
  c(
    "unknown_variable",
    [V, E],
    "A `$name` (or `$input.x`, `$error`) is not bound where it is used: in a step function, at validation; in " +
      "PTC-JSON, when it runs, a reference that no binding, memory key or context key holds.",
    'Bind it first, or use one of the names the message lists; for a text starting with $ write {"op": "literal", ' +
      '"value": "$USD"}.',
  ),
  c("recursion", [V], "Functions call themselves, directly or through others.", "Rewrite the cycle as a for loop."),
  c("missing_return", [V], "A function's last step does not return its output type.", 'End it with `{"return": ...}`.'),
  c("no_function", [V], "The step-function file holds no function.", "Write one or more function objects."),
  c(
    "bad_input",
    [V],
    "The input of the entry function is not an object of its parameters (missing, extra or ill-typed).",
    "Pass the parameters the entry declares.",
  ),
  c(
    "type_mismatch",
    [V, E],
    "A value has the wrong type for what is done with it (a list expected, numbers required, a return of the wrong type, ...).",
    "Convert or reach the right value first; the message names what was got.",
  ),
  c(
    "text_not_number",
    [E],
    "A text was used (or read by to_number) as a number.",
    'Convert with `{"op": "to_number"}`, or fix the text.',
  ),
  c("division_by_zero", [E], "A division (or pct) by zero.", "Guard the divisor with `if`, or catch with `try`."),
  c("number_overflow", [E], "A result is too large to represent (not finite).", "Scale the numbers down."),
  c(
    "invalid_date",
    [E],
    "A value cannot be read as a date.",
    'Use ISO 8601 ("2024-03-15", "2024-03-15T10:30:00Z") or epoch seconds.',
  ),
  c("date_out_of_range", [E], "A date result falls outside the years 0000-9999.", "Keep dates within 0000-9999."),
  c(
    "bad_argument",
    [E],
    "An operand has the right type but an unusable value (a fractional index, an empty find, a bad format template).",
    "Fix the value as the message says.",
  ),
  c(
    "no_input",
    [E],
    "An operation reads the current value where there is none (the top of a program).",
    "Give it input first, e.g. a pipe starting with load.",
  ),
  c(
    "tool_failed",
    [E],
    "A tool threw (or returned a failure that nothing handled).",
    "Handle it: `try` (PTC-JSON) or on-error (step functions).",
  ),
  c(
    "unhandled_failure",
    [E],
    'A step function\'s `{"error": ...}` result reached a non-result entry unhandled.',
    "Handle it with on-error, or make the entry's output a result type.",
  ),
  c(
    "bad_tool_result",
    [E],
    "A tool returned data that is not JSON (a host fault, never caught).",
    "Fix the tool's host code.",
  ),
  c(
    "nesting_too_deep",
    [E],
    "A value built by the run would nest lists and objects more than 1000 levels.",
    "Build a flatter value.",
  ),
  c("step_limit", [E], "A step-function run would execute more than 100000 steps.", "Loop over fewer items."),
  c(
    "tool_call_limit",
    [E],
    "The run made more tool calls than `maxToolCalls` (no try or on-error catches it), or was given a `replay` recording longer than that.",
    "Call tools fewer times (one call for many items), or raise `maxToolCalls`.",
  ),
  c("no_match", [E], 'A match step has no case for its subject and no "_" case.', 'Add a case or a "_" default.'),
  c("aborted", [E], "The caller aborted the run (its AbortSignal).", "Nothing to fix in the program."),
  c("timeout", ["timeout"], "The run exceeded `timeoutMs`.", "Do less work, or raise `timeoutMs`."),
  c(
    "memory_exceeded",
    ["memory_exceeded"],
    "The run's values exceeded `maxHeapBytes` (or a resident context its `maxResidentBytes`).",
    "Select fewer fields, filter earlier, or raise `maxHeapBytes`.",
  ),
  c(
    "bad_host_call",
    [E],
    "A host used a run or prepared program it does not hold (a host bug).",
    "Report it; programs never cause it.",
  ),
  // Warnings: the run goes on as the language says; the result carries them.
  c(
    "unknown_context_key",
    [W],
    "A `load` of a key the context does not have (it reads null). validate/analyze given `context` or `contextKeys` say it too.",
    "Load one of the keys the message lists (it suggests the nearest).",
  ),
  c(
    "unknown_memory_key",
    [W],
    "A `var` of a name no `let` or `as` binds and memory does not hold (it reads null).",
    "Use one of the names the message lists, or bind it first.",
  ),
  c(
    "field_not_found",
    [W],
    "A node read a field (or `get` a path) that no object it read has: a misspelt field of a list's items or of a tool's result.",
    "Use one of the fields the message lists (it suggests the nearest).",
  ),
  c(
    "dotted_field",
    [W],
    'A field name with a dot (`"customer.tier"`) that no object has, where the objects have the first part.',
    'Read nested fields with `{"op": "get", "path": ["customer", "tier"]}`.',
  ),
  c(
    "field_of_list",
    [W],
    "A `get` of a field of a list (a list has no fields; it reads null).",
    'Map over the items (`{"op": "map", "expr": {"op": "get", "field": ...}}`) or take one first (`first`).',
  ),
  c(
    "unknown_result_field",
    [W],
    "A program reads a field of a tool's result (or of its items) that the tool's declared `returns` (MCP `outputSchema`) does not list. validate/analyze given the tools say it before running.",
    "Read one of the fields the message lists (it suggests the nearest), or declare the field in the tool's `returns`.",
  ),
  c(
    "doubled_program",
    [W],
    'The program is wrapped twice: `{"program": {"program": {...}}}` returns its result as `{"program": ...}`.',
    'Write `{"program": {"op": ...}}` with one `program` key.',
  ),
  c(
    "result_stored",
    [W],
    'A one-shot run (`singleTurn: true`; the CLI without `--memory-out`) returned `{"result": ..., "other": ...}`: only `result` is returned, the other keys went to memory (the memory contract), which nothing reads after it.',
    'Put everything to return inside `result`: `{"result": {...}}`.',
  ),
  c("internal", [E], "A bug in the engine.", "Report it with the program."),
  {
    code: "not_json",
    types: [P, E],
    source: "package",
    when: "The program object, context, memory or input given to the package is not JSON data (a cycle, a BigInt, ...).",
    fix: "Pass JSON-compatible data.",
  },
  {
    code: "engine_crashed",
    types: [E],
    source: "package",
    when: "The engine instance (or its worker) failed or was restarted while running this program.",
    fix: "Run it again; report it if it repeats.",
  },
  {
    code: "resident_closed",
    types: [E],
    source: "package",
    when: "The run was given a resident context (`runtime.load`) that was closed.",
    fix: "Load the data again with `runtime.load` and pass the new resident context.",
  },
  {
    code: "suspended",
    types: [E],
    source: "package",
    when: 'The run stopped at tool calls held for the host (an approval, a deferred tool, `suspend: true`); the result has `status: "suspended"`, `pending` and `state`.',
    fix: "Decide the pending calls and call `runtime.resume(state, { results, tools })`.",
  },
  {
    code: "write_unconfirmed",
    types: [E],
    source: "package",
    when: "A call of a write tool gave no answer within `toolTimeoutMs` and was abandoned while it ran: it may have completed. The run ends (no try or on-error catches it, so nothing retries it as if it had failed); `error.unconfirmed` holds its `{ tool, path, runId, callId }`, the identity its tool was given.",
    fix: "Check whether the write landed (by its runId and callId) before making it again; raise toolTimeoutMs if the tool is merely slow.",
  },
  {
    code: "replay_missing",
    types: [E],
    source: "package",
    when: "A run replaying a recording (`replay`) made a tool call the recording does not hold (no try or on-error catches it).",
    fix: "Record the run again with the tool, or replay a program that asks what was recorded.",
  },
  {
    code: "bad_state",
    types: [E],
    source: "package",
    when: "`resume` got a state that is not a suspended run's, was written by another ptc-wasm version, is malformed or longer than its `maxToolCalls`, whose program was changed, or whose `mac` does not match the `stateKey` given (or is missing).",
    fix: "Pass the `state` of a suspended result unchanged, to the same version, with the `stateKey` it was written with; else run the program again.",
  },
  {
    code: "bad_resume",
    types: [E],
    source: "package",
    when: "`resume` got results for calls that are not pending, results of the wrong shape, a context other than the run's, or a `runId` other than the state's.",
    fix: "Answer the state's `pending` ids with `{ value }`, `{ error }` or `{ approved }`, and pass the same context (and no runId, or the state's).",
  },
  {
    code: "bad_run_id",
    types: [V],
    source: "package",
    when: "The `runId` option of run() or runWorkflow() is not 1 to 128 characters of printable ASCII without spaces (`!` to `~`); nothing ran.",
    fix: 'Pass an id such as a job\'s ("job-42"), or leave `runId` out for a new random one.',
  },
  {
    code: "shadowed_memory",
    types: [W],
    source: "package",
    when: 'A session (MCP `run_program`, `ptcTool`) ran a program with a context given with that call holding a key its memory also holds: the context given now wins (`"$key"` reads it), and the memory keeps its value for later programs.',
    fix: "Nothing if the context was meant; else give the context another key, or read the memory's value in a later program.",
  },
  {
    code: "read_only_program",
    types: [V],
    source: "package",
    when: "MCP `run_program` got a program that calls a tool that writes, where the server offers such programs as `run_program_writes` (so that `run_program` is read-only for the host); nothing ran.",
    fix: "Send the same program to `run_program_writes`, whose calls that need approval are asked for one by one.",
  },
  {
    code: "held_for_approval",
    types: [E],
    source: "package",
    when: "An agent tool (`ptcTool`, `ptcToolCaller`; MCP `resume_program` in `_meta.code`) resumed a program after a person's decisions and it stopped again at further calls held for approval (a second round). Not a failure: the output's `input` holds the held calls and a new signed state.",
    fix: "Send `input` back unchanged as the tool's next call; the approval request for the new calls comes with it.",
  },
  {
    code: "write_not_compensated",
    types: [W],
    source: "package",
    when: "`validateWorkflow()` given `tools` found a write tool's call that a later step may fail after, with nothing rolling the write back (`path` is the call's step, `tool` the write tool).",
    fix: 'Give the later step `"on-error": {"compensate": [...]}` with a call that undoes the write.',
  },
] as const satisfies readonly ErrorCodeInfo[];

/** The code of an error: see docs/errors.md. */
export type ErrorCode = (typeof ERROR_CODES)[number]["code"];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES.map((e) => e.code));

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && KNOWN.has(code);
}
