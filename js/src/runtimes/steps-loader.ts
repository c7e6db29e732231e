// How a runtime gets the step-function dialect's module when it loads it on
// first use (platform.ts makes it; runtime.ts calls it).
import type { WasmModule } from "../types/public.js";

/**
 * Loads the step-function dialect's module (createRuntime's stepFunctions
 * "lazy", and Node's default); `now`, where the platform can load it
 * synchronously (Node's default), when a synchronous method first needs it.
 */
export interface StepsLoader {
  (): Promise<WasmModule>;
  now?: () => WasmModule;
}
