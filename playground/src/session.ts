// Sessions: what the page opens with (a shared link, else the first example),
// picking an example, a link opened while the page is open, turns (Next turn,
// Clear) and the Share button. share.ts encodes a session in the URL hash.
import { announce } from "./announce.js";
import { holdLinkTools, release } from "./consent.js";
import { setText, textOf } from "../../js/src/editor/codemirror.js";
import { exampleById, examples, type DialectId, type Example } from "./examples.js";
import { formatJson } from "../../js/src/editor/format.js";
import { setDialect } from "./layout.js";
import { renderMemory, renderTurn, showNotice } from "./outcome.js";
import { el, $ } from "./render.js";
import { resetReplay, runNow } from "./run.js";
import { decodeSession, encodeSession, type Session } from "./share.js";
import { dialect, state, views } from "./state.js";
import { currentEntry } from "./trace-panel.js";

export interface Initial {
  session: Session;
  /** Why the shared link could not be used. */
  problem?: string;
}

/** A session's dialect: as it says, else its example's, else PTC-JSON. */
function dialectOf(s: Session): DialectId {
  return s.dialect ?? exampleById(s.example)?.dialect ?? "ptc-json";
}

/** Takes a session's example, entry, turn and memory into the state (its texts go to the editors). */
function adopt(s: Session): void {
  state.exampleId = s.example && exampleById(s.example) ? s.example : undefined;
  state.entryChoice = s.entry;
  state.turn = s.turn ?? 1;
  state.memoryIn = s.memory ?? {};
}

/**
 * The first session: a shared link, else the first example. Read before the
 * editors exist, so they are created with its text (setting it afterwards
 * would cost three more editor updates before the first result).
 */
export async function openInitialSession(): Promise<Initial> {
  const ex = examples[0];
  const fallback: Session = {
    dialect: ex.dialect,
    program: ex.turns[0].program,
    context: ex.context,
    tools: ex.tools,
    example: ex.id,
    entry: ex.entry,
  };
  let initial: Initial;
  try {
    const shared = location.hash && location.hash !== "#" ? await decodeSession(location.hash) : null;
    if (shared) holdLinkTools(shared.tools); // a stranger's code
    initial = { session: shared ?? fallback };
  } catch (e) {
    initial = { session: fallback, problem: (e as Error).message };
  }
  adopt(initial.session);
  state.dialect = dialectOf(initial.session);
  return initial;
}

export function fillExampleSelect(): void {
  const select = $<HTMLSelectElement>("example-select");
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const ex of examples) {
    let group = groups.get(ex.group);
    if (!group) {
      group = el("optgroup", { label: ex.group });
      groups.set(ex.group, group);
      select.append(group);
    }
    group.append(el("option", { value: ex.id }, ex.label));
  }
  select.append(el("option", { value: "", disabled: "" }, "Shared or edited session"));
  select.addEventListener("change", () => {
    const ex = exampleById(select.value);
    if (ex) loadExample(ex);
  });
}

export function syncSelect(): void {
  $<HTMLSelectElement>("example-select").value = state.exampleId && exampleById(state.exampleId) ? state.exampleId : "";
}

function loadExample(ex: Example): void {
  showNotice(null);
  release(); // the page's own tools
  state.exampleId = ex.id;
  state.entryChoice = ex.entry;
  state.turn = 1;
  state.memoryIn = {};
  state.lastGood = null;
  resetReplay();
  setText(views.program, ex.turns[0].program);
  setText(views.context, ex.context);
  setText(views.tools, ex.tools);
  views.program.dispatch({ selection: { anchor: 0 }, scrollIntoView: true });
  setDialect(ex.dialect);
  syncSelect();
  renderTurn();
  renderMemory();
  void runNow();
}

/** A session from a link opened while the page is open (a hash change). */
function applySession(s: Session): void {
  showNotice(null);
  holdLinkTools(s.tools);
  adopt(s);
  state.lastGood = null;
  resetReplay();
  setText(views.program, s.program);
  setText(views.context, s.context);
  setText(views.tools, s.tools);
  setDialect(dialectOf(s));
  syncSelect();
  renderTurn();
  renderMemory();
  void runNow();
}

/** A link opened while the page is open (hashchange). */
export async function restoreFromHash(): Promise<boolean> {
  if (!location.hash || location.hash === "#") return false;
  try {
    const session = await decodeSession(location.hash);
    if (!session) return false;
    applySession(session);
    return true;
  } catch (e) {
    showNotice(`Could not read the shared link (${(e as Error).message}).`);
    return false;
  }
}

/** Next turn: the memory (and for a multi-turn example its next program, maybe the result as context) into the next run. */
export function nextTurn(): void {
  const latest = state.latest;
  if (!latest?.ok || !("memory" in latest)) return;
  state.memoryIn = latest.memory;
  state.turn++;
  const ex = exampleById(state.exampleId);
  const t = ex?.turns[state.turn - 1];
  if (t) {
    setText(views.program, t.program);
    if (t.contextFromPreviousResult) {
      let ctx: Record<string, unknown> = {};
      try {
        ctx = JSON.parse(textOf(views.context));
      } catch {
        /* replaced below */
      }
      setText(views.context, formatJson({ ...ctx, [t.contextFromPreviousResult]: latest.result }));
    }
  }
  renderTurn();
  renderMemory();
  void runNow();
  announce(`Turn ${state.turn}: ${Object.keys(state.memoryIn).length ? "memory carried over" : "memory is empty"}`);
}

export function clearMemory(): void {
  state.memoryIn = {};
  state.turn = 1;
  renderTurn();
  renderMemory();
  void runNow();
  announce("Memory cleared");
}

/** Share: the session into the URL hash, the link into the share box and the clipboard. */
export async function share(): Promise<void> {
  const parts = dialect().parts;
  const hash = await encodeSession({
    dialect: state.dialect,
    program: textOf(views.program),
    context: textOf(views.context),
    tools: textOf(views.tools),
    entry: parts.entry ? currentEntry() : undefined,
    memory: parts.memory && Object.keys(state.memoryIn).length ? state.memoryIn : undefined,
    turn: parts.memory && state.turn > 1 ? state.turn : undefined,
    example: state.exampleId,
  });
  history.replaceState(null, "", `#${hash}`);
  const url = location.href;
  const input = $<HTMLInputElement>("share-url");
  input.value = url;
  $("share-box").hidden = false;
  input.focus();
  input.select();
  try {
    await navigator.clipboard.writeText(url);
    announce("Link copied to the clipboard");
    $("share-copy").textContent = "Copied";
  } catch {
    announce("The link is in the address bar and in the box below the header");
    $("share-copy").textContent = "Copy";
  }
}
