// ptc-wasm/editor: the playground's program editor and run panel, mounted into
// an element of any page (browsers only). Without a `runtime` option it starts
// the package's default, the engine in a Web Worker (`./browser.js`, which the
// bundle imports from dist/browser.mjs next to it rather than copying it).
import { createRuntime } from "./browser.js";
import { mountEditor, type EditorOptions, type MountedEditor } from "./editor/mount.js";

export type { EditorDiagnostic, EditorOptions, MountedEditor } from "./editor/mount.js";
export { THEME_PROPERTIES } from "./editor/styles.js";

/**
 * Mounts the editor into `element`: `mount(document.getElementById("editor"), { context: { orders } })`.
 * The element's content is replaced; `destroy()` empties it again (and closes
 * the runtime mount started; a runtime passed in stays open).
 */
export function mount(element: HTMLElement, options: EditorOptions = {}): MountedEditor {
  const own = options.runtime === undefined;
  const runtime = Promise.resolve(options.runtime ?? createRuntime());
  const mounted = mountEditor(element, { ...options, runtime });
  if (!own) return mounted;
  const destroy = mounted.destroy;
  mounted.destroy = () => {
    destroy();
    runtime.then((rt) => rt.close()).catch(() => {});
  };
  return mounted;
}
