// A step-function file as a model sends it to run_workflow, made into what the
// engine runs: the file's text, the entry and its input. Two forms:
// {"functions": [...]} (the file's functions, or its text) and the short form
// {"steps": [...]}, one function's steps, for a workflow that is one function
// (most are): the entry "main", after any "functions" given beside it (its
// helpers), with "output" (default "any") and a parameter for each key of
// "input". The file itself stays as the semantics note says (every function
// names itself and its output): the short form is the request's, not the file's.
import { distance } from "../extras/describe-language.js";
import type { PtcError } from "../types/public.js";

/** A step-function file as a model sends it: {"functions"?, "steps"?, "output"?, "input"?, "entry"?}. */
export interface WorkflowInput {
  functions?: unknown;
  steps?: unknown;
  output?: unknown;
  input?: unknown;
  entry?: unknown;
}

/** What the engine runs; `stepsAt`: the index of the function made from "steps" (for the error's pointer). */
export interface WorkflowRequest {
  source: string;
  input: Record<string, unknown>;
  entry?: string;
  stepsAt?: number;
  /** A key the request does not take, as a validation error naming the nearest one. */
  error?: PtcError;
}

/** The name of the function the short form {"steps": [...]} makes. */
export const STEPS_FUNCTION = "main";

const KEYS = ["functions", "steps", "output", "input", "entry"];

function parsedIfText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A parameter's type for an input value: the short form declares what it is given ("nil" for null). */
const typeOfValue = (value: unknown) => (value === null ? "nil" : "any");

function unknownKey(request: object): PtcError | undefined {
  const key = Object.keys(request).find((k) => !KEYS.includes(k));
  if (key === undefined) return undefined;
  const near = KEYS.filter((k) => distance(key, k) <= 2).sort((a, b) => distance(key, a) - distance(key, b));
  return {
    type: "validation_error",
    code: "unknown_field",
    message:
      `Unknown key '${key}' in the request: it takes ${KEYS.map((k) => `"${k}"`).join(", ")}` +
      (near.length ? `. Did you mean '${near[0]}'?` : ""),
    path: `/${key}`,
  };
}

/** The file's text and the run's entry and input; the engine reports what is wrong with them. */
export function workflowFrom(given: unknown): WorkflowRequest {
  const value = parsedIfText(given);
  const request = (
    Array.isArray(value) || typeof value !== "object" || value === null ? { functions: value } : value
  ) as WorkflowInput;
  let functions = parsedIfText(request.functions);
  const input = (parsedIfText(request.input ?? {}) ?? {}) as Record<string, unknown>;
  const steps = parsedIfText(request.steps);
  let stepsAt: number | undefined;
  if (steps !== undefined) {
    const params = typeof input === "object" && !Array.isArray(input) ? Object.entries(input) : [];
    const main = {
      function: STEPS_FUNCTION,
      ...(params.length ? { input: Object.fromEntries(params.map(([k, v]) => [k, typeOfValue(v)])) } : {}),
      output: request.output ?? "any",
      steps,
    };
    const helpers = functions === undefined ? [] : functions;
    if (Array.isArray(helpers)) {
      stepsAt = helpers.length;
      functions = [...helpers, main];
    } else if (typeof helpers === "string") functions = `${helpers}\n${JSON.stringify(main)}`;
  }
  const source = Array.isArray(functions)
    ? functions.map((f) => JSON.stringify(f)).join("\n")
    : typeof functions === "string"
      ? functions // the file's text: functions written one after another
      : JSON.stringify(functions ?? null);
  const error = unknownKey(request);
  return {
    source,
    input,
    ...(typeof request.entry === "string" ? { entry: request.entry } : {}),
    ...(stepsAt !== undefined ? { stepsAt } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * An error's pointer in the request's terms when the entry came from "steps":
 * the engine's "/<n>/steps/2" (the file as a list of functions) is the
 * request's "/steps/2", and a helper's "/0/..." its "/functions/0/...".
 */
export function requestPath(path: string | undefined, stepsAt: number | undefined): string | undefined {
  if (path === undefined || stepsAt === undefined) return path;
  const m = /^\/(\d+)(\/.*)?$/.exec(path);
  if (!m) return path;
  const rest = m[2] ?? "";
  if (Number(m[1]) === stepsAt) return rest || "/steps"; // "/steps/2", "/output", "/input/ids" are the request's
  return `/functions/${m[1]}${rest}`;
}
