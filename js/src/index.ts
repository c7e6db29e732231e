// The public surface shared by the platform entries (node.ts, browser.ts), which
// add createRuntime. Types only reach the declarations through here, so none of
// them may need the DOM lib (see WasmModule in types.ts).
export { Runtime, type PtcRuntime } from "./runtimes/runtime.js";
export { WorkerRuntime } from "./runtimes/worker-runtime.js";
export { ResidentContext, type LoadOptions, type LoadResult } from "./engine/resident.js";
export type * from "./types/public.js";
export type { TraceEntry, ValidateWorkflowOptions, WorkflowOptions, WorkflowResult } from "./run/workflows.js";
export type { JsonSchema, SchemaOptions } from "./extras/schema.js";
export type { PromptOptions } from "./extras/prompt.js";
export type { WorkflowPromptOptions } from "./extras/workflow-prompt.js";
export { approximateTokens } from "./util/tokens.js";
export { isToolDescriptor } from "./run/descriptors.js";
export { ERROR_CODES } from "./types/error-codes.js";
export { useOpenTelemetry, type OpenTelemetryApi, type ToolCallTrace } from "./run/telemetry.js";
