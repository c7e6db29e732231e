// What tools do to the world, as their descriptors declare it: `effect`
// ("read" or "write"), `approval`, `defer`. The gate (journal.ts) acts on them
// during a run; here they annotate what analyze() reports and what
// validateWorkflow() warns of, before anything runs.
import { declarations } from "../run/descriptors.js";
import type { AnalysisTool, AnalyzeResult, Tool, ValidateResult, WorkflowAnalysis } from "../types/public.js";

/** "write" when the tool's descriptor says so; anything else reads. */
export function effectOf(tool: unknown): "read" | "write" {
  return declarations(tool)?.effect === "write" ? "write" : "read";
}

const toolsObject = (tools: unknown): Record<string, Tool> | undefined =>
  tools && typeof tools === "object" && !Array.isArray(tools) ? (tools as Record<string, Tool>) : undefined;

/** The analysis with each tool's effect (and approval, defer) when the tools given are an object of tools. */
export function withEffects<A extends { tools: AnalysisTool[] }>(
  result: AnalyzeResult<A>,
  tools: unknown,
): AnalyzeResult<A> {
  const given = toolsObject(tools);
  if (!result.ok || !given) return result;
  for (const entry of result.analysis.tools) {
    const declared = declarations(given[entry.name]);
    entry.effect = declared?.effect === "write" ? "write" : "read";
    if (declared?.approval === true || typeof declared?.approval === "function") entry.approval = true;
    if (declared?.defer === true) entry.deferred = true;
  }
  return result;
}

/**
 * A valid step-function file's warnings: each call of a "write" tool after
 * which a step may fail without any compensation, leaving the write standing.
 */
export function compensationWarnings(
  valid: ValidateResult,
  analysis: AnalyzeResult<WorkflowAnalysis>,
  tools: unknown,
): ValidateResult {
  const given = toolsObject(tools);
  if (!valid.ok || !analysis.ok || !given) return valid;
  const warnings = [];
  for (const entry of analysis.analysis.tools) {
    if (effectOf(given[entry.name]) !== "write") continue;
    for (const call of entry.calls)
      if (call.uncompensatedAfter)
        warnings.push({
          code: "write_not_compensated" as const,
          path: call.path,
          tool: entry.name,
          message:
            `The write tool '${entry.name}' called at ${call.path} is not compensated: the call at ` +
            `${call.uncompensatedAfter} may fail after it without rolling anything back. Give that step ` +
            `"on-error": {"compensate": [...]} with a call that undoes '${entry.name}', or give the call of ` +
            `'${entry.name}' "undo": {"call": ..., "args": {...}} (it runs if the function fails later)`,
        });
  }
  warnings.sort((a, b) => comparePointers(a.path, b.path));
  return warnings.length ? { ok: true, warnings } : valid;
}

// Pointers in the order their steps are written ("/0/steps/2" before "/0/steps/10").
function comparePointers(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    const [m, n] = [Number(x[i]), Number(y[i])];
    return Number.isInteger(m) && Number.isInteger(n) ? m - n : (x[i] as string) < (y[i] as string) ? -1 : 1;
  }
  return x.length - y.length;
}
