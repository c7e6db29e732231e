// The data held once in worker mode (worker-core.ts): a resident context's JSON
// text is needed only to load it into an engine instance, so once loaded the
// worker packs it (gzip: a tenth of its size or less for rows of records) and
// drops it, and the caller's thread, sent the packed copy, drops its own; a
// fresh instance (after a trap) or a fresh worker unpacks it. With the packed
// copy go the keys' fingerprints (gate/suspension.ts), which would otherwise
// be computed from the text. Both are made in slices of a few milliseconds, so
// that runs sent meanwhile are not held up. Without CompressionStream the text stays.
import { Hash53 } from "../gate/digest.js";

export const canPack = typeof CompressionStream === "function" && typeof DecompressionStream === "function";

/** Lets the worker take up the messages that came meanwhile (runs, answers). */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function pack(text: string): Promise<Uint8Array> {
  const packed = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(packed).arrayBuffer());
}

export function unpack(gzip: Uint8Array): Promise<string> {
  const text = new Blob([gzip as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(text).text();
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_OBJECT = 123;
const OPEN_LIST = 91;
const CLOSE_OBJECT = 125;
const CLOSE_LIST = 93;

/**
 * Each key of a context's JSON text (JSON.stringify's: no spaces) with the
 * fingerprint of its data, hash53(JSON.stringify(value)), as suspension.ts
 * makes it: the text of a key's value there is exactly that, so it is hashed in
 * place; nothing is parsed but the key names. Pauses every `sliceMs`.
 */
export async function keyHashes(text: string, sliceMs = 8): Promise<[string, string][]> {
  const out: [string, string][] = [];
  let until = performance.now() + sliceMs;
  const breathe = async () => {
    if (performance.now() < until) return;
    await pause();
    until = performance.now() + sliceMs;
  };
  let i = 1;
  while (text.charCodeAt(i) === QUOTE) {
    let j = i + 1;
    while (text.charCodeAt(j) !== QUOTE) j += text.charCodeAt(j) === BACKSLASH ? 2 : 1;
    const key = JSON.parse(text.slice(i, j + 1)) as string;
    const start = j + 2; // after the colon
    const hash = new Hash53();
    let from = start;
    let depth = 0;
    let inString = false;
    let end = -1;
    for (i = start; end < 0;) {
      const stop = Math.min(text.length, i + 65536);
      for (; i < stop; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
          if (c === BACKSLASH) i++;
          else if (c === QUOTE) inString = false;
        } else if (c === QUOTE) inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_LIST) depth++;
        else if (depth === 0 && (c === COMMA || c === CLOSE_OBJECT)) {
          end = i;
          break;
        } else if (c === CLOSE_OBJECT || c === CLOSE_LIST) depth--;
      }
      if (end < 0 && i >= text.length) throw new Error("the context's text ends inside a value");
      hash.update(text, from, end < 0 ? i : end);
      from = i;
      if (end < 0) await breathe();
    }
    out.push([key, hash.digest()]);
    i = end + (text.charCodeAt(end) === COMMA ? 1 : 0);
    if (out.length % 512 === 0) await breathe();
  }
  return out;
}
