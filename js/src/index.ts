// The public surface shared by the platform entries (node.ts, browser.ts), which
// add createRuntime. Types only reach the declarations through here, so none of
// them may need the DOM lib (see WasmModule in types.ts).
export { Runtime, type PtcRuntime } from "./runtime.js";
export { WorkerRuntime } from "./worker-runtime.js";
export { ResidentContext, type LoadOptions, type LoadResult } from "./resident.js";
export type * from "./types.js";
export type { CallIdentity } from "./journal.js";
export type { StateKey } from "./digest.js";
export type { TraceEntry, ValidateWorkflowOptions, WorkflowOptions, WorkflowResult } from "./workflows.js";
export type { JsonSchema, SchemaOptions } from "./schema.js";
export type { PromptOptions } from "./prompt.js";
export type { WorkflowPromptOptions } from "./workflow-prompt.js";
export { approximateTokens } from "./tokens.js";
export { isToolDescriptor } from "./descriptors.js";
export { ERROR_CODES } from "./error-codes.js";
export { useOpenTelemetry, type OpenTelemetryApi, type ToolCallTrace } from "./telemetry.js";
