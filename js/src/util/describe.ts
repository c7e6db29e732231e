// Text of a value the host did not make (what a tool threw, an abort reason, an
// error raised while reading the caller's data). Such a value may be anything:
// an Error whose getters throw, a Proxy whose every trap throws, a null-prototype
// object holding a BigInt. Reading it must never throw, or a run would be left
// unsettled and the exception would escape into the host's event loop.

import { textPrefix } from "./shown-text.js";

/** Longest text kept: the message is for a model, and a huge one would cross into the engine. */
const MAX_DESCRIBED_CHARS = 10_000;

/** Said of a value no text could be read from safely. */
const UNPRINTABLE = "an unprintable value";

function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

const nonEmpty = (text: unknown): text is string => typeof text === "string" && text.length > 0;

// An Error's message, else its name, else what toString gives.
function errorText(error: Error): string | undefined {
  const message = attempt(() => error.message);
  if (nonEmpty(message)) return message;
  const name = attempt(() => error.name);
  if (nonEmpty(name)) return name;
  const text = attempt(() => String(error));
  return nonEmpty(text) ? text : undefined;
}

// JSON for plain data ({"code": 42} says more than "[object Object]"), else String().
function valueText(value: unknown): string | undefined {
  const json = attempt(() => JSON.stringify(value));
  if (typeof json === "string") return json;
  const text = attempt(() => String(value));
  return typeof text === "string" ? text : undefined;
}

function clip(text: string): string {
  if (text.length <= MAX_DESCRIBED_CHARS) return text;
  const kept = textPrefix(text, MAX_DESCRIBED_CHARS); // never cuts a surrogate pair in two
  return `${kept}... (${text.length - kept.length} more characters)`;
}

/**
 * A short text for any thrown or foreign value; never throws. An Error gives
 * its message, a string itself, plain data its JSON, anything else String();
 * when none of these can be read safely, "an unprintable value".
 */
export function describeThrown(value: unknown): string {
  if (typeof value === "string") return clip(value);
  const isError = attempt(() => value instanceof Error) === true;
  const text = isError ? errorText(value as Error) : valueText(value);
  return text === undefined ? UNPRINTABLE : clip(text);
}
