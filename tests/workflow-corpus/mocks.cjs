// The stateful mock tools of the workflow corpus, interpreted from their JSON
// description (workflows.json). harness.py interprets the same description
// the same way for the Python twins, so the two sides cannot drift; README.md
// states the rules both follow.
"use strict";

/** A tool's description in a situation: the workflow's, with the situation's keys over it. */
function toolSpecs(workflow, situation) {
  const specs = {};
  for (const [name, spec] of Object.entries(workflow.tools)) specs[name] = { ...spec, ...situation.tools?.[name] };
  return specs;
}

/** A value as text inside a template: texts as they are, numbers as JS writes them, others as JSON. */
function asText(value) {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return JSON.stringify(value ?? null);
}

/** A template with "{arg}" (the call's argument; alone: its value) and "{#}" (this tool's call number). */
function fill(template, args, n) {
  const get = (name) => (name === "#" ? n : (args[name] ?? null));
  if (typeof template === "string") {
    const whole = /^\{([\w#]+)\}$/.exec(template);
    if (whole) return get(whole[1]);
    return template.replace(/\{([\w#]+)\}/g, (_, name) => asText(get(name)));
  }
  if (Array.isArray(template)) return template.map((t) => fill(t, args, n));
  if (template !== null && typeof template === "object")
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, args, n)]));
  return template ?? null;
}

/** Structural equality of JSON values (numbers by value). */
function same(a, b) {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

/** Does a rule apply to this call (its "when" arguments equal, its "call" numbers holding n)? */
function applies(rule, args, n) {
  if (rule.when && !Object.entries(rule.when).every(([k, v]) => same(args[k] ?? null, v))) return false;
  if (rule.call !== undefined && ![rule.call].flat().includes(n)) return false;
  return true;
}

/**
 * The world of one situation: `tools` (async functions, as a host gives them)
 * and `effects`, the log of what they did: [tool, args] per effect.
 */
function mockWorld(workflow, situation) {
  const effects = [];
  const tools = {};
  for (const [name, spec] of Object.entries(toolSpecs(workflow, situation))) {
    let calls = 0;
    const seen = new Map(); // idempotency key -> the result of its first effect
    tools[name] = async (given) => {
      const args = given ?? {};
      const n = ++calls;
      const key = spec.idempotent ? JSON.stringify(args[spec.idempotent] ?? null) : undefined;
      if (key !== undefined && seen.has(key)) return seen.get(key);
      const rule = (spec.rules ?? []).find((r) => applies(r, args, n)) ?? {};
      const result = fill(rule.returns !== undefined ? rule.returns : (spec.returns ?? null), args, n);
      if (rule.effect ?? (spec.effect === true && rule.fail === undefined)) {
        effects.push([name, args]);
        if (key !== undefined) seen.set(key, result);
      }
      if (rule.fail !== undefined) throw new Error(fill(rule.fail, args, n));
      return result;
    };
  }
  return { tools, effects };
}

/** A JSON value with its objects' keys sorted (to compare effect logs whose order may vary). */
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  return value;
}

/** An effect log as compared: as recorded, or sorted when the workflow says order may vary. */
function effectsAsCompared(effects, unordered) {
  const list = canonical(effects);
  return unordered ? [...list].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : list;
}

module.exports = { mockWorld, toolSpecs, effectsAsCompared, same };
