// A throw-away PostgreSQL server for the recipe's demo, bench and fault test:
// initdb in a temp dir, pg_ctl start on a free port of 127.0.0.1, pg_ctl stop and
// the dir removed at the end. PostgreSQL refuses to run as root: when this
// process is root, the server runs as `nobody` (runuser) in a dir it owns.
// Needs Debian's postgresql-15 (bash scripts/setup.sh installs it).
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");

/** The bin dir of the newest installed PostgreSQL (Debian: /usr/lib/postgresql/<major>/bin). */
function pgBinDir() {
  const root = "/usr/lib/postgresql";
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((d) => fs.existsSync(path.join(root, d, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0)
    throw new Error(
      "PostgreSQL is not installed (no /usr/lib/postgresql/<major>/bin/initdb): run `bash scripts/setup.sh`, " +
        "or `apt-get install postgresql-15`",
    );
  return path.join(root, majors[0], "bin");
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Whether a process is still there (a zombie that no one reaped is gone).
function alive(pid) {
  try {
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/**
 * Starts a server; resolves to { url, port, dir, pid, stop() }. `stop()` stops it
 * (immediate shutdown: the data is thrown away), waits until its process is
 * gone, and removes its dir.
 */
async function startPostgres({ log = false } = {}) {
  const bin = pgBinDir();
  const asRoot = process.getuid && process.getuid() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ptc-queue-pg-"));
  const data = path.join(dir, "data");
  fs.mkdirSync(data, { mode: 0o700 });
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    for (const p of [dir, data]) fs.chownSync(p, 65534, 65534); // nobody:nogroup
  }
  const run = (tool, args) => {
    const cmd = asRoot ? "runuser" : path.join(bin, tool);
    const argv = asRoot ? ["-u", "nobody", "--", path.join(bin, tool), ...args] : args;
    return execFileSync(cmd, argv, { stdio: log ? "inherit" : "pipe", cwd: dir });
  };
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  // fsync off: the test kills workers, never the server; sockets only on TCP localhost.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='${dir}' -c fsync=off -c max_connections=200`;
  run("pg_ctl", ["start", "-w", "-t", "120", "-D", data, "-l", path.join(dir, "server.log"), "-o", options]);
  const pid = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  let stopped;
  const stop = () =>
    (stopped ??= (async () => {
      try {
        run("pg_ctl", ["stop", "-w", "-t", "60", "-m", "immediate", "-D", data]);
        // pg_ctl returns once the pid file is gone, a moment before the process is.
        for (let i = 0; i < 600 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
        if (alive(pid)) process.kill(pid, "SIGKILL");
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    })());
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, pid, stop, alive: () => alive(pid) };
}

module.exports = { startPostgres, pgBinDir };
