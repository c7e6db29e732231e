/**
 * A rough estimate of a text's tokens: characters / 4. It under-counts
 * JSON-heavy text (the prompts run 1.3-1.7x higher in o200k_base): for a
 * budget, count with a real tokenizer (the README's figures use gpt-tokenizer's
 * o200k_base, `npm run bench -- --only TOKENS`).
 */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
