// npm run test:package: ptc-wasm as its users get it. Packs the tarball, installs
// it into fresh consumer projects in a temporary folder (outside the repository,
// whose node_modules would otherwise be found) and uses it there the
// way they do: Node ESM and CommonJS, worker mode, the subpaths, the CLI, MCP over
// stdio, TypeScript in every module mode, Deno and Bun; the README's Vite, webpack
// and esbuild recipes, a plain <script type=module> page and a page under a
// Content-Security-Policy, loaded in Chromium (web.mjs); a Cloudflare Worker in
// workerd (workerd.mjs). Prints PASS, FAIL or SKIP per check and exits 1 on any
// FAIL. Needs a build (npm run build). PTC_PACKAGE_CHECKS=web,workerd (any of
// node, types, runtimes, web, workerd) runs only those groups.
//
// Caches, so that a second run is fast: npm's own cache (installs are
// --prefer-offline), build/package-test/runtimes/ (the deno and bun npm packages),
// build/package-test/tsc/ (tsc's incremental state: the consumers' folder keeps its
// path, so only what changed is checked again); TypeScript, @types/node, the
// bundlers (Vite, webpack, esbuild) and workerd are this repository's dev
// dependencies, linked into the consumers.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { playgroundChecks } from "./playground.mjs";
import { linkTools, webChecks } from "./web.mjs";
import { workerdChecks } from "./workerd.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = join(root, "tests/package/fixtures");
const runtimes = join(root, "build/package-test/runtimes");
const tscState = join(root, "build/package-test/tsc");
// The tarball and the consumers: made afresh each run, at a path of this checkout's own.
const work = join(tmpdir(), `ptc-wasm-package-${createHash("sha1").update(root).digest("hex").slice(0, 8)}`);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const npmFlags = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
const groups = process.env.PTC_PACKAGE_CHECKS?.split(",");
const wanted = (group) => !groups || groups.includes(group);

// ---- reporting ----------------------------------------------------------------
const counts = { PASS: 0, FAIL: 0, SKIP: 0 };
function report(status, name, detail = "") {
  counts[status]++;
  const lines = String(detail).trim().split("\n").slice(-25);
  const text =
    status === "FAIL" && detail ? `\n${lines.map((l) => `      ${l}`).join("\n")}` : detail ? `: ${detail}` : "";
  console.log(`${status}  ${name}${text}`);
}
class Skip extends Error {}
async function check(name, fn) {
  const start = performance.now();
  const took = () => `(${((performance.now() - start) / 1000).toFixed(1)} s)`;
  try {
    const note = await fn();
    report("PASS", `${name} ${took()}`, note ?? "");
  } catch (e) {
    if (e instanceof Skip) report("SKIP", name, e.message);
    else report("FAIL", `${name} ${took()}`, e instanceof Error ? e.message : String(e));
  }
}
function expect(ok, message) {
  if (!ok) throw new Error(message);
}

// ---- processes ----------------------------------------------------------------
/** Runs a command to completion; throws (with its output) unless it exits as expected. */
function run(command, args, { cwd, input, env, status = 0, timeout = 120_000 } = {}) {
  const r = spawnSync(command, args, { cwd, input, env: { ...process.env, ...env }, encoding: "utf8", timeout });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (r.error) throw new Error(`${command} ${args.join(" ")}: ${r.error.message}\n${output}`);
  if (status !== null && r.status !== status)
    throw new Error(`${command} ${args.join(" ")} exited with ${r.status} (expected ${status})\n${output}`);
  return r;
}
const node = (cwd, ...args) => run(process.execPath, args, { cwd });
const expectOk = (r) =>
  expect(r.stdout.trim().split("\n").at(-1) === "ok", `no "ok" at the end of:\n${r.stdout}${r.stderr}`);

function du(dir) {
  return run("du", ["-sh", dir]).stdout.split("\t")[0];
}

