#!/usr/bin/env node
// Serves the static playground (dist/playground, built by
// scripts/bundle-playground.mjs) on localhost with plain node:http: correct
// MIME types (application/wasm included), no caching surprises, nothing fetched
// from the network.
//
//   node scripts/serve.mjs [--port N] [--host H] [--root DIR]
//
// Also importable: `const { url, close } = await serve({ port: 0 })` starts it
// in-process on a free port (the browser tests do this). `npx ptc-wasm playground`
// (js/src/cli-playground.ts) runs this same server from the installed package: the
// CLI bundles it.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
export const DEFAULT_ROOT = resolve(here, "..", "dist", "playground");

export const MIME_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/**
 * Maps a request path to a file under root, or null when it escapes root or does not exist.
 * `mounts` maps a path prefix ("/ptc/") to a folder and the names served from it, and only those.
 */
function fileFor(root, pathname, mounts = {}) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  for (const [prefix, { dir, files }] of Object.entries(mounts)) {
    if (!decoded.startsWith(prefix)) continue;
    const name = decoded.slice(prefix.length);
    if (!files.includes(name)) return null;
    const file = join(dir, name);
    return existsSync(file) ? { file, size: statSync(file).size } : null;
  }
  const candidate = normalize(join(root, decoded));
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  if (!existsSync(candidate)) return null;
  const stat = statSync(candidate);
  if (stat.isDirectory()) {
    const index = join(candidate, "index.html");
    return existsSync(index) ? { file: index, size: statSync(index).size } : null;
  }
  return stat.isFile() ? { file: candidate, size: stat.size } : null;
}

/**
 * Starts the server. Resolves to { url, port, server, close() }.
 * port 0 picks a free port; `headers` are added to every file served (e.g. a
 * Content-Security-Policy, as tests/package/run.mjs serves its pages), or, as a
 * function, `headers(file)` gives each file's. `mounts`: see fileFor.
 */
export function serve({
  root = DEFAULT_ROOT,
  port = 8080,
  host = "127.0.0.1",
  log = false,
  requireIndex = true,
  headers = {},
  mounts = {},
} = {}) {
  root = resolve(root);
  if (requireIndex && !existsSync(join(root, "index.html")))
    throw new Error(`serve: ${root}/index.html not found; run "node scripts/bundle-playground.mjs" first`);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    // A directory without its trailing slash: redirect, so relative URLs resolve inside it.
    const found = fileFor(root, url.pathname, mounts);
    if (
      found &&
      !url.pathname.endsWith("/") &&
      found.file.endsWith(`${sep}index.html`) &&
      !url.pathname.endsWith("index.html")
    ) {
      res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
      return;
    }
    if (!found) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      if (log) console.log(`404 ${url.pathname}`);
      return;
    }
    res.writeHead(200, {
      "content-type": MIME_TYPES[extname(found.file).toLowerCase()] ?? "application/octet-stream",
      "content-length": found.size,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
      ...(typeof headers === "function" ? headers(found.file) : headers),
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(found.file).pipe(res);
    if (log) console.log(`200 ${url.pathname}`);
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolvePromise({
        url: `http://${shownHost}:${actual}/`,
        port: actual,
        server,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.split("=", 2);
    const value = () => inline ?? argv[++i];
    if (flag === "--port" || flag === "-p") options.port = Number(value());
    else if (flag === "--host") options.host = value();
    else if (flag === "--root") options.root = value();
    else if (flag === "--log") options.log = true;
    else if (flag === "--help" || flag === "-h") {
      console.log("usage: node scripts/serve.mjs [--port N] [--host 127.0.0.1] [--root dist/playground] [--log]");
      process.exit(0);
    } else {
      console.error(`serve: unknown argument ${arg}`);
      process.exit(2);
    }
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port < 65536)) {
    console.error("serve: --port must be an integer 0-65535");
    process.exit(2);
  }
  return options;
}

// Run as a script (not when bundled into the CLI, whose import.meta.url is dist/cli.mjs).
if (
  process.argv[1] &&
  import.meta.url.endsWith("/serve.mjs") &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  const options = parseArgs(process.argv.slice(2));
  // Without --port, the first free port of 8080-8089.
  const ports = options.port !== undefined ? [options.port] : Array.from({ length: 10 }, (_, i) => 8080 + i);
  for (const [i, port] of ports.entries()) {
    try {
      const { url } = await serve({ ...options, port });
      console.log(`ptc-wasm playground: ${url}  (Ctrl-C to stop)`);
      break;
    } catch (e) {
      if (e.code === "EADDRINUSE" && i < ports.length - 1) continue;
      console.error(e.code === "EADDRINUSE" ? `serve: port ${port} is in use; try --port N` : e.message);
      process.exit(1);
    }
  }
}
