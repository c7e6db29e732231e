// Hover in the program editor, from the engine's operation table: over an op's
// name (the value of "op"), the op's description and shape; over a key of an
// object with an op, that field's kind, whether it is required, and what it is.
import { hoverTooltip, type Tooltip } from "@codemirror/view";
import type { Operation } from "../types/public.js";
import { cursorContext } from "./completion.js";

/** The text a hover shows at `pos` of a PTC-JSON text, or null where there is nothing to say. */
export function hoverText(
  text: string,
  pos: number,
  operations: Operation[],
): { from: number; to: number; title: string; body: string } | null {
  const where = cursorContext(text, pos);
  const str = where.string;
  if (!str) return null;
  const word = text.slice(str.from + 1, str.closed ? str.to - 1 : str.to);
  if (where.role === "value" && where.key === "op") {
    const op = operations.find((o) => o.name === word);
    if (!op) return null;
    return { from: str.from, to: str.to, title: `${op.name} · ${op.category}`, body: `${op.description}\n${op.shape}` };
  }
  if (where.role === "key") {
    const op = operations.find((o) => o.name === where.object?.op);
    if (word === "op" && op) return { from: str.from, to: str.to, title: "op", body: "The operation of this node" };
    const field = op?.fields.find((f) => f.name === word);
    if (!op || !field) return null;
    const need = field.presence === "required" ? "required" : field.presence === "one_of" ? "one of" : "optional";
    return {
      from: str.from,
      to: str.to,
      title: `${field.name} · ${field.kind} · ${need}`,
      body: `${field.description} (${op.name})${field.choices ? `\nOne of: ${field.choices.join(", ")}` : ""}`,
    };
  }
  return null;
}

/** The hover extension; `operations` is read on each hover (null while the engine loads). */
export function ptcHover(operations: () => Operation[] | null) {
  return hoverTooltip((view, pos): Tooltip | null => {
    const ops = operations();
    if (!ops) return null;
    const found = hoverText(view.state.doc.toString(), pos, ops);
    if (!found) return null;
    return {
      pos: found.from,
      end: found.to,
      above: true,
      create: () => {
        const dom = document.createElement("div");
        dom.className = "cm-ptcHover";
        const title = document.createElement("strong");
        title.textContent = found.title;
        const body = document.createElement("div");
        body.textContent = found.body;
        dom.append(title, body);
        return { dom };
      },
    };
  });
}
