// The embeddable editor: the playground's program editor (CodeMirror 6 with
// errors at their place, completion and hover from the engine's op table) and a
// run panel (result, warnings, tool calls), mounted into any element of a page.
// The entry js/src/editor.ts gives it the package's default runtime (a Web
// Worker in browsers); this file takes any PtcRuntime.
import { forEachDiagnostic } from "@codemirror/lint";
import type { EditorView } from "@codemirror/view";
import type { PtcRuntime } from "../runtimes/runtime.js";
import type { JsonValue, PtcError, RunOptions, RunResult, Tool } from "../types/public.js";
import { createEditor, mark, markRange, setText, textOf } from "./codemirror.js";
import { ptcCompletionSource } from "./completion.js";
import { errorDiagnostic, errorRange, ptcPointerRange } from "./diagnostics.js";
import { errorLine } from "./errors.js";
import { formatJson } from "./format.js";
import { ptcHover } from "./hover.js";
import { createPanel } from "./panel.js";
import { el } from "./render.js";
import { adoptStyles } from "./styles.js";

/** Options of mount(element, options). */
export interface EditorOptions {
  /** The runtime that checks and runs the program. ptc-wasm/editor's mount: createRuntime() when left out (the engine in a Web Worker). */
  runtime?: PtcRuntime | Promise<PtcRuntime>;
  /** The program's text, or the program as a value (laid out as JSON). Default: a small example. */
  program?: string | JsonValue;
  /** Data the program reads with `load` (RunOptions.context). */
  context?: Record<string, unknown>;
  /** The tools the program may call. */
  tools?: Record<string, Tool>;
  /**
   * Run the program after each edit (debounced). Default: true without `tools`,
   * false with them (a tool may have effects; the Run button runs). Without a
   * run, each edit is still validated and its errors marked.
   */
  runOnEdit?: boolean;
  /** Milliseconds of quiet after an edit before the check or run (default 300). */
  debounceMs?: number;
  /** Further options of each run (limits, timeoutMs...); context, tools, signal and trace are the editor's. */
  runOptions?: Omit<RunOptions, "context" | "tools" | "signal" | "trace">;
  /** Show the run panel (default true); without it the editor still marks errors. */
  panel?: boolean;
  /** "light", "dark", or "auto" (the OS's; default). Colours: the --ptc-* custom properties. */
  theme?: "light" | "dark" | "auto";
  /** The program editor's accessible name (default "Program (PTC-JSON)"). */
  label?: string;
  /** Called with the program's text after each edit. */
  onChange?: (program: string) => void;
  /** Called with each finished run's result. */
  onRun?: (result: RunResult) => void;
}

/** An error mark of the program editor: where it is, and what it says. */
export interface EditorDiagnostic {
  from: number;
  to: number;
  severity: "error" | "warning" | "info" | "hint";
  message: string;
}

/** What mount() returns. */
export interface MountedEditor {
  /**
   * The element mount() filled: the editor is in its (open) shadow root; the
   * element has class "ptc-editor-host" and data-status: loading, running, ok, error or idle.
   */
  readonly element: HTMLElement;
  /** The runtime, once it has loaded. */
  readonly ready: Promise<PtcRuntime>;
  /** The program's text. */
  getProgram(): string;
  /** Replaces the program's text (undoable; checks or runs it as an edit would). */
  setProgram(program: string | JsonValue): void;
  /** Replaces the data for `load`, and the tools (then checks or runs again). */
  setInputs(inputs: { context?: Record<string, unknown>; tools?: Record<string, Tool> }): void;
  /** Runs the program now (a run still going is aborted). */
  run(): Promise<RunResult>;
  /** The last finished run, if any. */
  readonly lastResult: RunResult | null;
  /** The error marks in the program now. */
  diagnostics(): EditorDiagnostic[];
  /** Focuses the program editor. */
  focus(): void;
  /** Removes the editor from the page (the runtime stays the caller's, unless mount made it). */
  destroy(): void;
}

const EXAMPLE: JsonValue = {
  program: {
    op: "pipe",
    steps: [
      { op: "load", name: "orders" },
      { op: "filter", where: { op: "gt", field: "total", value: 100 } },
      { op: "select", fields: ["id", "total"] },
    ],
  },
};

const textFor = (program: string | JsonValue) => (typeof program === "string" ? program : formatJson(program));

/**
 * Mounts the editor into `element`'s shadow root (made when it has none; an
 * element that can hold one: div, section, main, a custom element...). `runtime` is required here.
 */
