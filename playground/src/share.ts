// A session in the URL hash: JSON, deflated with CompressionStream when the
// browser has it, in base64url. "#c=..." is compressed, "#j=..." is not.
import type { DialectId } from "./examples.js";

export interface Session {
  /** The program's dialect (absent: PTC-JSON, or the example's). */
  dialect?: DialectId;
  program: string;
  /** PTC-JSON: the context; step functions: the entry's input. */
  context: string;
  /** Step functions: the function to run. */
  entry?: string;
  tools: string;
  /** Memory passed into the next run (multi-turn). */
  memory?: Record<string, unknown>;
  turn?: number;
  /** The example the session started from (its later turns stay reachable). */
  example?: string;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function through(bytes: Uint8Array, stream: GenericTransformStream): Promise<Uint8Array> {
  const out = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(stream as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export async function encodeSession(session: Session): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify({ v: 1, ...session }));
  if (typeof CompressionStream === "function") {
    try {
      return `c=${toBase64Url(await through(bytes, new CompressionStream("deflate-raw")))}`;
    } catch {
      /* fall through to uncompressed */
    }
  }
  return `j=${toBase64Url(bytes)}`;
}

/** The session in a location hash, null when there is none; throws with a message when it cannot be read. */
export async function decodeSession(hash: string): Promise<Session | null> {
  const m = /^#?([cj])=(.+)$/.exec(hash);
  if (!m) return null;
  let bytes = fromBase64Url(m[2]);
  if (m[1] === "c") {
    if (typeof DecompressionStream !== "function") throw new Error("this browser cannot decompress the shared link");
    bytes = await through(bytes, new DecompressionStream("deflate-raw"));
  }
  const data = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Session> & { v?: number };
  if (typeof data.program !== "string") throw new Error("the shared link has no program");
  return {
    dialect: data.dialect === "ptc-json" || data.dialect === "step-functions" ? data.dialect : undefined,
    entry: typeof data.entry === "string" ? data.entry : undefined,
    program: data.program,
    context: typeof data.context === "string" ? data.context : "{}",
    tools: typeof data.tools === "string" ? data.tools : "",
    memory: data.memory && typeof data.memory === "object" && !Array.isArray(data.memory) ? data.memory : undefined,
    turn: typeof data.turn === "number" && data.turn >= 1 ? Math.floor(data.turn) : undefined,
    example: typeof data.example === "string" ? data.example : undefined,
  };
}
