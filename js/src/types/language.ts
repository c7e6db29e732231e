// The language as the engine describes it (runtime.operations(), runtime.workflowLanguage()):
// the op table's and the step table's JSON export, typed. Re-exported by public.ts.
import type { FieldKind } from "./engine-tables.js";
import type { JsonObject } from "./json.js";

export interface OperationField {
  name: string;
  kind: FieldKind;
  presence: "required" | "optional" | "one_of";
  description: string;
  /**
   * For expression fields: "predicate" must be an operation (a constant
   * condition is always true or false), "step" must not be a bare string (it
   * would be a field name meant as get); "value" takes any expression.
   */
  role: "value" | "step" | "predicate";
  /** The allowed texts of a field of kind "choice". */
  choices?: string[];
}

/** One entry of the engine's operation table. */
export interface Operation {
  name: string;
  category: string;
  readsInput: boolean;
  description: string;
  example: JsonObject;
  shape: string;
  fields: OperationField[];
  /**
   * The field its keyed form's key holds: {"call": "charge", "args": {...}} is call's `tool` (an object without
   * "op" whose first key is the op's name); absent when the op has no keyed form.
   */
  keyed?: string;
  /** The keyed form's shape, e.g. {"call": "<name>", ["args": ...], ["get": "<name>"]}. */
  keyedShape?: string;
}

/** One key of a step kind in the engine's step table. */
export interface WorkflowStepKey {
  name: string;
  /**
   * expr, name, target, args, steps, cases, calls, handler, returned (a value the function returns), flag (true),
   * parallel (true, false or a number) or retry.
   */
  kind: string;
  /** "kind": the key that makes a step this kind; "required" or "optional". */
  presence: "kind" | "required" | "optional";
}

/** One step kind of the step-function language. */
export interface WorkflowStepKind {
  name: string;
  description: string;
  /** Its keys as messages show them: "{let?, call, args?, on-error?}". */
  shape: string;
  keys: WorkflowStepKey[];
}

/** An operator of step-function expressions: {"<key>": [operands]}. */
export interface WorkflowOperator {
  key: string;
  minOperands: number;
  /** null: no limit. */
  maxOperands: number | null;
  description: string;
}

/** A function of step-function expressions: {"$name": [args]}, a PTC-JSON op's semantics. */
export interface WorkflowFunction {
  key: string;
  /** The PTC-JSON operation it computes. */
  op: string;
  category: string;
  description: string;
  shape: string;
  example: JsonObject;
  params: { name: string; kind: FieldKind; required: boolean; description: string; choices?: string[] }[];
}

/** The step-function language as the engine defines it: what its prompt and schema are generated from. */
export interface WorkflowLanguage {
  steps: WorkflowStepKind[];
  operators: WorkflowOperator[];
  functions: WorkflowFunction[];
}
