// run_program read-only, run_program_writes for the programs that write.
//
// A host reads a tool's annotations once for all its calls: were run_program
// destructive whenever some tool writes, the host would ask before every
// program, read-only ones too, on top of the approval each call that needs one
// gets (elicitation). So where some tool writes, the MCP server offers two
// tools: run_program, read-only for the host (readOnlyHint), which refuses a
// program that calls a tool that writes before anything runs, and
// run_program_writes, which runs any program and is annotated as writing. A
// host can then let read-only programs run without asking, and ask (or not)
// before those that write; per-call approval stays the only prompt of a read.
import { declarations } from "../run/descriptors.js";
import type { PtcRuntime } from "../runtimes/runtime.js";
import type { PtcError, Tool } from "../types/public.js";
import { programFrom, type SessionOutcome } from "./session.js";

/** run_program's annotations when run_program_writes takes the programs that write. */
export const READ_ONLY_RUN = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** run_program_writes' description: the language is run_program's; only what differs is said. */
export const WRITES_DESCRIPTION =
  "run_program for programs that call tools that write (same input and memory); a call that needs approval " +
  "asks the user first.";

const writes = (tool: Tool) => declarations(tool)?.effect === "write";

export class ReadOnlyPrograms {
  /** Whether some tool writes: then run_program is read-only and run_program_writes is offered. */
  readonly split: boolean;
  /** What run_program's description adds (the compact prompt is the same either way). */
  readonly note: string;

  constructor(
    private readonly runtime: PtcRuntime,
    private readonly tools: Record<string, Tool>,
  ) {
    this.split = Object.values(tools).some(writes);
    this.note = this.split ? "\nPrograms that call a tool that writes go to run_program_writes." : "";
  }

  /**
   * run_program's refusal of a program that calls a tool that writes, found
   * before it runs (runtime.analyze); undefined: run it. A program the engine
   * cannot read runs as always, and fails with the engine's error, having
   * called nothing.
   */
  refusal(program: unknown): SessionOutcome | undefined {
    if (!this.split) return undefined;
    const input = programFrom(program);
    const analyzed = this.runtime.analyze(input, { tools: this.tools });
    if (!analyzed.ok) return undefined;
    const called = analyzed.analysis.tools.filter((t) => t.effect === "write");
    if (!called.length) return undefined;
    const names = called.map((t) => `'${t.name}'`).join(", ");
    const error: PtcError = {
      type: "validation_error",
      code: "read_only_program",
      message:
        `run_program runs programs that only read, and this one calls ${names}, which ` +
        `${called.length === 1 ? "writes" : "write"}: nothing ran. Send the same program to run_program_writes`,
      path: called[0]!.calls[0]?.path ?? "/program",
    };
    return { ok: false, error, message: this.runtime.formatError(error, input) };
  }
}
