// The Emscripten glue (build/wasm/ptc.cjs): a factory for the Embind module.
declare module "*/ptc.cjs" {
  const createPtcModule: (overrides: Record<string, unknown>) => Promise<unknown>;
  export default createPtcModule;
}
