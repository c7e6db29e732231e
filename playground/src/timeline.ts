// The timeline of a PTC-JSON run's tool calls: one bar per call of the run's
// trace (`trace: true`), from when the engine issued it (`startMs`) to its
// answer, on one time axis, so the calls of a fan-out show as overlapping bars.
// A call still out when the run ended reaches to the end. A bar's word is the
// trace's outcome, or "recorded" for an answer from a recording (a replay, or
// the journal of a resumed run). Plain DOM.
import { formatMs } from "../../js/src/editor/format.js";
import type { ToolCallTrace } from "./ptc.js";
import { $, el } from "./render.js";

/** One bar, in ms since the run (or resumed leg) started. */
interface Bar {
  entry: ToolCallTrace;
  start: number;
  end: number;
  outcome: string;
}

function bars(trace: ToolCallTrace[], elapsed: number): Bar[] {
  return trace.map((entry) => {
    const start = Math.max(0, entry.startMs);
    const end = entry.outcome === "abandoned" ? Math.max(start, elapsed) : start + entry.durationMs;
    return { entry, start, end, outcome: entry.answeredBy === "recording" ? "recorded" : entry.outcome };
  });
}

/** Shows the timeline of a run's trace (hidden when the run made no call or has no trace). */
export function renderTimeline(trace: ToolCallTrace[] | undefined, elapsed: number): void {
  const box = $("timeline");
  box.hidden = !trace?.length;
  if (!trace?.length) return;
  const placed = bars(trace, elapsed);
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
