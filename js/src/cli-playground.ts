// npx ptc-wasm playground: the playground from the installed package. Serves
// dist/playground/ on localhost (the page's engine files, /ptc/*, are the
// package's own dist/browser.mjs, worker.browser.mjs and ptc.wasm: the package
// ships no second copy) with a strict Content-Security-Policy header, or, with
// --out <dir>, writes the same site as static files for any host.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../../scripts/serve.mjs";

export const PLAYGROUND_USAGE = `Usage: ptc-wasm playground [--port N] [--out <dir>]

Serves the playground (edit and run programs in the browser) on http://127.0.0.1
and prints its URL; Ctrl-C stops it. It makes no request outside that address.

  --port N       The port (0: any free one; default: the first free of 8080-8089)
  --out <dir>    Write the playground as static files into <dir> instead (an empty or
                 new folder, or one written before), for any static host: every URL in
                 it is relative. A host should serve .wasm as application/wasm.`;

/** The engine files the page loads from ptc/, served from (and copied out of) the package's dist/. */
const ENGINE_FILES = ["browser.mjs", "worker.browser.mjs", "ptc-json.wasm", "ptc.wasm", "extras.browser.mjs"];

/**
 * The page's policy: scripts only from the page's host, WebAssembly compiled
 * without eval, workers, fetches and frames only from the host.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; connect-src 'self'; worker-src 'self'; frame-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const FRAME_FILE = "tools-frame.html";

/** The mock tools' frame keeps the policy it declares (its script's hash, eval of the tools text), sandboxed. */
function framePolicy(site: string): string {
  const html = readFileSync(join(site, FRAME_FILE), "utf8");
  const declared = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  if (!declared) throw new Error(`${FRAME_FILE} declares no Content-Security-Policy`);
  return `${declared}; frame-ancestors 'self'; sandbox allow-scripts`;
}

function fail(message: string): number {
  process.stderr.write(`ptc-wasm playground: ${message}\nRun 'ptc-wasm playground --help' for usage.\n`);
  return 2;
}

/** Writes the site into `out`: the playground's files and the engine's, as a static host serves them. */
function writeSite(dist: string, site: string, out: string): void {
  if (existsSync(out) && readdirSync(out).length && !existsSync(join(out, FRAME_FILE)))
    throw new Error(`${out} is not empty and holds no playground written before; give a new or empty folder`);
  mkdirSync(join(out, "ptc"), { recursive: true });
  for (const name of readdirSync(site))
    if (name !== "ptc") cpSync(join(site, name), join(out, name), { recursive: true });
  for (const name of ENGINE_FILES) cpSync(join(dist, name), join(out, "ptc", name));
}

export async function playground(argv: string[]): Promise<number> {
  let port: number | undefined;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = () => (eq > 0 ? arg.slice(eq + 1) : argv[++i]);
    if (name === "--help" || name === "-h") return (process.stdout.write(`${PLAYGROUND_USAGE}\n`), 0);
    if (name === "--port") {
      const text = value();
      port = Number(text);
      if (!text || !Number.isInteger(port) || port < 0 || port > 65535)
        return fail(`--port takes a whole number 0-65535, not ${JSON.stringify(text ?? "")}`);
    } else if (name === "--out") {
      out = value();
      if (!out) return fail("--out needs a folder");
    } else return fail(`unknown option ${JSON.stringify(arg)}`);
  }
  if (out !== undefined && port !== undefined) return fail("--out writes files and serves nothing: drop --port");

  const dist = fileURLToPath(new URL(".", import.meta.url));
  const site = join(dist, "playground");
  if (!existsSync(join(site, "index.html")) || !existsSync(join(site, FRAME_FILE)))
    return fail(`no playground in ${site} (in a checkout of ptc-wasm, run 'npm run build' first)`);

  if (out !== undefined) {
    const target = resolve(out);
    writeSite(dist, site, target);
    process.stdout.write(
      `ptc-wasm playground: written to ${target}\nServe that folder with any static server (.wasm as application/wasm).\n`,
    );
    return 0;
  }

  const frameCsp = framePolicy(site);
  const options = {
    root: site,
    mounts: { "/ptc/": { dir: dist, files: ENGINE_FILES } },
    headers: (file: string) => ({
      "content-security-policy": file === join(site, FRAME_FILE) ? frameCsp : PAGE_CSP,
      "referrer-policy": "no-referrer",
      "cross-origin-opener-policy": "same-origin",
    }),
  };
  const ports = port !== undefined ? [port] : Array.from({ length: 10 }, (_, i) => 8080 + i);
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  for (const [i, p] of ports.entries()) {
    try {
      server = await serve({ ...options, port: p });
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE" && i < ports.length - 1) continue;
      return fail(code === "EADDRINUSE" ? `port ${p} is in use; give another with --port N (0: any)` : String(e));
    }
  }
  process.stdout.write(`ptc-wasm playground: ${server!.url}  (Ctrl-C to stop)\n`);
  await new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await server!.close();
  return 0;
}
