// Loaded before the page's UI code: starts compiling the engine and boots its
// worker while app.js is still being parsed and the editors are built, so the
// first result shows sooner. main.ts picks the engine up from window.__ptcEngine.
import { loadEngine, type Engine } from "./ptc.js";

performance.mark("ptc-boot");
const ready: Promise<Engine> = loadEngine();
ready.then(() => performance.mark("ptc-boot-ready")).catch(() => {});
(window as unknown as { __ptcEngine: Promise<Engine> }).__ptcEngine = ready;
