// The playground page: three editors (program, context or input, mock tools),
// a live run on every edit, results, tool calls, memory across turns, the trace
// of step functions, sharing, and the operation reference. Everything runs in
// the visitor's tab. This file starts the page and wires its controls; the
// parts live in state.ts, layout.ts, run.ts, outcome.ts, trace-panel.ts and
// session.ts, and what differs per dialect in dialects.ts.
import { forEachDiagnostic } from "@codemirror/lint";
import { announce } from "./announce.js";
import { markedRangeOf, setText, textOf } from "../../js/src/editor/codemirror.js";
import {
  createEditors,
  insertIntoProgram,
  setDialect,
  setReference,
  setupTabs,
  toggleWrapping,
  wideLayout,
} from "./layout.js";
import { renderMemory, renderTurn, selectErrorInProgram, setStatus, showNotice } from "./outcome.js";
import { loadEngine, type Engine } from "./ptc.js";
import { renderReference } from "./reference.js";
import { $, escapeHtml } from "./render.js";
import { mockToolNames, prepareTools, runNow, scheduleRun, setReplay, trustTools } from "./run.js";
import {
  clearMemory,
  fillExampleSelect,
  nextTurn,
  openInitialSession,
  restoreFromHash,
  share,
  syncSelect,
} from "./session.js";
import { dialect, state, views } from "./state.js";
import { currentEntry, renderEntrySelect } from "./trace-panel.js";

performance.mark("ptc-app-start");

const initial = await openInitialSession();
createEditors(initial.session, { onEdit: scheduleRun, toolNames: mockToolNames });

function setupSharing(): void {
  $("share-button").addEventListener("click", () => void share());
  $("share-copy").addEventListener("click", async () => {
    const input = $<HTMLInputElement>("share-url");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      $("share-copy").textContent = "Copied";
      announce("Link copied to the clipboard");
    } catch {
      announce("Select the link and copy it");
    }
  });
  $("share-close").addEventListener("click", () => {
    $("share-box").hidden = true;
    $("share-button").focus();
  });
  window.addEventListener("hashchange", () => void restoreFromHash());
}

function setupControls(): void {
  fillExampleSelect();
  setupTabs();
  setupSharing();
  $("wrap-toggle").addEventListener("click", toggleWrapping);
  $("next-turn").addEventListener("click", nextTurn);
  for (const button of document.querySelectorAll(".trust-tools")) button.addEventListener("click", trustTools);
  $("reset-memory").addEventListener("click", clearMemory);
  $("replay-toggle").addEventListener("change", () => setReplay($<HTMLInputElement>("replay-toggle").checked));
  $("format-program").addEventListener("click", () => {
    const formatted = dialect().format(textOf(views.program));
    if (formatted !== null) setText(views.program, formatted);
    else announce(dialect().formatProblem);
  });
  $("entry-select").addEventListener("change", () => {
    state.entryChoice = $<HTMLSelectElement>("entry-select").value;
    renderEntrySelect();
    void runNow();
  });
  $("error-goto").addEventListener("click", selectErrorInProgram);
  $("reference-toggle").addEventListener("click", () => setReference($("reference").hidden, true));
  $("reference-close").addEventListener("click", () => {
    setReference(false);
    $("reference-toggle").focus();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    if (!$("reference").hidden && !wideLayout.matches && $("reference").contains(document.activeElement)) {
      setReference(false);
      $("reference-toggle").focus();
    } else if (!$("share-box").hidden && $("share-box").contains(document.activeElement)) {
      $("share-box").hidden = true;
      $("share-button").focus();
    }
  });
  document.querySelector(".skip-link")!.addEventListener("click", (e) => {
    e.preventDefault();
    views.program.focus();
  });
}

async function start(): Promise<void> {
  performance.mark("ptc-editors-done");
  // boot.js has usually started the engine already.
  const engineReady = (window as unknown as { __ptcEngine?: Promise<Engine> }).__ptcEngine ?? loadEngine();
  setupControls();
  setReference(wideLayout.matches && dialect().parts.reference);
  setDialect(state.dialect);
  syncSelect();
  renderTurn();
  renderMemory();
  if (initial.problem) showNotice(`Could not read the shared link (${initial.problem}); showing an example instead.`);
  performance.mark("ptc-example-loaded");
  prepareTools();
  let engine: Engine;
  try {
    engine = await engineReady;
    state.runtime = engine.runtime;
    state.engineInWorker = engine.inWorker;
    performance.mark("ptc-runtime-ready");
  } catch (e) {
    setStatus("error", `The engine could not load: ${escapeHtml((e as Error).message)}`);
    document.body.dataset.status = "engine-error";
    return;
  }
  $("engine-mode").textContent = engine.inWorker
    ? "Engine: WebAssembly in a Web Worker"
    : "Engine: WebAssembly in this page";
  await runNow();
  state.operations = engine.runtime.operations();
  renderReference($("ref-list"), $<HTMLInputElement>("ref-filter"), state.operations, insertIntoProgram);
}

// For the browser tests and curious visitors: the editors and the last outcome.
declare global {
  interface Window {
    __playground: unknown;
  }
}
window.__playground = {
  views,
  get latest() {
    return state.latest;
  },
  get runs() {
    return state.runsDone;
  },
  get firstResultAt() {
    return state.firstResultAt;
  },
  get engineInWorker() {
    return state.engineInWorker;
  },
  get dialect() {
    return state.dialect;
  },
  get entry() {
    return currentEntry();
  },
  /** The range a trace row marked in the program, with its text. */
  markedRange() {
    const r = markedRangeOf(views.program);
    return r && { ...r, text: views.program.state.sliceDoc(r.from, r.to) };
  },
  diagnostics(which: "program" | "context" = "program") {
    const view = which === "program" ? views.program : views.context;
    const out: { from: number; to: number; text: string; message: string }[] = [];
    forEachDiagnostic(view.state, (d, from, to) =>
      out.push({ from, to, text: view.state.sliceDoc(from, to), message: d.message }),
    );
    return out;
  },
};

void start();
