#!/usr/bin/env bash
# npm run bench: builds dist/ (a no-op rebuild when nothing changed), then runs
# the benchmark suite in one Node process. Extra arguments go to bench/run.mjs
# (e.g. `npm run bench -- --quick`, `npm run bench -- --only W4`). Exits
# non-zero only on a build failure or a wrong answer from some engine; speed
# targets are reported, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only TOKENS (definitions and prompts, counted in tokens) needs neither the
# named engine nor the peers: just dist/.
only_tokens=0
case " $* " in *" --only TOKENS "* | *" --only=TOKENS "*) only_tokens=1 ;; esac
if [ "$only_tokens" = 1 ]; then
  bash scripts/build.sh
  exec node bench/run.mjs "$@"
fi
# ptc_names, ptc_json_names: the engine modules with function names, from which
# SIZE tells what each part of them costs.
bash scripts/build.sh ptc_names ptc_json_names
# Monty, a peer, installs into a cache folder rather than as a dev dependency (its
# binaries are not on every registry mirror, which would break npm ci); where it
# does not install, the runner skips it and prints why.
MONTY="@pydantic/monty@0.0.18"
if [ ! -d build/bench/peers/node_modules/@pydantic/monty ]; then
  mkdir -p build/bench/peers
  [ -f build/bench/peers/package.json ] || echo '{"private":true}' > build/bench/peers/package.json
  npm install --prefix build/bench/peers --no-audit --no-fund --loglevel=error "$MONTY" ||
    echo "bench: could not install $MONTY; Monty will be skipped"
fi
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
# Group-by and engine start on a page, in headless Chromium (bench/browser.mjs).
echo
echo "BROWSER"
node bench/browser.mjs
