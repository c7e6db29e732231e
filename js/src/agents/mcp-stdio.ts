// The MCP server's stdio transport: newline-delimited JSON-RPC, as the SDK's
// StdioServerTransport, but with a limit on one message that does not end the
// session. The SDK's transport closes when a message outgrows its buffer (the
// server then exits without a word); this one skips the message, answers it
// with a JSON-RPC error naming the limit, and goes on reading. The gateway's
// client side reads its upstreams the same way (SkippingReadBuffer): a reply
// over the limit fails the call that asked for it, not the connection.
import type * as StdioCodec from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { loadPeers } from "./peers.js";

// The SDK is an optional peer: its message codec is loaded on first use.
const codec = () =>
  loadPeers(
    "ptc-wasm mcp",
    ["@modelcontextprotocol/sdk"],
    (require) => require("@modelcontextprotocol/sdk/shared/stdio.js") as typeof StdioCodec,
  );

/** Bytes of one message the server reads by default (as the SDK's transport). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const INVALID_REQUEST = -32600;

/**
 * Newline-delimited messages of at most maxBytes bytes, from a stream read in
 * chunks: each whole line goes to onLine; a longer one is not kept but scanned
 * for its top-level "id", then reported to onSkipped with its size.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private bytes = 0;
  /** Set while a message over the limit is skipped: it looks for the message's id. */
  private skipped?: IdScanner;

  constructor(
    readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onSkipped: (id: string | number | null, bytes: number) => void,
  ) {}

  push(chunk: Buffer | string): void {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < data.length) {
      const newline = data.indexOf(NEWLINE, start);
      this.take(data.subarray(start, newline < 0 ? data.length : newline));
      if (newline < 0) return;
      this.endLine();
      start = newline + 1;
    }
  }

  clear(): void {
    this.chunks = [];
    this.bytes = 0;
    this.skipped = undefined;
  }

  /** Ends the last line when the stream ends without a newline. */
  end(): void {
    if (this.bytes > 0 || this.skipped) this.endLine();
  }

  private take(part: Buffer): void {
    this.bytes += part.length;
    if (this.skipped) return this.skipped.scan(part);
    if (this.bytes <= this.maxBytes) {
      this.chunks.push(part);
      return;
    }
    // Over the limit: what was kept goes through the scanner, then is dropped.
    this.skipped = new IdScanner();
    for (const kept of this.chunks) this.skipped.scan(kept);
    this.skipped.scan(part);
    this.chunks = [];
  }

  private endLine(): void {
    const { chunks, bytes, skipped } = this;
    this.clear();
    if (skipped) return this.onSkipped(skipped.id, bytes);
    this.onLine(Buffer.concat(chunks, bytes).toString("utf8").replace(/\r$/, ""));
  }
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly reader: LineReader;

  constructor(
    private readonly maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {
    this.reader = new LineReader(
      maxMessageBytes,
      (line) => this.onLine(line),
      (id, bytes) => this.refuse(id, bytes),
    );
  }

  async start(): Promise<void> {
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(codec().serializeMessage(message))) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.reader.clear();
    this.onclose?.();
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => this.reader.push(chunk);

  private onLine(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = codec().deserializeMessage(line);
    } catch (e) {
      this.onerror?.(e as Error); // as the SDK's transport: a line that is not JSON-RPC is reported and skipped
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (e) {
      this.onerror?.(e as Error); // the next messages are still read
    }
  }

  private refuse(id: string | number | null, bytes: number): void {
    const message =
      `The message is ${bytes} bytes, more than this server reads (${this.maxMessageBytes} bytes: the ` +
      `maxMessageBytes option, ptc-wasm mcp --max-message-bytes); it was not read. Send less data in one call.`;
    this.onerror?.(new Error(message));
    void this.send({ jsonrpc: "2.0", id, error: { code: INVALID_REQUEST, message } } as unknown as JSONRPCMessage);
  }
}

/** The JSON-RPC error code of a reply the gateway skipped for its size (in the range the spec leaves to servers). */
export const REPLY_TOO_LARGE = -32099;

/**
 * What the gateway's client transport reads an upstream's stdout with, in
 * place of the SDK's buffer (which throws at 10 MiB, and the SDK's transport
 * then closes the connection): a reply over the limit is skipped and answered,
 * to the call that asked for it, as a JSON-RPC error; the connection stays up.
 * It has the SDK's buffer's methods: append, readMessage, clear.
 */
