// Mock tools that come from a shared link are a stranger's code: they wait for
// the visitor's consent. What counts as "from a link": the tools text of a
// session read from the URL hash (on load, or when the hash changes while the
// page is open), unless it is empty or exactly the tools of one of the page's
// own examples. Such tools are held — shown, marked, never evaluated, and the
// program does not run — until the visitor presses "Trust and run". Editing
// held tools does not release them (the edited text is still mostly the
// stranger's); blanking them, or picking an example, does. Once trusted, the
// tools and the visitor's later edits run as usual, until the next link.
import { examples } from "./examples.js";

const bundled = new Set(examples.map((e) => e.tools));

/** Text that is nobody's code: nothing, or one of the page's own examples. */
const isOwn = (tools: string) => tools.trim() === "" || bundled.has(tools);

let held = false;

/** A session from a link arrived with these tools: hold them unless they are the page's own. */
export function holdLinkTools(tools: string): void {
  held = !isOwn(tools);
}

/** Tools the page itself put there (an example): nothing to hold. */
export function release(): void {
  held = false;
}

/** Whether the tools text must not run yet (blanked or replaced by an example's text: released). */
export function isHeld(tools: string): boolean {
  if (held && isOwn(tools)) held = false;
  return held;
}
