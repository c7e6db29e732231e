// How shared code reaches the extras (extras/extras.ts): the platform entry says
// how they are loaded (node.ts: require dist/extras.cjs; browser.ts: bundled,
// which also checks the module against this interface), and the first caller
// loads them, once. The interface is spelled out here, not taken from the
// module's type, so that this layer needs nothing from the extras layer above.
import type {
  DescribeLanguageOptions,
  JsonObject,
  JsonSchema,
  Operation,
  PromptOptions,
  SchemaOptions,
  WorkflowLanguage,
  WorkflowPromptOptions,
} from "../types/public.js";

export interface Extras {
  languagePrompt(ops: Operation[], options?: PromptOptions): string;
  programSchema(ops: Operation[], options?: SchemaOptions): JsonSchema;
  workflowLanguagePrompt(language: WorkflowLanguage, options?: WorkflowPromptOptions): string;
  workflowSchema(language: WorkflowLanguage, options?: SchemaOptions): JsonSchema;
  argsProblem(parameters: JsonObject, args: JsonObject): string | undefined;
  describeLanguage(ops: Operation[], workflow: WorkflowLanguage, options?: DescribeLanguageOptions): string;
}

let load: (() => Extras | Promise<Extras>) | undefined;
let loaded: Extras | undefined;
let loading: Promise<Extras> | undefined;
// A page fetches them on first use (browser.ts): until then the synchronous
// methods that need them say how to wait for them.
let fetchedOnDemand = false;

/**
 * Set by the platform entry, before any runtime exists: a loader that returns
 * the extras (Node: require), or a promise of them (a page: a chunk fetched on
 * first use, `onDemand`).
 */
export function provideExtras(loader: () => Extras | Promise<Extras>, onDemand = false): void {
  load = loader;
  fetchedOnDemand = onDemand;
}

/** The extras, for a synchronous method (`what`, named in the error when a page has not loaded them yet). */
export function extras(what = "this method"): Extras {
  if (loaded) return loaded;
  if (!load) throw new Error("ptc-wasm: internal error: no platform entry provided the extras");
  if (fetchedOnDemand) {
    void loadExtras().catch(() => undefined); // started now: a later call may find them
    throw new Error(
      `ptc-wasm: ${what} needs the prompts and schemas, which a page fetches on first use ` +
        `(dist/extras.browser.mjs, next to browser.mjs): await runtime.preload() once before calling it`,
    );
  }
  return (loaded = load() as Extras);
}

/** Whether extras() answers at once (loaded, or loaded synchronously on the first call). */
export function extrasAtHand(): boolean {
  return loaded !== undefined || !fetchedOnDemand;
}

/** Loads the extras (once; a failed fetch is tried again by the next call). */
export function loadExtras(): Promise<Extras> {
  if (loaded) return Promise.resolve(loaded);
  if (!load) return Promise.reject(new Error("ptc-wasm: internal error: no platform entry provided the extras"));
  loading ??= Promise.resolve()
    .then(load)
    .then(
      (got) => (loaded = got),
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    );
  return loading;
}
