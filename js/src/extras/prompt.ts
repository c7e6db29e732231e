// The system-prompt text that teaches a model PTC-JSON. The operations (shapes,
// descriptions, fields, examples, which ones read the current value) come from
// the engine's op table; the prose around them states the semantics a model most
// often gets wrong. Two forms: full, and compact for small context windows.
import { toolInfos, type ToolInfo } from "../run/descriptors.js";
import { typeOf } from "../run/signature.js";
import type { JsonObject, Operation, PromptOptions } from "../types/public.js";
import { escapeControls, shownJson } from "../util/shown-text.js";

const json = (v: unknown) => JSON.stringify(v);

/**
 * The MCP server of a tool named "<server>.<tool>" (an upstream's, from
 * mcpTools; the describe_tools catalog reads such names the same way). Not
 * the entries the MCP server's prompts list per server ("memory.<tool>": the
 * gateway's own text).
 */
const upstreamOf = (name: string): string | undefined => {
  const dot = name.indexOf(".");
  return dot > 0 && /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name) ? name.slice(0, dot) : undefined;
};

/**
 * What the prompts say before the tools when some are an upstream MCP
 * server's: whose text the quoted descriptions are. An upstream's text must not
 * read as the host's instructions (issue 40): it is quoted and escaped as a JSON
 * string, so no newline or quote in it can start a line or a note of its own.
 */
export const UPSTREAM_NOTE =
  'A tool named "<server>.<tool>" is an MCP server\'s: its description is quoted as the server wrote it.';

export const hasUpstreamTools = (tools: ToolInfo[]): boolean => tools.some((t) => upstreamOf(t.name) !== undefined);

/**
 * A tool's lines in a prompt's tool list: compact, its signature and
 * description on one line; full, its name and description, then its
 * parameters' schema. An upstream server's description is quoted (full: and
 * marked as the server's), as describe_tools shows it.
 */
export function toolLines(tool: ToolInfo, compact: boolean, withReturns = true): string[] {
  const server = upstreamOf(tool.name);
  const text = tool.description;
  const quoted = text && server !== undefined ? shownJson(text.replace(/\s+/g, " ").trim()) : text;
  if (compact) return [`- ${signature(tool)}${quoted ? `: ${quoted}` : ""}`];
  const described = server !== undefined && quoted ? `described by MCP server '${server}': ${quoted}` : quoted;
  const lines = [`- \`${tool.name}\`: ${described ?? "(no description)"}`];
  // An upstream's schema is JSON (its texts quoted); its control characters escaped too.
  const shown = (v: unknown) => (server === undefined ? json(v) : escapeControls(json(v)));
  if (tool.parameters) lines.push(`  Parameters (JSON Schema): ${shown(tool.parameters)}`);
  if (withReturns && tool.returns) lines.push(`  Returns: ${typeOf(tool.returns)}`);
  return lines;
}

function typeSummary(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) {
    const objects = value.filter((x) => x !== null && typeof x === "object" && !Array.isArray(x));
    if (value.length && objects.length === value.length) {
      const keys = [...new Set(objects.flatMap((o) => Object.keys(o as object)))].slice(0, 12);
      return `list of ${value.length} objects with keys ${keys.join(", ")}`;
    }
    return `list of ${value.length}`;
  }
  if (typeof value === "object") {
    const keys = Object.keys(value);
    return `object with keys ${keys.slice(0, 12).join(", ")}${keys.length > 12 ? ", ..." : ""}`;
  }
  return typeof value;
}

/** A one-line signature of a tool from its parameters schema: `search(query: string, limit?: integer)`. */
export function signature(tool: ToolInfo): string {
  const props = tool.parameters?.properties as JsonObject | undefined;
  if (!props) return (tool.parameters ? `${tool.name}(args: see schema)` : tool.name) + returnsText(tool);
  const required = new Set((tool.parameters?.required as string[] | undefined) ?? []);
  const params = Object.entries(props).map(
    ([name, s]) => `${name}${required.has(name) ? "" : "?"}: ${typeText(s as JsonObject)}`,
  );
  return `${tool.name}(${params.join(", ")})${returnsText(tool)}`;
}

// The result's fields (a descriptor's `returns`), so that a program reads fields it has.
const returnsText = (tool: ToolInfo) => (tool.returns ? ` -> ${typeOf(tool.returns)}` : "");

