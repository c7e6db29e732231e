// The page's shared state: the engine, the session being edited (dialect,
// example, entry, memory, turn) and what the runs gave. One object that the
// modules showing and changing it import (and the test hook reads); state that
// one module alone needs stays in that module.
import type { EditorView } from "@codemirror/view";
import { dialects, type Dialect, type Outcome } from "./dialects.js";
import type { DialectId } from "./examples.js";
import type { Operation, PtcRuntime } from "./ptc.js";

export const state = {
  runtime: null as PtcRuntime | null,
  engineInWorker: false,
  /** The engine's operation table (completion, the reference), once it is loaded. */
  operations: null as Operation[] | null,
  /** The example the session started from (its later turns stay reachable). */
  exampleId: undefined as string | undefined,
  /** The dialect of the program in the editor. */
  dialect: "ptc-json" as DialectId,
  /** Step functions: the entry the visitor picked (else the file's last function). */
  entryChoice: undefined as string | undefined,
  turn: 1,
  memoryIn: {} as Record<string, unknown>,
  /** The last successful run, shown greyed while the current inputs fail. */
  lastGood: null as Outcome | null,
  /** The outcome of the latest run (for the test hook and Next turn). */
  latest: null as Outcome | null,
  runsDone: 0,
  /** When the first result showed (ms after navigation start). */
  firstResultAt: null as number | null,
};

/** The current dialect's behaviour. */
export const dialect = (): Dialect => dialects[state.dialect];

export interface Views {
  program: EditorView;
  context: EditorView;
  tools: EditorView;
}

/** The three editors, made by layout.ts's createEditors before anything else uses them. */
export const views = {} as Views;
