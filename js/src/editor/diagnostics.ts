// Errors at their place: the text range of an engine error in the program
// that ran (a parse error's byte offset, else the node its JSON Pointer names),
// and the lint mark the editor draws there.
import type { Diagnostic } from "@codemirror/lint";
import type { EditorState } from "@codemirror/state";
import type { PtcError } from "../types/public.js";
import { ERROR_TITLES } from "./errors.js";
import { byteOffsetToIndex, resolvePointer, tokenEnd } from "./positions.js";

export interface TextRange {
  from: number;
  to: number;
}

/** A PTC-JSON program's range for a JSON Pointer, read from the editor's syntax tree. */
export function ptcPointerRange(path: string, _program: string, editor: EditorState): TextRange | null {
  const range = resolvePointer(editor, path);
  return range ? { from: range.from, to: range.to } : null;
}

/**
 * Where an error is in `program` (the text that ran): a parse error at its
 * byte offset (the token there), any other error where its path points
 * (`pointerRange`: the dialect's reading of a JSON Pointer); null when it has no place.
 */
export function errorRange(
  error: PtcError,
  program: string,
  editor: EditorState,
  pointerRange: (path: string, program: string, editor: EditorState) => TextRange | null = ptcPointerRange,
): TextRange | null {
  if (error.type === "parse_error") {
    if (typeof error.position === "number") {
      const from = byteOffsetToIndex(program, error.position);
      return { from, to: Math.max(tokenEnd(program, from), from) };
    }
    return { from: 0, to: Math.min(program.length, tokenEnd(program, program.search(/\S|$/))) };
  }
  if (error.path === undefined) return null;
  return pointerRange(error.path, program, editor);
}

/** The lint mark of an error at its range (`message`: the error as the reader should see it). */
export function errorDiagnostic(error: PtcError, range: TextRange, message: string): Diagnostic {
  return { ...range, severity: "error", message, source: ERROR_TITLES[error.type] ?? error.type };
}
