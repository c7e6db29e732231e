// SIGINT and SIGTERM during the CLI's `run` (Node only: cli.ts alone imports it).
/**
 * SIGINT and SIGTERM during `run`: the first ends the run through its signal
 * (every tool still running sees its signal aborted, upstream MCP calls are
 * cancelled, a write out is reported as may have completed) and the CLI exits
 * 128 + the signal's number once the run has settled; a second one exits at once.
 */
export function stopOnSignals(): { signal: AbortSignal; exitCode?: number; release(): void } {
  const controller = new AbortController();
  const numbers = { SIGINT: 2, SIGTERM: 15 } as const;
  const stop: { signal: AbortSignal; exitCode?: number; release(): void } = {
    signal: controller.signal,
    release: () => {
      for (const name of Object.keys(numbers)) process.off(name, handlers[name as keyof typeof numbers]);
    },
  };
  const handlers = Object.fromEntries(
    Object.entries(numbers).map(([name, number]) => [
      name,
      () => {
        if (controller.signal.aborted) process.exit(128 + number);
        stop.exitCode = 128 + number;
        controller.abort(new Error(`ptc-wasm run was stopped by ${name}`));
      },
    ]),
  ) as Record<keyof typeof numbers, () => void>;
  for (const name of Object.keys(numbers)) process.on(name, handlers[name as keyof typeof numbers]);
  return stop;
}
