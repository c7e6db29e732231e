// Text a program controls, shown to a person: on a terminal (the CLI) or in an
// approval prompt (MCP elicitation). A program names ops, keys and args, and a
// tool's result is data the program chose: control characters in them would
// be the terminal's commands (ESC and OSC sequences, CR, C1 controls overwrite
// what was printed before) or a layout the program could forge (a newline and
// a line that looks like the host's). Escaped as JSON escapes them, \u001b,
// which keeps JSON text the same data.

// C0 but the newline (the caller's own lines), DEL, C1, and the invisible
// marks that reorder or break lines (bidi overrides and isolates, U+2028/9).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * The text with every control character but the newline written as a `\uXXXX`
 * escape. Put text a program controls in JSON first (JSON.stringify escapes
 * its newlines and quotes it), so that only the caller's newlines remain.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/**
 * The first `end` UTF-16 units of a text, one fewer when the cut would fall
 * between the two halves of a character outside the BMP (an emoji): a lone
 * half is not text, and shows as U+FFFD or breaks a JSON encoder downstream.
 */
export function textPrefix(text: string, end: number): string {
  if (text.length <= end) return text;
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

/** The text, or when it is longer than `max` characters its start and "...", `max` in all, never splitting a character. */
export const cutText = (text: string, max: number): string =>
  text.length <= max ? text : `${textPrefix(text, max - 3)}...`;

/** A value as one line of JSON, quoted where it is text, with no control character left raw. */
export const shownJson = (value: unknown): string => escapeControls(JSON.stringify(value) ?? "null");
