// What a screen reader is told (the page's polite live region, #announcer).
import { $ } from "./render.js";

let timer: ReturnType<typeof setTimeout> | undefined;
/** What the last run outcome announced: only a change is spoken (runs happen while typing). */
let lastOutcomeKey = "ok";

export function announce(message: string): void {
  const node = $("announcer");
  node.textContent = "";
  clearTimeout(timer);
  timer = setTimeout(() => (node.textContent = message), 30);
}

/** Announces a run's outcome when it differs from the last one's (`key` tells them apart). */
export function announceOutcome(key: string, message: string): void {
  if (key === lastOutcomeKey) return;
  lastOutcomeKey = key;
  announce(message);
}
