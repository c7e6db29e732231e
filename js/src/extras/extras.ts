// The extras: what teaches a model the languages (prompts, JSON Schemas) and
// checks a tool's args against its parameters schema. No run needs them until
// it calls such a tool, and they are 40% of the JS: the Node build ships them
// as dist/extras.cjs, required on first use (0.9 ms less on every import); the
// browser build bundles them. Reached through extras() in extras-loader.ts.
export { describeLanguage } from "./describe-language.js";
export { languagePrompt } from "./prompt.js";
export { programSchema } from "./schema.js";
export { workflowLanguagePrompt } from "./step-function-prompt.js";
export { workflowSchema } from "./step-function-schema.js";
export { argsProblem } from "./tool-args.js";