// ---- the tarball and the consumers ---------------------------------------------
/** The tarball: npm pack of this repository, or PTC_PACKAGE_TARBALL (e.g. an older one, to compare). */
function pack() {
  const given = process.env.PTC_PACKAGE_TARBALL;
  if (given) {
    const files = run("tar", ["-tzf", given])
      .stdout.split("\n")
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ""));
    return {
      filename: given,
      path: resolve(given),
      files,
      size: readFileSync(given).length,
      unpackedSize: "?",
      entryCount: files.length,
    };
  }
  const r = run("npm", ["pack", "--json", "--pack-destination", work, "--loglevel=error"], { cwd: root });
  const [info] = JSON.parse(r.stdout);
  return { ...info, path: join(work, info.filename), files: info.files.map((f) => f.path) };
}

/** A fresh project with the tarball (and `extra` packages) installed. */
function consumer(name, tarball, extra = []) {
  const start = performance.now();
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: `consumer-${name}`, version: "1.0.0", private: true }, null, 2),
  );
  run("npm", ["install", tarball, ...extra, ...npmFlags], { cwd: dir, timeout: 600_000 });
  cpSync(fixtures, dir, { recursive: true });
  cpSync(join(root, "examples/agent-loop"), join(dir, "agent-loop"), { recursive: true });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  console.log(
    `package: npm install ${["ptc-wasm", ...extra].join(" ")}: ${seconds} s, node_modules ${du(join(dir, "node_modules"))}`,
  );
  return dir;
}

/**
 * The README block a check runs as written: the one after the line
 * `<!-- not-run: tests/package/run.mjs runs this (NAME) -->` (tests/js/docs.test.cjs
 * skips it for that reason).
 */
function recipe(name) {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const marker = `<!-- not-run: tests/package/run.mjs runs this (${name}) -->`;
  const at = readme.indexOf(marker);
  expect(at >= 0, `README.md has no block after ${marker}`);
  return /```\S*\n([\s\S]*?)\n```/.exec(readme.slice(at))[1];
}