export class SkippingReadBuffer {
  private readonly queue: (string | JSONRPCMessage | Error)[] = [];
  private readonly reader: LineReader;

  constructor(maxBytes = DEFAULT_MAX_MESSAGE_BYTES) {
    this.reader = new LineReader(
      maxBytes,
      (line) => this.queue.push(line),
      (id, bytes) => this.queue.push(skippedReply(id, bytes, maxBytes)),
    );
  }

  append(chunk: Buffer): void {
    this.reader.push(chunk);
  }

  /** The next message, or null; throws (after taking it) for a line that is not JSON-RPC, as the SDK's buffer. */
  readMessage(): JSONRPCMessage | null {
    const next = this.queue.shift();
    if (next === undefined) return null;
    if (next instanceof Error) throw next;
    return typeof next === "string" ? codec().deserializeMessage(next) : next;
  }

  clear(): void {
    this.reader.clear();
    this.queue.length = 0;
  }
}

/** The answer to a message skipped for its size: a JSON-RPC error for the request it answered (an Error without an id). */
export function skippedReply(id: string | number | null, bytes: number, maxBytes: number): JSONRPCMessage | Error {
  const message =
    `a reply of more than ${maxBytes} bytes (${bytes} bytes): the gateway reads at most that much of one ` +
    `message, so it skipped this one and the connection stays up`;
  if (id === null) return new Error(`the server sent a message without an id and ${message}`);
  return { jsonrpc: "2.0", id, error: { code: REPLY_TOO_LARGE, message, data: { bytes, maxBytes } } };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_CAPTURE = 256;

/**
 * Finds the "id" member of a JSON object streamed in pieces, without keeping
 * it: the id may come last (the SDK's client writes it after the params), and
 * the message is too big to hold. Only members of the outermost object count.
 */
class IdScanner {
  id: string | number | null = null;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private lastKey: string | undefined;
  private readingId = false; // between the top-level "id": and the end of its value
  private capture: number[] | undefined; // bytes of the key or of the id being read

  scan(bytes: Buffer): void {
    for (const b of bytes) this.byte(b);
  }

  private byte(b: number): void {
    if (this.inString) return this.stringByte(b);
    const top = this.depth === 1;
    switch (b) {
      case QUOTE:
        this.inString = true;
        this.capture = top && (this.expectKey || this.readingId) ? [b] : undefined;
        return;
      case 0x7b: // {
      case 0x5b: // [
        if (top) this.readingId = false; // an object or a list is no id
        this.depth++;
        this.expectKey = this.depth === 1 && b === 0x7b;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        if (top) this.endScalar();
        this.depth--;
        return;
      case 0x3a: // :
        if (top) {
          this.expectKey = false;
          this.readingId = this.lastKey === "id";
          this.capture = this.readingId ? [] : undefined;
        }
        return;
      case 0x2c: // ,
        if (top) {
          this.endScalar();
          this.expectKey = true;
        }
        return;
      case 0x20:
      case 0x09:
      case 0x0d:
        if (top && this.capture?.length) this.endScalar();
        return;
      default:
        if (top && this.readingId && this.capture && this.capture.length < MAX_CAPTURE) this.capture.push(b);
    }
  }

  private stringByte(b: number): void {
    if (this.capture && this.capture.length < MAX_CAPTURE) this.capture.push(b);
    if (this.escaped) this.escaped = false;
    else if (b === BACKSLASH) this.escaped = true;
    else if (b === QUOTE) {
      this.inString = false;
      const text = this.parsed();
      if (this.expectKey) this.lastKey = typeof text === "string" ? text : undefined;
      else if (this.readingId) this.setId(text);
      this.capture = undefined;
    }
  }

  // A number (or null) as the id's value ends at a comma, a brace or a space.
  private endScalar(): void {
    if (this.readingId && this.capture?.length) this.setId(this.parsed());
    this.capture = undefined;
  }

  private setId(value: unknown): void {
    this.readingId = false;
    if (typeof value === "string" || typeof value === "number") this.id = value;
  }

  private parsed(): unknown {
    try {
      return JSON.parse(Buffer.from(this.capture ?? []).toString("utf8"));
    } catch {
      return undefined;
    }
  }
}