function typeText(s: JsonObject | undefined): string {
  if (!s || typeof s !== "object") return "any";
  if (Array.isArray(s.enum)) return s.enum.map((v) => json(v)).join("|");
  if ("const" in s) return json(s.const);
  if (s.type === "array") return `${typeText(s.items as JsonObject)}[]`;
  if (Array.isArray(s.type)) return s.type.join("|");
  if (typeof s.type === "string") return s.type;
  return "any";
}

function toolsSection(tools: ToolInfo[], compact: boolean): string[] {
  const lines = [compact ? "Tools:" : "## Available tools", ""];
  if (!compact)
    lines.push(
      "A call's `args` is an implicit object evaluated against the current value, so a call inside `map` can pass " +
        "a field of each item. Args must match the tool's parameters, or the call fails before the tool runs. A tool's " +
        "result is data like any other; a failed call ends the program unless `try` catches it.",
      "",
    );
  if (!tools.length) lines.push("No tools are available: `call` cannot be used.");
  if (hasUpstreamTools(tools)) lines.push(UPSTREAM_NOTE);
  for (const tool of tools) lines.push(...toolLines(tool, compact));
  return lines;
}

function contextSection(context: Record<string, unknown> | undefined, compact: boolean): string[] {
  if (!context || !Object.keys(context).length) return [];
  const lines = [compact ? "Context data (read with load):" : "## Context data", ""];
  if (!compact) lines.push('Read these with {"op": "load", "name": "<key>"}:', "");
  for (const [key, value] of Object.entries(context)) lines.push(`- \`${key}\`: ${typeSummary(value)}`);
  return lines;
}

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A value-level op: reads the current value, or its `field`, or its `value` expression instead. */
const isValueOp = (op: Operation) =>
  op.fields[0]?.name === "field" && op.fields[1]?.name === "value" && op.fields[1].presence === "optional";

/**
 * The fields the aggregates share, `where` and `expr` (a filter and a map
 * before the op: the engine's short form), listed once in their category's
 * heading (ITEMS_NOTE), not in each op's list. Known by sum's, whose entries
 * the engine builds from one declaration; count's `where` stays in its list.
 */
function isSharedItemsField(ops: Operation[], op: Operation, field: Operation["fields"][number]): boolean {
  const sum = ops.find((o) => o.name === "sum");
  return (
    op.category === "aggregation" &&
    sum?.fields.some((f) => (f.name === "where" || f.name === "expr") && f.description === field.description) === true
  );
}

const ITEMS_NOTE_COMPACT = " (+ where?, expr?)";
const ITEMS_NOTE_FULL =
  "These but `min_by`, `max_by` also take `where` (only the items it holds for) and `expr` (each item's value, " +
  "instead of `field`), as `count` takes `where`.";

