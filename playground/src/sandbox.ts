// Mock tools run in a sandboxed iframe, never in the page. sandbox="allow-scripts"
// without allow-same-origin gives the frame an opaque origin: the tools' code
// cannot reach this page's DOM, variables or storage (localStorage, IndexedDB,
// cookies), cannot navigate the page or open windows, and the frame's
// Content-Security-Policy (default-src 'none') keeps it off the network. The
// page and the frame talk by messages only (over a MessageChannel, below):
// "evaluate this tools text", "call this tool", each answer matched by its id.
// A tool call is async, as the package expects; a tool that never answers is
// cut off by the run's deadline.
//
// The frame evaluates a tools text only when the page asks, and the page asks
// only for tools the visitor typed or trusted (consent.ts holds a shared link's).
//
// A tool may try to navigate its own frame (`location.href = url + args`):
// CSP does not govern a frame's own navigation, and the page that then loaded
// would be the attacker's, still the tools frame. Three things stop it. The
// page's own policy (index.html) has `frame-src 'self'`, which blocks every
// navigation of its frames to another origin (the frame's own document,
// tools-frame.html, is the page's), so no request leaves the page's host with
// data in its URL. The conversation runs over a
// MessageChannel whose port only the frame's first document holds: a document that
// replaced it gets no question, and its posts to the page are ignored (the page
// takes one window message, the frame's "ready", checked by source and origin).
// And a second load event of the frame (a navigation, even one blocked into an
// error page) replaces the frame, failing the calls that waited on it.
//
// A tool is a function, or a descriptor as the package takes it:
// `{ effect: "write", approval: true | (args) => boolean, execute: async (args) => value }`.
// Its `execute` and its approval check both run in the frame; the page learns
// only which tools write and which ask first.

export interface ToolInfo {
  /** Calls of this tool earlier in the same run (0, 1, 2, ...). */
  call: number;
}

/** What a descriptor declares: it writes, it asks first (always, or when its check says so). */
export interface ToolTraits {
  write?: boolean;
  approval?: "always" | "check";
}

export type CompiledTools =
  | {
      ok: true;
      names: string[];
      traits: Record<string, ToolTraits>;
      call(name: string, args: Record<string, unknown>, info: ToolInfo): Promise<unknown>;
      /** Runs a tool's approval check (in the frame): whether this call needs asking. */
      needsApproval(name: string, args: Record<string, unknown>): Promise<boolean>;
    }
  | { ok: false; message: string };

/** What a tool threw, as it crosses back: an Error's message, or the thrown value as text. */
interface Thrown {
  isError: boolean;
  message: string;
}

/** What the frame answers on its port. */
type FrameMessage =
  | { kind: "compiled"; id: number; ok: true; names: string[]; traits: Record<string, ToolTraits> }
  | { kind: "compiled"; id: number; ok: false; message: string }
  | { kind: "result"; id: number; ok: true; value: unknown }
  | { kind: "result"; id: number; ok: false; error: Thrown };

/** The answer to a question: the frame's, or "unavailable" (it was replaced, or never started). */
type Reply = FrameMessage | { kind: "unavailable"; message: string };

/**
 * The frame's document: tools-frame.html next to the page, written by
 * scripts/bundle-playground.mjs from tools-frame.ts with its script inline and its
 * own Content-Security-Policy (default-src 'none', that script's hash, eval for the
 * tools text). A document of its own, not a srcdoc: a srcdoc frame would inherit the
 * page's policy, and a strict one (no inline script, no eval) would stop it.
 */
const FRAME_URL = "tools-frame.html";

export interface ToolSandbox {
  /** Evaluates a tools text in the frame (the last text's answer is cached). */
  compile(source: string): Promise<CompiledTools>;
  /** The tool names of the last text that evaluated (for completion); none before. */
  names(): string[];
  /**
   * Replaces the frame with a fresh one: for a tool that never answered (an
   * endless loop keeps the frame's process busy; the page itself stays responsive).
   */
  restart(): void;
}

/** How long evaluating a tools text may take before the frame counts as stuck. */
const COMPILE_LIMIT_MS = 1000;
/** How long the frame may take to start (a host's Content-Security-Policy may forbid its script). */
const START_LIMIT_MS = 10_000;

/** Why the calls waiting on a frame that navigated fail. */
const NAVIGATED =
  "a mock tool navigated the sandbox's frame away (tools may not load pages); the sandbox was replaced and this call abandoned";

/**
 * One frame: created hidden, out of the tab order; its answers, matched to the
 * questions. `navigated` is told when the frame loads a second document.
 */
