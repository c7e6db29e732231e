// The gateway's cap on an HTTP upstream's replies, as on a stdio one's
// (mcp-stdio.ts, SkippingReadBuffer): the Streamable HTTP transport reads
// through this fetch, and a message over the limit is not kept. A JSON body
// over it is answered in its place with the JSON-RPC error the stdio path
// gives (REPLY_TOO_LARGE, the same text), for the request it answered; in an
// SSE stream, each `data:` line is one message, and one over the limit is
// replaced by that error when it answered a request (its "id", scanned without
// keeping the message), or dropped (a notification). The call fails; the
// connection goes on.
import { DEFAULT_MAX_MESSAGE_BYTES, LineReader, skippedReply } from "./mcp-stdio.js";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

const encoder = new TextEncoder();

// The id of the request a POST carried, which a JSON body answers.
function requestId(init: RequestInit | undefined): string | number | null {
  if (typeof init?.body !== "string") return null;
  try {
    const message = JSON.parse(init.body) as { id?: unknown };
    return typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
  } catch {
    return null;
  }
}

// An SSE body's lines, each over maxBytes replaced (`replace`: its text, or undefined to drop it).
function cappedLines(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  replace: (id: string | number | null, bytes: number) => string | undefined,
): ReadableStream<Uint8Array> {
  let out!: TransformStreamDefaultController<Uint8Array>;
  const reader = new LineReader(
    maxBytes,
    (line) => out.enqueue(encoder.encode(line + "\n")),
    (id, bytes) => {
      const text = replace(id, bytes);
      if (text !== undefined) out.enqueue(encoder.encode(text + "\n"));
    },
  );
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        out = controller;
      },
      transform(chunk) {
        reader.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      },
      flush() {
        reader.end();
      },
    }),
  );
}

// A JSON body: one message, kept while it is within maxBytes; past that only counted, then replaced.
function cappedBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  replace: (bytes: number) => string | undefined,
): ReadableStream<Uint8Array> {
  let kept: Uint8Array[] = [];
  let bytes = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk) {
        bytes += chunk.byteLength;
        if (bytes <= maxBytes) kept.push(chunk);
        else kept = [];
      },
      flush(controller) {
        if (bytes <= maxBytes) for (const chunk of kept) controller.enqueue(chunk);
        else {
          const text = replace(bytes);
          if (text !== undefined) controller.enqueue(encoder.encode(text));
        }
      },
    }),
  );
}

/**
 * A fetch for an upstream's Streamable HTTP transport that reads at most
 * maxBytes of one message (default 10 MiB, as stdio).
 */
export function cappedFetch(maxBytes = DEFAULT_MAX_MESSAGE_BYTES, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const type = response.headers.get("content-type") ?? "";
    const sse = type.includes("text/event-stream");
    if (!sse && !type.includes("application/json")) return response;
    const asked = requestId(init);
    const replyFor = (id: string | number | null, bytes: number) => {
      const reply = skippedReply(id, bytes, maxBytes);
      return reply instanceof Error ? undefined : JSON.stringify(reply);
    };
    // SSE: a message is one data line (the reply to a POST, a notification); JSON: the body is one message.
    const body = sse
      ? cappedLines(response.body, maxBytes, (id, bytes) => {
          const text = replyFor(id, bytes);
          return text === undefined ? undefined : `data: ${text}`;
        })
      : cappedBody(response.body, maxBytes, (bytes) => replyFor(asked, bytes));
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}
