/** Approximate tokens of a text (characters / 4). */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
