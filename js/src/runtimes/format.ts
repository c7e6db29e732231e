// Completes the engine's one-line error ("<Type> at <path>: <message>") so that a
// model can repair its program in one retry: the engine gives the type, the
// pointer, the message, the did-you-mean and (for field-level validation errors)
// the op's shape; this adds the op table's knowledge where the message has none.
import { describeThrown } from "../util/describe.js";
import { isErrorCode } from "../types/error-codes.js";
import type { ErrorCode, ErrorType, FormattableError, Operation } from "../types/public.js";

const ERROR_TYPES: readonly string[] = [
  "parse_error",
  "validation_error",
  "execution_error",
  "timeout",
  "memory_exceeded",
] satisfies ErrorType[];

function notAnError(why: string): TypeError {
  return new TypeError(`ptc-wasm: formatError takes the error of a failed result, {type, message, path?}: ${why}`);
}

/**
 * A plain copy of an error a caller passes to formatError, or a TypeError when
 * it is not one (a caller's mistake, which must never reach the engine).
 */
export function checkedError(error: unknown): FormattableError {
  if (error === null || typeof error !== "object") throw notAnError(`got ${error === null ? "null" : typeof error}`);
  let type: unknown, code: unknown, message: unknown, path: unknown, position: unknown;
  try {
    ({ type, code, message, path, position } = error as Record<string, unknown>);
  } catch (e) {
    throw notAnError(`its fields could not be read (${describeThrown(e)})`);
  }
  if (typeof type !== "string" || !ERROR_TYPES.includes(type))
    throw notAnError(`its type must be one of ${ERROR_TYPES.join(", ")}`);
  if (typeof message !== "string") throw notAnError("its message must be a string");
  const checked: FormattableError = { type: type as ErrorType, message };
  if (isErrorCode(code)) checked.code = code;
  if (typeof path === "string") checked.path = path;
  if (typeof position === "number" && Number.isFinite(position)) checked.position = position;
  return checked;
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The operation object at a JSON Pointer, or the one holding the field it points at. */
function operationAt(program: unknown, pointer: string): string | undefined {
  let node: unknown = program;
  let holder: string | undefined;
  for (const token of pointer.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return holder;
    const op = (node as Record<string, unknown>).op;
    holder = typeof op === "string" ? op : undefined;
    node = (node as Record<string, unknown>)[decodeToken(token)];
  }
  const op = node !== null && typeof node === "object" ? (node as Record<string, unknown>).op : undefined;
  return typeof op === "string" ? op : holder;
}

function parsedProgram(program: unknown): unknown {
  if (typeof program !== "string") return program;
  try {
    return JSON.parse(program);
  } catch {
    return undefined;
  }
}

// Validation errors that one op's shape does not help with.
const NOT_ABOUT_A_SHAPE: ReadonlySet<ErrorCode> = new Set(["unknown_tool", "too_deep", "too_large", "bad_option"]);

/**
 * Extra guidance for a validation error whose message does not carry it yet:
 * the known operations when an unknown one has no close match, or the shape of
 * the operation at the error's path (when the program is given).
 */
export function repairHint(error: FormattableError, ops: Operation[], program?: unknown): string {
  if (error.type !== "validation_error" || error.message.includes("Shape: ")) return "";
  if (error.code === "unknown_op")
    // the engine suggests a close name when there is one
    return error.message.includes("Did you mean") ? "" : ` Operations: ${ops.map((o) => o.name).join(", ")}.`;
  // Unknown tools list the available ones; depth errors are not about one op's shape.
  if (program === undefined || !error.path || (error.code && NOT_ABOUT_A_SHAPE.has(error.code))) return "";
  let name: string | undefined;
  try {
    name = operationAt(parsedProgram(program), error.path);
  } catch {
    return ""; // a program object whose getters throw: no hint, rather than no message
  }
  const op = ops.find((o) => o.name === name);
  return op ? ` Shape: ${op.shape}` : "";
}
