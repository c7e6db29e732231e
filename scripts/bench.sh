#!/usr/bin/env bash
# npm run bench: builds dist/ (a no-op rebuild when nothing changed), then runs
# the benchmark suite in one Node process. Extra arguments go to bench/run.mjs
# (e.g. `npm run bench -- --quick`, `npm run bench -- --only W4`). Exits
# non-zero only on a build failure or a wrong answer from some engine; speed
# targets are reported, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
# --expose-gc: the runner collects garbage between large samples, outside the
# timed region, so one engine's garbage is not charged to the next.
node --expose-gc bench/run.mjs "$@"
# The cost of async tool support: one tool round trip, tool-free work next to
# a tool call, and the runtime's memory over 10,000 runs. Not with --only,
# which asks for the named workloads alone.
case " $* " in *" --only"*) exit 0 ;; esac
echo
echo "ASYNC TOOLS"
node bench/async.mjs