export function mountEditor(
  element: HTMLElement,
  options: EditorOptions & { runtime: Promise<PtcRuntime> },
): MountedEditor {
  // A shadow root: the host page's CSS does not reach in, and CodeMirror's style
  // rules become a constructed style sheet there (in a document they would be a
  // <style> element, which a policy without style-src 'unsafe-inline' blocks).
  // Custom properties (--ptc-*) still inherit into it.
  const shadow = element.shadowRoot ?? element.attachShadow({ mode: "open" });
  adoptStyles(shadow);
  shadow.textContent = "";
  element.classList.add("ptc-editor-host");
  const frame = el("div", { class: "ptc-editor", "data-theme": options.theme ?? "auto" });
  shadow.append(frame);
  let context = options.context;
  let tools = options.tools;
  const runOnEdit = options.runOnEdit ?? !tools;
  let runtime: PtcRuntime | null = null;
  let operations: ReturnType<PtcRuntime["operations"]> | null = null;
  let lastResult: RunResult | null = null;
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const programHost = el("div", { class: "ptc-editor__program" });
  const body = el("div", { class: "ptc-editor__body" }, programHost);
  frame.append(body);
  const panel =
    options.panel === false
      ? null
      : createPanel([element, frame], {
          onRun: () => void run(),
          onCall: (path) => {
            const range = ptcPointerRange(path, textOf(view), view.state);
            if (range) markRange(view, range);
          },
          showRunButton: true,
        });
  if (panel) body.append(panel.root);
  panel?.setStatus("loading", "Loading the engine…");

  const view = createEditor({
    parent: programHost,
    doc: textFor(options.program ?? EXAMPLE),
    label: options.label ?? "Program (PTC-JSON)",
    language: "json",
    onChange: (v) => {
      options.onChange?.(textOf(v));
      schedule();
    },
    completion: ptcCompletionSource({
      operations: () => operations,
      toolNames: () => Object.keys(tools ?? {}),
      contextKeys: () => Object.keys(context ?? {}),
    }),
    extra: [ptcHover(() => operations)],
  });

  const message = (error: PtcError) => (runtime ? runtime.formatError(error) : errorLine(error));

  /** Marks an error of the program that ran (`program`) at its place, or clears the marks. */
  function markError(error: PtcError | null, program: string): void {
    const range = error && errorRange(error, program, view.state);
    mark(view, error && range ? [errorDiagnostic(error, range, message(error))] : []);
  }

  function check(): void {
    if (!runtime) return;
    const program = textOf(view);
    const checked = runtime.validate(program);
    markError(checked.ok ? null : checked.error, program);
    if (panel && !checked.ok) panel.setStatus("error", `✗ ${checked.error.type}`);
    else panel?.setStatus("idle", "Edited: press Run");
  }

  function schedule(): void {
    clearTimeout(timer);
    timer = setTimeout(() => (runOnEdit ? void run() : check()), options.debounceMs ?? 300);
  }

  async function run(): Promise<RunResult> {
    clearTimeout(timer);
    controller?.abort();
    const mine = (controller = new AbortController());
    const rt = runtime ?? (await ready);
    const program = textOf(view);
    panel?.setStatus("running", "Running…");
    const result = await rt.run(program, {
      ...options.runOptions,
      context,
      tools,
      trace: true,
      signal: mine.signal,
    });
    if (mine !== controller || destroyed) return result; // a newer run (or destroy) took over
    controller = null;
    lastResult = result;
    markError(result.ok ? null : result.error, program);
    panel?.show(result, result.ok ? "" : message(result.error));
    options.onRun?.(result);
    return result;
  }

  let destroyed = false;
  const ready = options.runtime.then(
    (rt) => {
      runtime = rt;
      operations = rt.operations();
      if (!destroyed) {
        if (runOnEdit) void run();
        else check();
      }
      return rt;
    },
    (e: unknown) => {
      panel?.showProblem("The engine could not load", e instanceof Error ? e.message : String(e));
      throw e;
    },
  );
  ready.catch(() => {});

  return {
    element,
    ready,
    getProgram: () => textOf(view),
    setProgram(program) {
      setText(view, textFor(program));
    },
    setInputs(inputs) {
      if ("context" in inputs) context = inputs.context;
      if ("tools" in inputs) tools = inputs.tools;
      schedule();
    },
    run,
    get lastResult() {
      return lastResult;
    },
    diagnostics() {
      const out: EditorDiagnostic[] = [];
      forEachMark(view, (d) => out.push(d));
      return out;
    },
    focus: () => view.focus(),
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      controller?.abort();
      view.destroy();
      shadow.textContent = "";
      element.classList.remove("ptc-editor-host");
      delete element.dataset.status;
    },
  };
}

function forEachMark(view: EditorView, f: (d: EditorDiagnostic) => void): void {
  forEachDiagnostic(view.state, (d, from, to) => f({ from, to, severity: d.severity, message: d.message }));
}
