// The operation reference, generated from the engine's table (runtime.operations()).
import { formatJson, inlineJson } from "../../js/src/editor/format.js";
import type { Operation } from "./ptc.js";
import { el, highlightJson } from "./render.js";

const CATEGORY_TITLES: Record<string, string> = {
  data: "Data",
  collections: "Collections",
  aggregation: "Aggregation",
  access: "Access",
  comparison: "Comparison",
  arithmetic: "Arithmetic",
  logic: "Logic",
  tools: "Tools",
  combine: "Combine",
};

/** Fills a node with text whose `backticked` parts become <code>. */
function withCode(node: HTMLElement, text: string): HTMLElement {
  text.split(/`([^`]+)`/).forEach((part, i) => node.append(i % 2 ? el("code", {}, part) : part));
  return node;
}

const title = (category: string) => CATEGORY_TITLES[category] ?? category.charAt(0).toUpperCase() + category.slice(1);

export function renderReference(
  list: HTMLElement,
  filter: HTMLInputElement,
  ops: Operation[],
  onInsert: (example: string) => void,
): void {
  list.replaceChildren();
  const categories = [...new Set(ops.map((o) => o.category))];
  const articles: { op: Operation; node: HTMLElement; section: HTMLElement }[] = [];
  for (const category of categories) {
    const headingId = `ref-cat-${category}`;
    const section = el(
      "section",
      { class: "ref-cat", "aria-labelledby": headingId },
      el("h3", { id: headingId }, title(category)),
    );
    for (const op of ops.filter((o) => o.category === category)) {
      const example = inlineJson(op.example);
      const insert = el(
        "button",
        { type: "button", class: "btn small", "aria-label": `Insert the ${op.name} example into the program` },
        "Insert",
      );
      insert.addEventListener("click", () => onInsert(example));
      const fields = el("ul", { class: "ref-fields" });
      for (const f of op.fields) {
        const presence = f.presence === "one_of" ? "one of" : f.presence;
        fields.append(
          el(
            "li",
            {},
            el("code", { class: "ref-field" }, f.name),
            " ",
            el("span", { class: "ref-kind" }, f.kind),
            " ",
            el("span", { class: `ref-presence ${f.presence}` }, presence),
            " ",
            withCode(el("span", { class: "ref-desc" }), f.description),
          ),
        );
      }
      const pre = el("pre", { class: "json ref-example", role: "group", "aria-label": `Example of ${op.name}` });
      pre.innerHTML = highlightJson(formatJson(op.example, 46));
      const node = el(
        "article",
        { class: "ref-op", id: `op-${op.name}` },
        el("div", { class: "ref-op-head" }, el("h4", {}, el("code", {}, op.name)), insert),
        withCode(el("p", { class: "ref-description" }), op.description),
        ...(op.fields.length ? [fields] : [el("p", { class: "ref-nofields" }, "No fields.")]),
        pre,
      );
      section.append(node);
      articles.push({ op, node, section });
    }
    list.append(section);
  }
  const count = document.getElementById("ref-count");
  const apply = () => {
    const q = filter.value.trim().toLowerCase();
    let shown = 0;
    for (const a of articles) {
      const hit =
        !q || a.op.name.includes(q) || a.op.description.toLowerCase().includes(q) || a.op.category.includes(q);
      a.node.hidden = !hit;
      if (hit) shown++;
    }
    for (const section of list.querySelectorAll<HTMLElement>(".ref-cat"))
      section.hidden = !section.querySelector(".ref-op:not([hidden])");
    if (count) count.textContent = q ? `${shown} of ${ops.length} operations` : `${ops.length} operations`;
  };
  filter.addEventListener("input", apply);
  apply();
}
