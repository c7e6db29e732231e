// The package test's Cloudflare Worker (run by tests/package/run.mjs): the
// README's Worker, in a fresh consumer project, bundled as wrangler bundles it
// (esbuild with the workerd/worker/browser conditions; the .wasm import stays a
// module of its own, which Workers hand over compiled), served by workerd (the
// runtime of Cloudflare Workers, a dev dependency) on a free local port, and
// asked to run a program over HTTP.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function config({ date, port, wasm }) {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "out/worker.js"),
    (name = "${wasm}", wasm = embed "out/${wasm}"),
  ],
  compatibilityDate = "${date}",
);
`;
}

/** POSTs `body` until workerd answers (it takes a moment to listen), or it exits. */
async function ask(url, body, child, output) {
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(url, { method: "POST", body: JSON.stringify(body) });
      return { status: response.status, text: await response.text() };
    } catch (e) {
      if (Date.now() > until)
        throw new Error(`workerd did not answer within 30 s (${e.message}):\n${output()}`, { cause: e });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export async function workerdChecks(t) {
  const workerd = join(t.root, "node_modules/.bin/workerd");
  let runs = false;
  await t.check("workerd: installed (a dev dependency) and runs here", () => {
    if (!existsSync(workerd)) throw new t.Skip("no node_modules/.bin/workerd: run npm ci");
    const version = spawnSync(workerd, ["--version"], { encoding: "utf8" });
    if (version.status !== 0)
      throw new t.Skip(
        `workerd's binary does not run here: ${(version.stderr || version.error?.message || "").trim()}`,
      );
    runs = true;
    return version.stdout.trim();
  });
  if (!runs) return;

  const dir = t.consumer("workerd", t.tarball.path);
  symlinkSync(join(t.root, "node_modules/esbuild"), join(dir, "node_modules/esbuild"));
  let bundle;
  await t.check("workerd: the README's Worker bundles as wrangler bundles it", () => {
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "wrangler.toml"), t.recipe("wrangler.toml"));
    writeFileSync(join(dir, "src/worker.js"), t.recipe("Cloudflare Worker"));
    const date = /^compatibility_date\s*=\s*"([\d-]+)"/m.exec(t.recipe("wrangler.toml"))?.[1];
    t.expect(date, "the README's wrangler.toml has no compatibility_date");
    t.expect(/^main\s*=\s*"src\/worker\.js"/m.test(t.recipe("wrangler.toml")), 'its main is not "src/worker.js"');
    t.run(
      join(t.root, "node_modules/.bin/esbuild"),
      [
        "src/worker.js",
        "--bundle",
        "--format=esm",
        "--platform=browser",
        "--conditions=workerd,worker",
        "--loader:.wasm=copy",
        "--asset-names=[name]",
        "--outdir=out",
      ],
      { cwd: dir },
    );
    const wasm = readdirSync(join(dir, "out")).find((f) => f.endsWith(".wasm"));
    t.expect(wasm, "no .wasm module beside the bundle");
    bundle = { date, wasm };
  });
  if (!bundle) return;

  await t.check(
    "workerd: the Worker answers programs over HTTP (the .wasm passed as a WebAssembly.Module); timeoutMs holds",
    async () => {
      const port = await freePort();
      writeFileSync(join(dir, "config.capnp"), config({ ...bundle, port }));
      let output = "";
      const child = spawn(workerd, ["serve", "config.capnp", "--verbose"], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      try {
        const expenses = [
          { category: "travel", amount: 120.5 },
          { category: "office", amount: 40 },
          { category: "travel", amount: 80 },
        ];
        const program = {
          op: "pipe",
          steps: [
            { op: "load", name: "expenses" },
            { op: "filter", where: { op: "eq", field: "category", value: "travel" } },
            { op: "sum", field: "amount" },
          ],
        };
        const url = `http://127.0.0.1:${port}/`;
        const good = await ask(url, { program, context: { expenses } }, child, () => output);
        t.expect(good.status === 200, `HTTP ${good.status}: ${good.text}\n${output}`);
        const r = JSON.parse(good.text);
        t.expect(r.ok === true && r.result === 200.5, `unexpected answer: ${good.text}`);
        const bad = JSON.parse((await ask(url, { program: { op: "filer" } }, child, () => output)).text);
        t.expect(
          bad.ok === false && bad.error.type === "validation_error",
          `a bad program: unexpected answer ${JSON.stringify(bad)}`,
        );
        // The engine's time limit holds there too (the default 1000 ms): this
        // program walks 20000 x 20000 items, tens of seconds of work (4000 x 4000
        // became fast enough to finish within the limit).
        const xs = Array.from({ length: 20000 }, (_, i) => ({ id: i, v: i % 97 }));
        const inner = {
          op: "pipe",
          steps: [
            { op: "load", name: "xs" },
            // Inside `and`, which the join planner leaves alone: the scan stays quadratic.
            {
              op: "filter",
              where: { op: "and", conditions: [{ op: "eq", field: "v", value: { op: "var", name: "a", field: "v" } }] },
            },
            { op: "count" },
          ],
        };
        const slow = {
          op: "pipe",
          steps: [{ op: "load", name: "xs" }, { op: "map", as: "a", expr: inner }, { op: "sum" }],
        };
        const late = JSON.parse((await ask(url, { program: slow, context: { xs } }, child, () => output)).text);
        t.expect(late.ok === false && late.error.type === "timeout", `a slow program: ${JSON.stringify(late)}`);
      } finally {
        child.kill();
      }
    },
  );
}
