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
