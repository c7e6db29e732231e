// Optional peer dependencies, loaded on first use so that the core runtime
// installs and loads without them: `npm install ptc-wasm` pulls no other package.
import { createRequire } from "node:module";

/** A feature was used without its optional peer dependencies installed. */
export class MissingPeerError extends Error {
  override name = "MissingPeerError";
  readonly code = "ERR_PTC_MISSING_PEER";
}

const requirePeer = createRequire(import.meta.url);

function missingModule(e: unknown): string | undefined {
  const { code, message } = (e ?? {}) as { code?: string; message?: string };
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return undefined;
  return /Cannot find (?:module|package) '([^']+)'/.exec(message ?? "")?.[1];
}

/**
 * Loads a feature's peers with `load` (given require, synchronous: the peers
 * used this way ship CommonJS). When one of `packages` is not installed, throws
 * a MissingPeerError that says what to install; any other failure is rethrown.
 */
export function loadPeers<T>(feature: string, packages: string[], load: (require: NodeJS.Require) => T): T {
  try {
    return load(requirePeer);
  } catch (e) {
    const missing = missingModule(e);
    const which = packages.find((p) => missing === p || missing?.startsWith(`${p}/`));
    if (!which) throw e;
    const list = packages.length > 1 ? `${packages.slice(0, -1).join(", ")} and ${packages.at(-1)}` : packages[0];
    throw new MissingPeerError(
      `${feature} needs ${list}, which are optional peer dependencies of ptc-wasm and not installed ` +
        `(cannot find '${which}'): npm install ${packages.join(" ")}`,
    );
  }
}
