// The public surface shared by the platform entries (node.ts, browser.ts), which
// add createRuntime. Types only reach the declarations through here, so none of
// them may need the DOM lib (see WasmModule in types/public.ts).
export { Runtime, type PreloadParts, type PtcRuntime } from "./runtimes/runtime.js";
export { WorkerRuntime } from "./runtimes/worker-runtime.js";
export { ResidentContext, type LoadOptions, type LoadResult } from "./engine/resident.js";
export type * from "./types/public.js";
export type { ValidateWorkflowOptions, WorkflowOptions, WorkflowResult } from "./types/step-functions.js";
export { approximateTokens } from "./util/tokens.js";
export { isToolDescriptor } from "./run/descriptors.js";
export { defineTool } from "./types/define-tool.js";
export { ERROR_CODES } from "./types/error-codes.js";
export { useOpenTelemetry, type OpenTelemetryApi } from "./run/telemetry.js";
