// How shared code reaches the extras (extras.ts): the platform entry says how
// they are loaded (node.ts: require dist/extras.cjs; browser.ts: bundled), and
// the first caller loads them, once.
import type * as ExtrasModule from "../extras/extras.js";

export type Extras = typeof ExtrasModule;

let load: (() => Extras) | undefined;
let loaded: Extras | undefined;

/** Set by the platform entry, before any runtime exists. */
export function provideExtras(loader: () => Extras): void {
  load = loader;
}

export function extras(): Extras {
  if (loaded) return loaded;
  if (!load) throw new Error("ptc-wasm: internal error: no platform entry provided the extras");
  return (loaded = load());
}
