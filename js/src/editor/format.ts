// JSON text in the layout the spec uses: a value stays on one line when it
// fits, otherwise one entry per line; lists of scalars are packed into lines.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isContainer = (v: unknown): v is object => typeof v === "object" && v !== null;

/** One-line JSON with a space after ':' and ',' (`{"op": "count"}`). */
export function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(", ")}]`;
  if (isContainer(value)) {
    const parts = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`);
    return `{${parts.join(", ")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Pretty JSON: lines fit `width` columns where they can. */
export function formatJson(value: unknown, width = 80): string {
  return format(value, 0, 0);

  // indent: columns before this value's lines; used: columns already taken on its first line.
  function format(v: unknown, indent: number, used: number): string {
    if (!isContainer(v)) return inlineJson(v);
    const flat = inlineJson(v);
    const empty = Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
    if (empty || used + flat.length <= width) return flat;
    const pad = " ".repeat(indent + 2);
    const close = " ".repeat(indent);
    if (Array.isArray(v)) {
      if (v.every((x) => !isContainer(x))) return packed(v.map(inlineJson), pad, close);
      return `[\n${v.map((x) => pad + format(x, indent + 2, indent + 2)).join(",\n")}\n${close}]`;
    }
    const lines = Object.entries(v).map(([k, x]) => {
      const key = `${JSON.stringify(k)}: `;
      return pad + key + format(x, indent + 2, indent + 2 + key.length);
    });
    return `{\n${lines.join(",\n")}\n${close}}`;
  }

  function packed(items: string[], pad: string, close: string): string {
    const lines: string[] = [];
    let line = "";
    for (const item of items) {
      const next = line ? `${line}, ${item}` : item;
      if (line && pad.length + next.length + 1 > width) {
        lines.push(line + ",");
        line = item;
      } else line = next;
    }
    lines.push(line);
    return `[\n${lines.map((l) => pad + l).join("\n")}\n${close}]`;
  }
}

/** Bytes of the UTF-8 encoding, as a short human-readable size. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}