/** The compact shape: without the op name, and for value-level ops without their `field`/`value` prefix. */
function compactShape(op: Operation): string {
  let shape = op.shape.replace(`"op": "${op.name}", `, "").replace(`{"op": "${op.name}"}`, "{}");
  if (isValueOp(op)) shape = shape.replace(/^\{\["field": "<field>"\], \["value": <expr>\](, )?/, "{");
  if (op.category === "aggregation") shape = shape.replace(/(, )?\["expr": <expr>\], \["where": <expr>\]/, "");
  return shape.replace(', ["as": "<name>"]', ""); // the intro says which ops take "as"
}

const mark = (op: Operation) => (isValueOp(op) ? "°" : op.readsInput ? "*" : "");

/**
 * An op's fields as the compact prompt lists them after its name: "?" when
 * optional, `a|b` for exactly one of, the allowed texts of a choice separated
 * by spaces when they are words (a "|" costs a token each): `date_diff°(to, unit: second minute hour
 * day week)`. A few tokens an op, so the list stays within budget as the table
 * grows; the rest is one describe_language query away.
 */
function compactFields(op: Operation, ops: Operation[]): string {
  const oneOf = op.fields.filter((f) => f.presence === "one_of").map((f) => f.name);
  // A keyed form's field first: the intro says its key holds the first field.
  const fields = [...op.fields]
    .sort((a, b) => Number(b.name === op.keyed) - Number(a.name === op.keyed))
    .filter((f) => f.name !== "as" && !(isValueOp(op) && (f.name === "field" || f.name === "value")))
    .filter((f) => !isSharedItemsField(ops, op, f))
    .filter((f) => f.presence !== "one_of" || f.name === oneOf[0])
    .map((f) => {
      if (f.presence === "one_of") return oneOf.join("|");
      // Units: one line (unitsLine). Choices that are not words (decimal's "." and ",") keep "|" to stay readable.
      const sep = f.choices?.every((c) => /^\w+$/.test(c)) ? " " : "|";
      const choices = f.choices && f.name !== "unit" ? `: ${f.choices.join(sep)}` : "";
      return `${f.name}${f.presence === "optional" ? "?" : ""}${choices || KIND_HINTS[f.kind] || ""}`;
    });
  return `${mark(op)}${fields.length ? `(${fields.join(", ")})` : ""}`;
}

/** What models guessed at in a field's kind (issue 35): the scale of p, the method names, loop's bound, by's shape. */
const KIND_HINTS: Partial<Record<string, string>> = {
  percent: ": 0-100",
  percentile_method: ": linear|nearest",
  iterations: ": 1-1000",
  sort_keys: ': ["a", "-b"]',
};

/**
 * A family's ops, those with the same fields written once, their names
 * separated by spaces (fewer tokens than "/"): `eq neq gt*(field?, value)`.
 */
function compactFamily(ops: Operation[], all: Operation[]): string {
  const bySignature = new Map<string, string[]>();
  for (const op of ops) {
    const fields = compactFields(op, all);
    bySignature.set(fields, [...(bySignature.get(fields) ?? []), op.name]);
  }
  return [...bySignature].map(([fields, names]) => `${names.join(" ")}${fields}`).join(", ");
}

/** An op in full: shape, description, each field, the example (the full prompt lists shape and description only). */
export function operationEntry(op: Operation): string[] {
  const oneOf = op.fields.filter((f) => f.presence === "one_of").map((f) => f.name);
  const exactlyOne = oneOf.length ? ` Exactly one of ${oneOf.join(", ")}.` : "";
  return [
    `- **${op.name}**${op.readsInput ? "*" : ""} \`${op.shape}\`: ${op.description}${exactlyOne}`,
    ...(op.keyedShape ? [`  - Keyed form: \`${op.keyedShape}\``] : []),
    ...op.fields.map(
      (f) =>
        `  - \`${f.name}\` (${f.presence === "one_of" ? `one of ${oneOf.join("/")}` : f.presence}): ${f.description}`,
    ),
    `  - Example: \`${json(op.example)}\``,
  ];
}

/** The `unit` texts of every op, once (each op's own are in its error and in describe_language). */
function unitsLine(ops: Operation[]): string {
  const units = ops.flatMap((op) => op.fields.find((f) => f.name === "unit")?.choices ?? []);
  return `unit: ${[...new Set(units)].join("|")}`; // each op's own: its error and describe_language
}

function operationsSection(ops: Operation[], compact: boolean): string[] {
  const categories = [...new Set(ops.map((o) => o.category))];
  if (compact)
    return [
      "## Operations (? optional; *: reads the current value; °: the current value, its field or value: <expr>)",
      "",
      ...categories.map(
        (category) =>
          `${category}${category === "aggregation" ? ITEMS_NOTE_COMPACT : ""}: ` +
          compactFamily(
            ops.filter((o) => o.category === category),
            ops,
          ),
      ),
      unitsLine(ops),
      "",
    ];
  const lines = [
    "## Operations",
    "",
    "Each operation with its shape (`[...]` marks an optional field; * and ° as above) and what it does.",
    "",
  ];
  for (const category of categories) {
    lines.push(`### ${capitalized(category)}`, "", ...(category === "aggregation" ? [ITEMS_NOTE_FULL, ""] : []));
    for (const op of ops.filter((o) => o.category === category)) {
      const oneOf = op.fields.filter((f) => f.presence === "one_of").map((f) => f.name);
      const exactlyOne = oneOf.length ? ` Exactly one of ${oneOf.join(", ")}.` : "";
      lines.push(`- ${op.name}${mark(op)} \`${compactShape(op)}\`: ${op.description}${exactlyOne}`);
    }
    lines.push("");
  }
  return lines;
}

/** What a reference string is (the full prompt's expression positions, describe_language "references"). */
export const REFERENCES =
  'a text that reads a value: "$_" is the current value and "$_.a.b" a field (or path) of it; "$name" is the ' +
  "let or `as` binding of that name, else the memory key, else the context key (an error when none holds it), " +
  'and "$name.a.b" a field or path inside it ("$v.0": a list position; "$orders.*.id": the id of every item). ' +
  'So "$_.amount" is {"op": "get", "field": "amount"} and "$orders" ' +
  "is the context's orders. Only a text starting with $ and a letter or _ is one; write such a text meant " +
  'literally as {"op": "literal", "value": "$USD"}';

/** The ops with a keyed form (the op table's column), as the intros name them: "let pipe if call ...". */
const keyedNames = (ops: Operation[], withFields = false) =>
  ops
    .filter((op) => op.keyed)
    .map((op) => (withFields ? `${op.name} (${op.keyed})` : op.name))
    .join(withFields ? ", " : " ");

// The prose. Op names in it are ones the spec defines; the op list itself comes from the table.
const introFull = (ops: Operation[]) => [
  "# PTC-JSON",
  "",
  "You can answer by writing one PTC-JSON program instead of making many tool calls. The host runs it in a " +
    "sandbox against its data and tools, and only the program's final value comes back to you. So load, call, " +
    "filter, join and aggregate inside the program, and return just what you need.",
  "",
  "## Programs",
  "",
  'A program is JSON: {"program": <expression>}. An operation is an object with an "op" key and that ' +
    "operation's fields (no others). Fields shown as <expr> (and the items of [<expr>, ...]) are expression " +
    "positions; they accept:",
  `- an operation: {"op": ...}, or keyed: an object whose first key is ${keyedNames(ops, true)} is that op, ` +
    'the key holding that field, its other keys the others: {"pipe": [step, ...]}, {"call": "t", "args": {...}} ' +
    "(data with such a first key: literal)",
  '- an implicit object: an object without "op" builds that object; operations in it are evaluated at any ' +
    "depth, everything else is literal data",
  `- a reference, ${REFERENCES}`,
  '- a list: evaluated item by item (so ["$_.k", 1] builds a pair)',
  '- any other JSON value, taken literally ("$", "$5", "a@b.c" are texts); data holding "op" keys goes in ' +
    '{"op": "literal", "value": ...}.',
  "A bare string where a value is computed (a pipe step, a let value, a map expr) is rejected: write " +
    '"$_.x" for a field or {"op": "literal", "value": "x"} for the text. A condition ' +
    "(where, condition, conditions) is an operation, a reference or an equality map " +
    '{"status": "open", "n": 1} (fields equal to texts, numbers, booleans, null or references), never a constant.',
  "",
  "## The current value",
  "",
  "- Operations marked * read the current value (their input). At the top of a program there is none: start " +
    'from a reference ("$orders": a context key or memory key), `call` (a tool) or `literal`.',
  "- Inside `filter`/`reject` (`where`) and `map` (`expr`), the current value is each item in turn.",
  "- Comparison operations read `field` of the current item, or the item itself " +
    "when `field` is omitted or null. Their `value` may be an expression: it is evaluated against the item of the " +
    "innermost enclosing `map` (outside any map, against the comparison's own input); `left` computes the left " +
    "side instead of `field`. Join two lists with `lookup`.",
  '- `let` binds `name` to `value` (or each of `bindings`, {"a": <expr>, "b": <expr>}, in order, each seeing the ' +
    'earlier ones) for its `in` expression; "$name" reads it ("$name.a.b": inside it).',
  "- `filter`, `reject`, `map`, `flat_map`, `group_by` and `loop` take `as`: the item is also bound to that name, so " +
    'an expression nested anywhere inside can read it ("$p"). Comparing two fields of one row: {"op": "filter", ' +
    '"where": {"op": "lt", "field": "qty", "value": "$_.reorder_level"}}.',
  "- Operations marked ° (text, dates, conversions) read the current value, or its `field`, or their `value` " +
    "expression instead (then they need no current value).",
  '- `get` on a missing key or a non-object gives null; `load` and `var` of a missing name give null ("$name" ' +
    "of one is an error).",
  "",
  "## Values",
  "",
  '- Truthiness: only null and false are falsy; 0, "", [] and {} are truthy (filter, reject, if, and, or, not).',
  "- Integers stay integers (1 + 2 is 3); `div` and `pct` return floats; use `round` for fewer decimals.",
  "- Numbers stored as text: convert with `to_number` (an unparsable text is an error unless `default` is given); " +
    'money and grouped digits ("$1,234.50") need `decimal`: "." (or "," for "1.234,50 €").',
  '- Dates are ISO 8601 texts ("2024-03-15", "2024-03-15T10:30:00Z", offsets like +02:00) or epoch seconds, ' +
    "all in UTC; there is no clock. An invalid date is an error.",
  "- Not available: regular expressions, a current date or time, randomness, recursion, loops without a bound.",
  "- gt/gte/lt/lte with null on either side are false; min, max, sum skip nulls; sort_by puts nulls last. " +
    "`avg` skips anything that is not a number.",
  '- A number never orders against a text ("98000" vs 100000 is an error): convert with `to_number` first. ' +
    'Texts compare by code points, so ISO dates ("2024-03-01T09:00:00Z") order correctly.',
  "",
  "## Memory between programs",
  "",
  "A final value that is not an object is returned, memory unchanged; an object is returned and each key " +
    'stored; with a "result" key only "result" is returned and the other keys are stored. A later program ' +
    'reads a stored key as "$<key>": keep large data there and return a summary; {"result": <object>} returns ' +
    "an object without storing it.",
  "",
];

const introCompact = (ops: Operation[]) => [
  "# PTC-JSON",
  "",
  "Only a program's final value comes back: keep it small.",
  "",
  '- A program is {"program": <expr>}; an operation is {"op": name, ...its fields (no others)}; ' +
    `${keyedNames(ops)} also {name: first field, ...}. <expr>: an ` +
    'operation, reference, implicit object (no "op") or list (evaluated at any depth), other JSON literal. ' +
    'Conditions: an operation, reference or equality map {"tier": "gold", "n": 1} (all equal).',
  '- References: "$_" the current value, "$_.a.b" a path in it; "$name" a let or as binding, else memory key, ' +
    'else context key; "$name.a" inside it, "$v.0", "$v.-1" positions, "$v.*.a" a of every item. Literal "$USD": ' +
    '{"op": "literal", "value": "$USD"}.',
  '- pipe: each step gets the previous result; the first: "$name", call or literal. ' +
    "In where/expr the current value is each item; as: name also binds it (ops over items, loop).",
  "- Comparisons read `field` of the current item (none: the item); an expression `value` sees the innermost " +
    "map's item (none: that item), also in a filter nested in it: a join.",
  "- Only null and false are falsy; missing fields give null; gt/lt with null are false; sum/min/max skip nulls; " +
    "number vs text is an error (to_number). Texts (ISO dates too) compare by code points: min/max work on texts. " +
    "Dates: ISO texts or epoch seconds, UTC. No regex, clock or randomness.",
  "- date_diff is fractional when not whole (1.5 hours). to_number passes numbers through. date_add/date_trunc " +
    "return the input's kind: UTC text (2024-03-01 when whole days) or epoch seconds. loop returns every result, " +
    "the one its while rejected last. group_by, from_entries and scan may not call tools; map calls them " +
    'concurrently; catch sees "$error.detail" (a tool\'s message), "$error.tries" after retry (as: the try).',
  "- Memory: a final object's keys are stored; with a result key only result is returned.",
  "",
];

const ERRORS_FULL = [
  "## Errors",
  "",
  'A failed program gives one line: "<Type> at <JSON Pointer>: <message>", e.g. "ValidationError at ' +
    "/program/steps/1: Unknown operation 'filer'. Did you mean 'filter'?\". The pointer locates the node in your " +
    "program. Fix that node (the message gives the did-you-mean and the operation's correct shape) and send the " +
    "whole program again.",
  '- ParseError: the text is not JSON, or not {"program": {...}} (`at position N` is the byte offset).',
  "- ValidationError: the program is malformed: unknown operation or field, missing field, field of the wrong " +
    "kind, unknown tool, nesting too deep. Nothing ran.",
  "- ExecutionError: it failed while running: no current value, wrong input type (e.g. filter on an object), " +
    "non-numeric arithmetic, division by zero, a tool failed or got invalid args.",
  "- Timeout: it ran too long. MemoryExceeded: it held too much data. Filter, select and take earlier.",
  "",
  "## Common mistakes",
  "",
  '- {"op": "count"} alone fails (no current value): {"pipe": ["$orders", {"op": "count"}]}.',
  "- A list of steps where one expression is expected: wrap the steps in `pipe`.",
  "- `if` needs `then` and `else`.",
  "- `field` names a field (a string); it is not an expression. To compute a value, use `get` or an operation in `value`.",
  "- `sum`, `avg`, `min`, `max` return a number (or value); `min_by`/`max_by` return the whole item.",
  '- "result" is reserved at the top of the final object; name stored keys something else.',
  "",
];

const ERRORS_COMPACT = [
  'Errors: "ParseError|ValidationError (nothing ran)|ExecutionError|Timeout|MemoryExceeded at <JSON Pointer>: ' +
    '<message>": fix that node, resend.',
  "",
];

const EXAMPLES_FULL = [
  "## Examples",
  "",
  "Total of the travel expenses:",
  '{"program":{"pipe":["$expenses",{"op":"filter","where":{"category":"travel"}},' + '{"op":"sum","field":"amount"}]}}',
  "",
  "Each order with its customer's name (a join), the three largest first:",
  '{"program":{"pipe":["$orders",{"op":"sort_by","field":"-total"},' +
    '{"op":"take","count":3},{"op":"map","expr":{"id":"$_.id","total":"$_.total","customer":' +
    '{"op":"lookup","field":"user_id","in":"$users","key":"id","get":"name"}}}]}}',
  "",
  "Return a count and keep the matching rows in memory as big_orders:",
  '{"program":{"pipe":["$orders",{"op":"filter","where":{"op":"gt","field":"total",' +
    '"value":100}},{"result":{"op":"count"},"big_orders":"$_"}]}}',
  "",
  "A later program uses it:",
  '{"program":{"pipe":["$big_orders",{"op":"avg","field":"total"}]}}',
  "",
  "Total and count per region, largest first (replaces a filter per key):",
  '{"program":{"pipe":["$sales",{"op":"group_by","field":"region","aggs":{"total":' +
    '{"op":"sum","field":"amount"},"n":{"op":"count"}}},{"op":"sort_by","field":"-total"}]}}',
  "",
  "All pages of a paginated tool, then every item with a numeric-text price over 100:",
  '{"program":{"pipe":[{"op":"loop","init":{"call":"list_items","args":' +
    '{"page":1}},"while":"$_.next_page","next":{"call":"list_items","args":{"page":' +
    '"$_.next_page"}},"max":50},{"op":"flat_map","expr":"$_.items"},{"op":"filter","where":' +
    '{"op":"gt","left":{"op":"to_number","field":"price"},"value":100}}]}}',
  "",
];

// A paginated tool, the shape models most often get wrong (the full prompt has
// more examples; per-group totals are in the notes: group_by with aggs).
const EXAMPLE_COMPACT = [
  'All pages: {"program":{"op":"loop","init":{"call":"list","args":{"page":1}},' +
    '"while":"$_.next","next":{"call":"list","args":{"page":"$_.next"}},"max":20}}',
];

// What the op names alone leave open, for the ops models most often misread
// (the full prompt and describe_language give every op's description).
const OPS_NOTES_COMPACT = [
  "Notes: `contains`: list member, substring or object key; `in`: the field is a list holding value; filter_in: " +
    "items whose field is in a list; group_by gives [{key, items}], with aggs [{key, <agg>...}] over each group; " +
    "slice and range end are exclusive (slice: negative from the end), date_range's to included; format fills " +
    "{field}, {id:06}, {x:.2f}; div, pct give floats; sort_by: " +
    '"-a" descending, nulls last; min_by/max_by give the item; scan\'s expr sees "$acc".',
  "",
];

/** The system-prompt text teaching PTC-JSON, generated from the op table. */
export function languagePrompt(ops: Operation[], options: PromptOptions = {}): string {
  const compact = options.compact === true;
  const tools = toolInfos(options.tools);
  const lines = [
    ...(compact ? introCompact(ops) : introFull(ops)),
    ...operationsSection(ops, compact),
    ...(compact ? OPS_NOTES_COMPACT : []),
    ...(options.describeTool
      ? [`An op's fields and example, a family, an error code: ${options.describeTool} {"topic": "date_diff"}.`, ""]
      : []),
    ...(compact
      ? []
      : [
          'Implicit objects: {"total": {"op": "sum", "field": "amount"}, "source": "orders"} ' +
            'builds {"total": <the sum>, "source": "orders"}.',
          "",
        ]),
    ...toolsSection(tools, compact),
    "",
    ...contextSection(options.context, compact),
    ...(options.context && Object.keys(options.context).length ? [""] : []),
    ...(compact ? ERRORS_COMPACT : ERRORS_FULL),
    ...(compact ? EXAMPLE_COMPACT : EXAMPLES_FULL),
  ];
  return (
    lines
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim() + "\n"
  );
}
