// A session's memory kept in a file (the CLI's `mcp --memory-out`), so that a
// gateway restarted with `--memory <file>` goes on from what its programs
// stored. Each write replaces the whole file: the memory goes to a temporary
// file beside it, which is then renamed over it, so a reader (or a restart
// after a crash) finds the old memory or the new one, never half of one.
// Writes are made one at a time, the latest memory last; one that fails is
// reported and the server goes on.
import { rename, writeFile } from "node:fs/promises";
import type { JsonObject } from "../types/public.js";

export interface MemoryFile {
  /** The session's onMemory: queues a write of this memory. */
  write(memory: JsonObject): void;
  /** Resolves when the writes queued so far are done (or failed and reported). */
  flushed(): Promise<void>;
}

const text = (memory: JsonObject) => `${JSON.stringify(memory, null, 2)}\n`;

/**
 * Writes the memory to `file` now (a path that cannot be written fails here,
 * before any program runs), then each time `write` is called. `report` gets
 * the message of a later write that failed.
 */
export async function memoryFile(file: string, memory: JsonObject, report: (message: string) => void) {
  const temporary = `${file}.${process.pid}.tmp`;
  const put = async (m: JsonObject) => {
    await writeFile(temporary, text(m));
    await rename(temporary, file);
  };
  await put(memory);
  let queue = Promise.resolve();
  let latest: JsonObject | undefined;
  return {
    write(m: JsonObject) {
      latest = m;
      queue = queue.then(async () => {
        if (latest === undefined) return; // a later write of the queue took it
        const next = latest;
        latest = undefined;
        try {
          await put(next);
        } catch (e) {
          report(`could not write the memory to ${file}: ${(e as Error).message}`);
        }
      });
    },
    flushed: () => queue,
  } satisfies MemoryFile;
}

/**
 * The CLI's `mcp --memory-out <file>`: undefined without the flag; a path
 * that cannot be written is refused before the server starts (code
 * ERR_PTC_MEMORY_OUT, bad usage); a later failed write is reported on stderr.
 */
export async function keptMemory(
  file: string | undefined,
  memory: Record<string, unknown> | undefined,
): Promise<MemoryFile | undefined> {
  if (file === undefined) return undefined;
  const report = (message: string) => process.stderr.write(`ptc-wasm: ${message}\n`);
  try {
    return await memoryFile(file, (memory ?? {}) as JsonObject, report);
  } catch (e) {
    throw Object.assign(new Error(`--memory-out cannot write ${file}: ${(e as Error).message}`), {
      code: "ERR_PTC_MEMORY_OUT",
    });
  }
}