function openFrame(host: HTMLElement, navigated: () => void) {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.title = "Mock tools sandbox";
  frame.className = "tool-sandbox";
  frame.src = FRAME_URL;

  let nextId = 1;
  /** Why the frame cannot answer any more, once it cannot. */
  let unavailable: string | undefined;
  const waiting = new Map<number, (reply: Reply) => void>();
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const startTimer = setTimeout(() => {
    unavailable = `the mock tools' sandbox did not start within ${START_LIMIT_MS / 1000} s (does this host forbid inline scripts in frames?)`;
    markReady();
  }, START_LIMIT_MS);
  const channel = new MessageChannel();
  // What the frame answers; data, shown as text at most.
  channel.port1.onmessage = (event: MessageEvent) => {
    const reply = event.data as FrameMessage | null;
    if (!reply || typeof reply !== "object" || typeof reply.id !== "number") return;
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  };
  // The one window message taken: "ready" from this frame's document (an
  // opaque origin, "null"), answered with the port. Then none is listened to.
  const onReady = (event: MessageEvent) => {
    if (event.source !== frame.contentWindow || event.origin !== "null") return;
    if ((event.data as { kind?: unknown } | null)?.kind !== "ready") return;
    window.removeEventListener("message", onReady);
    frame.contentWindow?.postMessage({ kind: "port" }, "*", [channel.port2]);
    performance.mark("ptc-tools-ready");
    clearTimeout(startTimer);
    markReady();
  };
  window.addEventListener("message", onReady);
  // The frame's document loads once; another load is a navigation (blocked or not).
  let loads = 0;
  frame.addEventListener("load", () => {
    if (++loads > 1) navigated();
  });
  host.append(frame);

  return {
    /** Asks the frame once it is ready; null when it has not answered within `limitMs` of the question. */
    async ask(message: Record<string, unknown>, limitMs = Infinity): Promise<Reply | null> {
      await ready;
      if (unavailable) return { kind: "unavailable", message: unavailable };
      const id = nextId++;
      return new Promise<Reply | null>((resolve) => {
        const timer = limitMs < Infinity ? setTimeout(() => waiting.delete(id) && resolve(null), limitMs) : undefined;
        waiting.set(id, (reply) => {
          clearTimeout(timer);
          resolve(reply);
        });
        channel.port1.postMessage({ ...message, id });
      });
    },
    close(why = "the mock tools' sandbox was restarted while this call waited"): void {
      unavailable = why;
      clearTimeout(startTimer);
      window.removeEventListener("message", onReady);
      channel.port1.close();
      frame.remove();
      markReady(); // questions not asked yet are answered at once
      for (const answer of waiting.values()) answer({ kind: "unavailable", message: unavailable });
      waiting.clear();
    },
  };
}

/** The sandbox: a frame, replaced when it is stuck. */
export function createToolSandbox(host: HTMLElement = document.body): ToolSandbox {
  let frame: ReturnType<typeof openFrame>;
  let cache: { source: string; compiled: Promise<CompiledTools> } | undefined;
  let lastNames: string[] = [];

  const open = () => {
    const opened = openFrame(host, () => {
      if (frame === opened) restart(NAVIGATED);
    });
    return opened;
  };
  const restart = (why?: string) => {
    frame.close(why);
    frame = open();
    cache = undefined; // the new frame has evaluated nothing yet
  };
  frame = open();

  const callIn =
    (owner: ReturnType<typeof openFrame>, set: number, kind: "call" | "approve") =>
    async (name: string, args: Record<string, unknown>, info?: ToolInfo) => {
      const reply = await owner.ask({ kind, set, name, args, info });
      if (reply?.kind === "unavailable") throw new Error(reply.message);
      if (reply?.kind !== "result") throw new Error("the mock tools' sandbox answered out of turn");
      if (reply.ok) return reply.value;
      // An Error stays an Error (its message is what the run reports); a thrown string stays a string.
      throw reply.error.isError ? new Error(String(reply.error.message)) : String(reply.error.message);
    };

  const evaluate = async (source: string): Promise<CompiledTools> => {
    const owner = frame;
    const reply = await owner.ask({ kind: "compile", source }, COMPILE_LIMIT_MS);
    if (!reply) {
      const stuck: CompiledTools = {
        ok: false,
        message: `Tools: evaluating the tools text did not finish within ${COMPILE_LIMIT_MS} ms (an endless loop?)`,
      };
      if (owner === frame) {
        restart();
        cache = { source, compiled: Promise.resolve(stuck) }; // not again for the same text
      }
      return stuck;
    }
    if (reply.kind === "unavailable") return { ok: false, message: `Tools: ${reply.message}` };
    if (reply.kind !== "compiled") return { ok: false, message: "Tools: the mock tools' sandbox answered out of turn" };
    if (!reply.ok) return { ok: false, message: String(reply.message) };
    const names = Array.isArray(reply.names) ? reply.names.map(String) : [];
    lastNames = names;
    const traits = reply.traits && typeof reply.traits === "object" ? reply.traits : {};
    return {
      ok: true,
      names,
      traits,
      call: callIn(owner, reply.id, "call"),
      needsApproval: async (name, args) => (await callIn(owner, reply.id, "approve")(name, args)) === true,
    };
  };

  return {
    compile(source) {
      if (cache?.source === source) return cache.compiled;
      const compiled = evaluate(source);
      cache = { source, compiled };
      return compiled;
    },
    names: () => lastNames,
    restart,
  };
}