function exportTargets(value, out = []) {
  if (typeof value === "string") out.push(value.replace(/^\.\//, ""));
  else if (value && typeof value === "object") for (const v of Object.values(value)) exportTargets(v, out);
  return out;
}

// ---- MCP over stdio, as a client drives it ---------------------------------------
function mcpSession(cwd, args, requests, timeoutMs = 60_000) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("npx", ["ptc-wasm", "mcp", ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    const replies = new Map();
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no answer within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => {
      stdout += d;
      let newline;
      while ((newline = stdout.indexOf("\n")) >= 0) {
        const line = stdout.slice(0, newline);
        stdout = stdout.slice(newline + 1);
        const message = JSON.parse(line);
        if (message.id !== undefined) replies.set(message.id, message);
        const next = requests.find((q) => q.id !== undefined && !replies.has(q.id));
        if (!next) child.stdin.end(); // every request answered: the server exits when its input ends
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, replies, stderr });
    });
    for (const q of requests) child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...q })}\n`);
  });
}

// ---- TypeScript ------------------------------------------------------------------
const tsc = join(root, "node_modules/typescript/bin/tsc");
const projects = [
  {
    name: "node16, ESM consumer",
    type: "module",
    module: "node16",
    files: ["core", "runs", "mcp", "ai-sdk", "ai-generate", "editor"],
    ext: ".d.mts",
  },
  {
    name: "node16, CommonJS consumer",
    type: "commonjs",
    module: "node16",
    files: ["core", "runs", "mcp", "ai-sdk"],
    ext: ".d.cts",
  },
  {
    name: "nodenext, ESM consumer",
    type: "module",
    module: "nodenext",
    files: ["core", "runs", "mcp", "ai-sdk", "ai-generate", "editor"],
    ext: ".d.mts",
  },
  {
    name: "nodenext, CommonJS consumer",
    type: "commonjs",
    module: "nodenext",
    files: ["core", "runs", "mcp", "ai-sdk"],
    ext: ".d.cts",
  },
  {
    name: "bundler",
    type: "module",
    module: "preserve",
    resolution: "bundler",
    files: ["core", "runs", "mcp", "ai-sdk", "ai-generate", "editor"],
    ext: ".d.mts",
  },
  {
    name: "lib es2022 + @types/node, no DOM",
    type: "module",
    module: "nodenext",
    lib: ["es2022"],
    files: ["core", "runs", "mcp"],
    ext: ".d.mts",
  },
];

function typecheck(dir, project) {
  const where = join(dir, `ts-${project.name.replace(/[^a-z0-9]+/gi, "-")}`);
  mkdirSync(where, { recursive: true });
  writeFileSync(join(where, "package.json"), JSON.stringify({ type: project.type }));
  for (const f of project.files) cpSync(join(fixtures, "types", `${f}.ts`), join(where, `${f}.ts`));
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "es2022",
    module: project.module,
    moduleResolution: project.resolution ?? project.module,
    ...(project.lib && { lib: project.lib }),
    types: ["node"],
    typeRoots: [join(root, "node_modules/@types")],
    skipLibCheck: false,
  };
  writeFileSync(
    join(where, "tsconfig.json"),
    JSON.stringify({ compilerOptions, files: project.files.map((f) => `${f}.ts`) }, null, 2),
  );
  mkdirSync(tscState, { recursive: true });
  const state = join(tscState, `${basename(where)}.tsbuildinfo`);
  const r = run(process.execPath, [tsc, "-p", where, "--explainFiles", "--incremental", "--tsBuildInfoFile", state], {
    status: null,
    timeout: 300_000,
  });
  // Errors in other packages' declarations (the MCP SDK's and ai's own, e.g. ai's
  // need of @types/json-schema) are theirs: ours and the consumer's files must be clean.
  const errors = r.stdout.split("\n").filter((l) => /error TS\d+/.test(l));
  const theirs = errors.filter((l) => /node_modules\//.test(l) && !/node_modules\/ptc-wasm\//.test(l));
  const ours = errors.filter((l) => !theirs.includes(l));
  expect(
    ours.length === 0 && (r.status === 0 || theirs.length),
    `tsc exited with ${r.status}:\n${ours.join("\n") || r.stdout.slice(-3000)}`,
  );
  // The declarations TypeScript took are the flavour Node loads in that mode.
  const declarations = r.stdout
    .split("\n")
    .filter((l) => /node_modules\/ptc-wasm\/dist\/types\/\S+\.d\.[cm]ts$/.test(l.trim()));
  expect(declarations.length > 0, "no ptc-wasm declarations in the program");
  const wrong = declarations.filter((l) => !l.trim().endsWith(project.ext));
  expect(!wrong.length, `expected only ${project.ext} declarations of ptc-wasm, got:\n${wrong.join("\n")}`);
  if (theirs.length) return `${theirs.length} error(s) in other packages' declarations left aside`;
}

// ---- Deno and Bun, from their npm packages -------------------------------------------
/** The runtime's binary from its npm package (installed once into the cache), or a Skip. */
function runtimeBinary(name) {
  const bin = join(runtimes, "node_modules/.bin", name);
  if (!existsSync(bin)) {
    mkdirSync(runtimes, { recursive: true });
    if (!existsSync(join(runtimes, "package.json")))
      writeFileSync(join(runtimes, "package.json"), '{"private": true}\n');
    const r = spawnSync("npm", ["install", name, ...npmFlags], { cwd: runtimes, encoding: "utf8", timeout: 600_000 });
    if (r.status !== 0 || !existsSync(bin))
      throw new Skip(
        `the '${name}' npm package does not install here: ${(r.stderr || r.error?.message || "").trim().split("\n").at(-1)}`,
      );
  }
  const version = spawnSync(bin, ["--version"], { encoding: "utf8" });
  if (version.status !== 0)
    throw new Skip(`${name} from npm does not run here: ${(version.stderr || version.error?.message || "").trim()}`);
  return bin;
}

