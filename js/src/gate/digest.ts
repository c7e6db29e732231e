// Hashes of suspended states (suspension.ts) and call identities (journal.ts).
// hash53 is fast and unkeyed: it tells a changed text from the same one, never
// a forged one. stateMac is keyed (HMAC-SHA-256 over WebCrypto, in Node 20+
// and browsers alike): only a holder of the host's key can make one that fits.
import type { StateKey } from "../types/public.js";

// cyrb53: a fast 53-bit string hash.
export function hash53(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
}

/**
 * hash53 of a text fed in parts (update), for a text too long to hash in one
 * go without blocking its thread: new Hash53().update(a).update(b).digest()
 * is hash53(a + b).
 */
export class Hash53 {
  private h1: number;
  private h2: number;
  constructor(seed = 0) {
    this.h1 = 0xdeadbeef ^ seed;
    this.h2 = 0x41c6ce57 ^ seed;
  }
  update(text: string, from = 0, to = text.length): this {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }
  digest(): string {
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
  }
}

function subtle(): SubtleCrypto {
  const s = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (!s) throw new TypeError("ptc-wasm: stateKey needs WebCrypto (crypto.subtle), which this platform lacks");
  return s;
}

// A copy: WebCrypto takes bytes of a plain ArrayBuffer (not a shared one).
const keyBytes = (key: StateKey): Uint8Array<ArrayBuffer> =>
  typeof key === "string"
    ? new TextEncoder().encode(key)
    : new Uint8Array(key instanceof Uint8Array ? key : new Uint8Array(key));

/** HMAC-SHA-256 of `text` under `key`, as hex. */
export async function stateMac(key: StateKey, text: string): Promise<string> {
  const s = subtle();
  const k = await s.importKey("raw", keyBytes(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await s.sign("HMAC", k, new TextEncoder().encode(text)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Two hex texts compared in time that does not depend on where they differ. */
export function sameMac(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** An id no other run has: the run's part of a call identity. */
export function newRunId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return `run-${c.randomUUID()}`;
  return `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}
