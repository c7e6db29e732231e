// A suspended run's pending calls (a mock tool with `approval`), each with
// Approve and Deny (and an optional reason for a denial). Once every call is
// decided, `onDecided` gets the results for runtime.resume (run.ts resumes the
// run and shows what it gives: the final outcome, or the next suspension).
import { announceOutcome } from "./announce.js";
import type { Suspended } from "./dialects.js";
import type { CallResult } from "./ptc.js";
import { $, el } from "./render.js";

const REASONS: Record<string, string> = {
  approval: "asks for approval",
  deferred: "the host runs it",
  suspend: "the run stops at every call",
};

/** Hides the pending calls (the run on screen did not stop at any). */
export function hidePending(): void {
  $("pending").hidden = true;
  $("pending-list").replaceChildren();
}

/** Lists the run's pending calls with their buttons; `onDecided` runs once all are decided. */
export function showPending(r: Suspended, onDecided: (results: Record<string, CallResult>) => void): void {
  const results: Record<string, CallResult> = {};
  const items = r.pending.map((p) => {
    const args = JSON.stringify(p.args);
    const reason = el("input", {
      type: "text",
      class: "pending-reason",
      placeholder: "optional",
      "aria-label": `Reason for denying ${p.tool}`,
    });
    const approve = el(
      "button",
      { type: "button", class: "btn small primary", "aria-label": `Approve ${p.tool} ${args}` },
      "Approve",
    );
    const deny = el("button", { type: "button", class: "btn small", "aria-label": `Deny ${p.tool} ${args}` }, "Deny");
    const actions = el("div", { class: "pending-actions" }, approve, deny, el("label", {}, "Reason ", reason));
    const item = el(
      "li",
      { class: "call pending-call", "data-id": p.id },
      el(
        "div",
        { class: "call-head" },
        el("code", { class: "call-name" }, p.tool),
        el("code", { class: "call-args", title: args }, args),
      ),
      el("p", { class: "pending-where" }, `at ${p.path} · ${REASONS[p.reason] ?? p.reason}`),
      actions,
    );
    const decide = (result: CallResult, text: string) => {
      results[p.id] = result;
      actions.replaceChildren(
        el("span", { class: `badge ${"approved" in result && result.approved ? "ok" : "error"}` }, text),
      );
      const next = items.find((i) => !(i.dataset.id! in results));
      if (next) next.querySelector("button")?.focus();
      else {
        $("result").focus();
        onDecided(results);
      }
    };
    approve.addEventListener("click", () => decide({ approved: true }, "approved"));
    deny.addEventListener("click", () => {
      const why = reason.value.trim();
      decide(why ? { approved: false, reason: why } : { approved: false }, why ? `denied: ${why}` : "denied");
    });
    return item;
  });
  $("pending-list").replaceChildren(...items);
  $("pending").hidden = false;
  const n = r.pending.length;
  announceOutcome(
    `suspended:${r.pending.map((p) => p.id).join()}`,
    `The run waits: ${n} tool call${n === 1 ? "" : "s"} to approve or deny`,
  );
}