// ---- the checks ----------------------------------------------------------------------
async function main() {
  if (!existsSync(join(root, "dist/node.mjs")) || !existsSync(join(root, "dist/types/node.d.mts"))) {
    console.error("test-package: no build in dist/; run `npm run build` first");
    process.exit(2);
  }
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });

  const tarball = pack();
  console.log(
    `package: ${tarball.filename}: ${tarball.size} bytes packed, ${tarball.unpackedSize} unpacked, ${tarball.entryCount} files`,
  );
  await check("the tarball holds every file that exports, types, main and bin name", () => {
    const wanted = [
      ...exportTargets(pkg.exports),
      pkg.main,
      pkg.module,
      pkg.browser,
      pkg.types,
      ...Object.values(pkg.bin),
    ];
    const missing = [...new Set(wanted.map((f) => f.replace(/^\.\//, "")))].filter((f) => !tarball.files.includes(f));
    expect(!missing.length, `missing from the tarball: ${missing.join(", ")}`);
  });

  // The core install: the tarball alone.
  const core = consumer("core", tarball.path);
  if (wanted("node")) {
    await check("the core install pulls no other package", () => {
      const installed = readdirSync(join(core, "node_modules")).filter((n) => !n.startsWith("."));
      expect(JSON.stringify(installed) === '["ptc-wasm"]', `node_modules holds ${installed.join(", ")}`);
    });
    await check("Node: import from ESM", () => expectOk(node(core, "core.mjs")));
    await check("Node: import from ESM, worker mode", () => expectOk(node(core, "core.mjs", "--worker")));
    await check("Node: require from CommonJS (and worker mode)", () => expectOk(node(core, "core.cjs")));
    await check("ptc-wasm/ptc.wasm resolves and loads (bytes, module, file URL)", () =>
      expectOk(node(core, "wasm-subpath.mjs")),
    );
    await check("ptc-wasm/mcp and ptc-wasm/ai-sdk without their peers say what to install", () =>
      expectOk(node(core, "mcp-missing.mjs")),
    );
    await check("CLI: npx ptc-wasm run <file> --context <file>", () => {
      const r = run("npx", ["ptc-wasm", "run", "agent-loop/program.json", "--context", "agent-loop/data.json"], {
        cwd: core,
      });
      const rows = JSON.parse(r.stdout);
      expect(Array.isArray(rows) && rows.length === 3 && "amount" in rows[0], `unexpected output: ${r.stdout}`);
    });
    await check("CLI: a program on stdin, and a failing one (exit code 1)", () => {
      const r = run("npx", ["ptc-wasm", "run", "-"], {
        cwd: core,
        input: '{"program": {"op": "add", "left": 1, "right": 2}}',
      });
      expect(r.stdout.trim() === "3", `unexpected output: ${r.stdout}`);
      const bad = run("npx", ["ptc-wasm", "run", "-"], { cwd: core, input: '{"program": {"op": "count"}}', status: 1 });
      expect(/ExecutionError/.test(bad.stderr), `unexpected stderr: ${bad.stderr}`);
    });
    await check("CLI: mcp without the MCP SDK says what to install (exit code 2)", () => {
      const r = run("npx", ["ptc-wasm", "mcp"], { cwd: core, input: "", status: 2 });
      expect(r.stderr.includes("npm install @modelcontextprotocol/sdk zod"), `unexpected stderr: ${r.stderr}`);
    });
    await check("Node: the README's esbuild --platform=node recipe, the bundle run away from node_modules", () => {
      linkTools(root, core, ["esbuild"], ["esbuild"]);
      run("bash", ["-euo", "pipefail", "-c", recipe("esbuild, Node")], { cwd: core });
      const away = join(work, "node-bundle");
      rmSync(away, { recursive: true, force: true });
      cpSync(join(core, "out"), away, { recursive: true });
      expectOk(node(away, "main.mjs"));
      expectOk(node(away, "main.mjs", "--worker"));
    });
    await check("examples/agent-loop/agent.mjs runs against the installed package", () => {
      const r = node(core, "agent-loop/agent.mjs");
      expect(/memory at the end: travel_expenses/.test(r.stdout), `unexpected output: ${r.stdout.slice(-500)}`);
    });
    // The README's agent examples use examples/agent-loop: the package ships it.
    await check("the package ships examples/agent-loop: the README's CLI examples run in node_modules/ptc-wasm", () => {
      const installed = join(core, "node_modules/ptc-wasm");
      const r = run(
        "npx",
        ["ptc-wasm", "run", "examples/agent-loop/program.json", "--context", "examples/agent-loop/data.json"],
        {
          cwd: installed,
        },
      );
      expect(r.stdout.trim().length > 0, "no output");
      expect(
        /memory at the end: travel_expenses/.test(node(installed, "examples/agent-loop/agent.mjs").stdout),
        "agent.mjs",
      );
    });
  }

  // With the optional peers, at the versions this repository tests.
  const dev = pkg.devDependencies;
  const peers = ["@modelcontextprotocol/sdk", "zod", "ai"].map((p) => `${p}@${dev[p]}`);
  const full = wanted("node") || wanted("types") ? consumer("full", tarball.path, peers) : null;
  if (wanted("node")) {
    await check("ptc-wasm/mcp: a client calls run_program (ESM and CommonJS entries)", () =>
      expectOk(node(full, "mcp.mjs")),
    );
    await check("ptc-wasm/ai-sdk: execute and generateText (ESM and CommonJS entries)", () =>
      expectOk(node(full, "ai-sdk.mjs")),
    );
    await check("README: In front of your MCP servers (memory and everything, over stdio)", () => {
      // The reference servers, as `npx -y` finds them once installed.
      const servers = ["@modelcontextprotocol/server-memory", "@modelcontextprotocol/server-everything"];
      if (!existsSync(join(full, "node_modules", servers[0])))
        linkTools(root, full, servers, ["mcp-server-memory", "mcp-server-everything"]);
      writeFileSync(join(full, "gateway-demo.mjs"), recipe("MCP gateway"));
      const r = node(full, "gateway-demo.mjs");
      expect(/city: 'Chicago', temperature: 36/.test(r.stdout), `unexpected output: ${r.stdout.slice(-500)}`);
    });
    await check("MCP over stdio: npx ptc-wasm mcp answers initialize and tools/call", async () => {
      const program = {
        op: "pipe",
        steps: [{ op: "call", tool: "get_orders", args: { status: "shipped" } }, { op: "count" }],
      };
      const { code, replies, stderr } = await mcpSession(
        full,
        ["--tools", "agent-loop/tools.mjs", "--context", "agent-loop/data.json"],
        [
          {
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "package-test", version: "1.0.0" },
            },
          },
          { method: "notifications/initialized" },
          { id: 2, method: "tools/call", params: { name: "run_program", arguments: { program } } },
        ],
      );
      expect(
        replies.get(1)?.result?.serverInfo?.name === "ptc-wasm",
        `initialize: ${JSON.stringify(replies.get(1))}\n${stderr}`,
      );
      const call = replies.get(2)?.result;
      expect(
        call && !call.isError && /^\d+$/.test(call.content[0].text),
        `tools/call: ${JSON.stringify(replies.get(2))}\n${stderr}`,
      );
      expect(code === 0, `the server exited with ${code} when its input ended\n${stderr}`);
    });
  }
  if (wanted("types"))
    for (const project of projects)
      await check(`TypeScript: tsc --noEmit --strict, ${project.name}`, () => typecheck(full, project));

  if (wanted("runtimes")) {
    for (const name of ["deno", "bun"]) {
      let bin;
      await check(`${name}: installed from npm`, () => void (bin = runtimeBinary(name)));
      if (!bin) continue;
      const args = name === "deno" ? ["run", "--allow-all", "core.mjs"] : ["core.mjs"];
      const env = name === "deno" ? { DENO_DIR: join(runtimes, "deno-dir"), DENO_NO_UPDATE_CHECK: "1" } : {};
      await check(`${name}: import ptc-wasm`, () => expectOk(run(bin, args, { cwd: core, env })));
      await check(`${name}: import ptc-wasm, worker mode`, () =>
        expectOk(run(bin, [...args, "--worker"], { cwd: core, env })),
      );
    }
  }

  const t = { root, fixtures, tarball, check, expect, Skip, run, consumer, recipe };
  if (wanted("playground")) await playgroundChecks(t, core);
  if (wanted("web")) await webChecks(t);
  if (wanted("workerd")) await workerdChecks(t);

  console.log(`package: ${counts.PASS} passed, ${counts.FAIL} failed, ${counts.SKIP} skipped`);
  if (counts.FAIL) console.log(`package: the consumers are left in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  process.exitCode = counts.FAIL ? 1 : 0;
}

await main();
