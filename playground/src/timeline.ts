// The timeline of a PTC-JSON run's tool calls: one bar per call of the run's
// trace (`trace: true`), from when the engine issued it to its answer, on one
// time axis, so the calls of a fan-out show as overlapping bars. Plain DOM.
//
// The trace gives each call's duration but not when it started; the page's own
// tool wrappers know when each live call started and answered (run.ts). A
// call's bar ends at its answer and is as long as the trace says; a call no
// tool answered (replayed or answered from the journal on resume, held for a
// decision, cut off) starts where the call before it started, since the engine
// issues calls in the trace's order. A bar's word is the trace's outcome, or
// "recorded" for a value that came from a recording.
import { formatMs } from "./format.js";
import type { CallRecord } from "./outcome.js";
import type { ToolCallTrace } from "./ptc.js";
import { $, el } from "./render.js";

/** One bar, in ms since the run (or resumed leg) started. */
interface Bar {
  entry: ToolCallTrace;
  start: number;
  end: number;
  outcome: string;
}

/** Places the trace's calls on the time axis with the live calls' times (`calls`: this leg's, in call order). */
function bars(trace: ToolCallTrace[], calls: CallRecord[], elapsed: number): Bar[] {
  const live = calls.map((c) => ({ c, key: `${c.tool} ${JSON.stringify(c.args)}` }));
  let previous = 0;
  return trace.map((entry) => {
    const key = `${entry.tool} ${JSON.stringify(entry.args)}`;
    const i = live.findIndex((l) => l.key === key);
    const record = i >= 0 ? live.splice(i, 1)[0].c : undefined;
    let start: number;
    let end: number;
    if (record?.ms !== undefined) {
      end = record.at + record.ms;
      start = Math.max(0, Math.min(record.at, end - entry.durationMs));
    } else if (record) {
      start = record.at; // still out when the run ended
      end = Math.max(start, elapsed);
    } else {
      start = previous;
      end = start + entry.durationMs;
    }
    start = Math.max(start, previous); // issued in the trace's order
    end = Math.max(start, end);
    previous = start;
    // A value no live call gave came from a recording (replay, or the journal of a resumed run).
    return { entry, start, end, outcome: !record && entry.outcome === "value" ? "recorded" : entry.outcome };
  });
}

/** Shows the timeline of a run's trace (hidden when the run made no call or has no trace). */
export function renderTimeline(trace: ToolCallTrace[] | undefined, calls: CallRecord[], elapsed: number): void {
  const box = $("timeline");
  box.hidden = !trace?.length;
  if (!trace?.length) return;
  const placed = bars(trace, calls, elapsed);
  const total = Math.max(elapsed, ...placed.map((b) => b.end), 1);
  const pct = (ms: number) => `${((ms / total) * 100).toFixed(2)}%`;
  $("timeline-span").textContent = `${trace.length} call${trace.length === 1 ? "" : "s"} in ${formatMs(total)}`;
  $("timeline-rows").replaceChildren(
    ...placed.map((b) => {
      const bar = el("span", { class: "tl-bar" });
      bar.style.left = pct(b.start);
      bar.style.width = pct(b.end - b.start);
      const label = b.outcome;
      const details = `${b.entry.tool} ${JSON.stringify(b.entry.args)} at ${b.entry.path}: ${label}${b.entry.error ? ` (${b.entry.error})` : ""}`;
      return el(
        "li",
        {
          class: `tl-row tl-${b.outcome}`,
          title: details,
          "data-start": b.start.toFixed(1),
          "data-end": b.end.toFixed(1),
        },
        el("code", { class: "tl-tool" }, b.entry.tool),
        el("span", { class: "tl-track", "aria-hidden": "true" }, bar),
        el("span", { class: "tl-ms" }, `${Math.round(b.start)}–${Math.round(b.end)} ms `, el("span", {}, label)),
      );
    }),
  );
}
