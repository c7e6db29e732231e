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
// Step functions get the same split: run_workflow is read-only and refuses a
// file that calls a tool that writes; run_workflow_writes runs any file.
import { declarations } from "../run/descriptors.js";
import type { PtcRuntime } from "../runtimes/runtime.js";
import type { PtcError, Tool } from "../types/public.js";
import { programFrom, type SessionOutcome } from "./session.js";
import { requestPath, workflowFrom } from "./workflow-request.js";

/** run_program's annotations when run_program_writes takes the programs that write. */
export const READ_ONLY_RUN = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** run_program_writes' description: the language is run_program's; only what differs is said. */
export const WRITES_DESCRIPTION =
  "run_program for programs that call tools that write (same input and memory); a call that needs approval " +
  "asks the user first.";

/** run_workflow_writes' description: the dialect is run_workflow's; only what differs is said. */
export const WORKFLOW_WRITES_DESCRIPTION = "run_workflow for files that call tools that write.";

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

  /** What run_workflow's description adds where some tool writes. */
  get workflowNote(): string {
    return this.split ? " Files that write go to run_workflow_writes." : "";
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
    const error = writesError(analyzed.analysis.tools, "run_program", "programs", "program", "/program");
    return error && { ok: false, error, message: this.runtime.formatError(error, input) };
  }

  /**
   * run_workflow's refusal of a step-function file that calls a tool that
   * writes, found before it runs (runtime.analyzeWorkflow); undefined: run it
   * (a file the engine cannot verify fails as always, having called nothing).
   */
  workflowRefusal(given: unknown): SessionOutcome | undefined {
    if (!this.split) return undefined;
    const { source, entry, stepsAt } = workflowFrom(given);
    const analyzed = this.runtime.analyzeWorkflow(source, { tools: this.tools, ...(entry ? { entry } : {}) });
    if (!analyzed.ok) return undefined;
    const found = writesError(analyzed.analysis.tools, "run_workflow", "step-function files", "file", "/");
    const error = found && { ...found, path: requestPath(found.path, stepsAt) }; // the short form's pointer
    return error && { ok: false, error, message: this.runtime.formatError(error) };
  }
}

/** The read_only_program error of a run that calls tools that write; undefined when none does. */
function writesError(
  tools: { name: string; effect?: string; calls: { path?: string }[] }[],
  tool: string,
  runs: string,
  one: string,
  root: string,
): PtcError | undefined {
  const called = tools.filter((t) => t.effect === "write");
  if (!called.length) return undefined;
  const names = called.map((t) => `'${t.name}'`).join(", ");
  return {
    type: "validation_error",
    code: "read_only_program",
    message:
      `${tool} runs ${runs} that only read, and this ${one} calls ${names}, which ` +
      `${called.length === 1 ? "writes" : "write"}: nothing ran. Send the same ${one} to ${tool}_writes`,
    path: called[0]!.calls[0]?.path ?? root,
  };
}
