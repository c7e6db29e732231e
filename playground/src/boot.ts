// Loaded before the page's UI code: starts compiling the engine and boots its
// worker (a throwaway run) while app.js is still being parsed and the editors
// are built, so the first result shows sooner. main.ts picks the runtime up.
import { loadRuntime, type PtcRuntime } from "./ptc.js";

performance.mark("ptc-boot");
const ready: Promise<PtcRuntime> = loadRuntime().then(async (runtime) => {
  performance.mark("ptc-boot-compiled");
  await runtime.run('{"program": {"op": "literal", "value": null}}').catch(() => {});
  performance.mark("ptc-boot-warm");
  return runtime;
});
(window as unknown as { __ptcRuntime: Promise<PtcRuntime> }).__ptcRuntime = ready;
