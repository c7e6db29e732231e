// `ptc-wasm mcp`'s own options, kept here as cli.ts is at its size limit: the
// flags it takes, and --state-key-file, the key that signs the states of
// programs held for approval for a client without elicitation (mcp-resume.ts).
import { readFile } from "node:fs/promises";

export const STATE_KEY_FILE = "--state-key-file";

/** The flags `ptc-wasm mcp` takes, besides the tool limits. */
export const MCP_FLAGS = [
  "--tools",
  "--context",
  "--memory",
  "--memory-out",
  "--timeout",
  "--max-heap",
  "--max-depth",
  "--max-message-bytes",
  "--full-schema",
  "--mcp-config",
  STATE_KEY_FILE,
];

export const STATE_KEY_HELP = `  ${STATE_KEY_FILE} <file>
                         A key (the file's bytes, at least 16) that signs the state of a program
                         held for approval when the MCP client has no elicitation: run_program
                         answers the held calls and the state, resume_program resumes it (mcp)`;

/** The fewest bytes of a key file: a shorter key is refused, not used. */
const MIN_KEY_BYTES = 16;

function keyError(message: string): Error {
  return Object.assign(new Error(message), { code: "ERR_PTC_STATE_KEY" });
}

/** The stateKey option of the file given with --state-key-file (none without it). */
export async function stateKeyOf(file: string | undefined): Promise<{ stateKey?: Uint8Array }> {
  if (file === undefined) return {};
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch (e) {
    throw keyError(`cannot read ${STATE_KEY_FILE} ${file}: ${(e as Error).message}`);
  }
  if (bytes.length < MIN_KEY_BYTES)
    throw keyError(`${STATE_KEY_FILE} ${file} holds ${bytes.length} bytes: a key must have at least ${MIN_KEY_BYTES}`);
  return { stateKey: bytes };
}
