// The mock tools' frame (tools-frame.html, see sandbox.ts): evaluates a tools text
// when the page asks and calls its tools, answering over the MessageChannel port
// the page sends in reply to "ready". scripts/bundle-playground.mjs inlines this
// script into tools-frame.html, allowed there by its hash alone.
import type { ToolTraits } from "./sandbox.js";

/** What a tool threw, as it crosses back: an Error's message, or the thrown value as text. */
interface Thrown {
  isError: boolean;
  message: string;
}

function frameMain(): void {
  type Fn = (args: unknown, info?: unknown) => unknown;
  type Entry = { execute: Fn; approval?: boolean | Fn };
  /** Evaluated tool sets by id; the page asks for a new set when the text changes. */
  const sets = new Map<number, Record<string, Entry>>();
  // The page's port (sent once, in answer to "ready"): every question comes and every answer goes through it.
  let port: MessagePort | undefined;
  const send = (message: unknown) => port?.postMessage(message);
  const text = (get: () => unknown, fallback: string): string => {
    try {
      return String(get());
    } catch {
      return fallback;
    }
  };
  // Like the package's failureMessage: an Error's message, a string as is, anything else as JSON.
  const thrown = (reason: unknown): Thrown => {
    if (reason instanceof Error)
      return {
        isError: true,
        message: text(() => reason.message || reason.name, "an Error whose message cannot be read"),
      };
    if (typeof reason === "string") return { isError: false, message: reason };
    try {
      return { isError: false, message: JSON.stringify(reason) ?? text(() => reason, "an unprintable value") };
    } catch {
      return { isError: false, message: text(() => reason, "an unprintable value") };
    }
  };
  const compile = (id: number, source: string) => {
    try {
      // The text is an object literal's body; a trailing newline keeps a final `// comment` harmless.
      const value: unknown = new Function(`"use strict";\nreturn ({\n${source}\n});`)();
      const tools: Record<string, Entry> = {};
      const traits: Record<string, ToolTraits> = {};
      const bad: string[] = [];
      for (const [name, t] of Object.entries(value as Record<string, unknown>)) {
        const d = t as { execute?: unknown; approval?: unknown; effect?: unknown } | null;
        const approval = typeof d?.approval;
        if (typeof t === "function") tools[name] = { execute: t as Fn };
        else if (
          d &&
          typeof d === "object" &&
          typeof d.execute === "function" &&
          ["undefined", "boolean", "function"].includes(approval) &&
          [undefined, "read", "write"].includes(d.effect as string | undefined)
        ) {
          tools[name] = { execute: d.execute as Fn, approval: d.approval as Entry["approval"] };
          traits[name] = {
            write: d.effect === "write" || undefined,
            approval: d.approval === true ? "always" : typeof d.approval === "function" ? "check" : undefined,
          };
        } else bad.push(name);
      }
      if (bad.length) {
        const list = bad.map((b) => `'${b}'`).join(", ");
        send({
          kind: "compiled",
          id,
          ok: false,
          message: `Tools: ${list} ${bad.length === 1 ? "is" : "are"} not a function or a descriptor { execute, effect?, approval? }`,
        });
        return;
      }
      sets.set(id, tools);
      for (const old of sets.keys()) if (sets.size > 4 && old !== id) sets.delete(old);
      send({ kind: "compiled", id, ok: true, names: Object.keys(tools), traits });
    } catch (e) {
      const name = text(() => (e as Error).name, "Error");
      send({ kind: "compiled", id, ok: false, message: `Tools: ${name}: ${thrown(e).message}` });
    }
  };
  // `approve`: the answer is whether the call needs asking (the descriptor's approval check).
  const call = async (id: number, set: number, name: string, args: unknown, info: unknown, approve: boolean) => {
    try {
      const tool = sets.get(set)?.[name];
      if (!tool) throw new Error(`the tools were edited while this run waited (no '${name}' in them any more)`);
      const check = tool.approval;
      const value = approve
        ? typeof check === "function"
          ? (await check(args)) !== false // only false means no asking, as in the package
          : check === true
        : await tool.execute(args, info);
      try {
        send({ kind: "result", id, ok: true, value });
      } catch (e) {
        // A function or a DOM object cannot be copied out of the frame.
        send({
          kind: "result",
          id,
          ok: false,
          error: { isError: true, message: `returned a value that is not JSON data (${thrown(e).message})` },
        });
      }
    } catch (e) {
      send({ kind: "result", id, ok: false, error: thrown(e) });
    }
  };
  const onQuestion = (event: MessageEvent) => {
    const m = event.data;
    if (m?.kind === "compile") compile(m.id, m.source);
    else if (m?.kind === "call" || m?.kind === "approve")
      void call(m.id, m.set, m.name, m.args, m.info, m.kind === "approve");
  };
  addEventListener("message", (event: MessageEvent) => {
    if (port || event.source !== parent || event.data?.kind !== "port" || !event.ports[0]) return;
    port = event.ports[0];
    port.onmessage = onQuestion;
  });
  parent.postMessage({ kind: "ready" }, "*");
}

frameMain();
