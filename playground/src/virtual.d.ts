// Made by scripts/bundle-playground.mjs: examples/step-functions/index.json,
// each entry with its file's text as `source`.
declare module "virtual:step-function-examples" {
  const examples: {
    id: string;
    title: string;
    file: string;
    entry: string;
    input: Record<string, unknown>;
    tools: Record<string, unknown>;
    source: string;
  }[];
  export default examples;
}
