#!/usr/bin/env bash
# npm start: set-up and build (the package and the playground), print the
# results of the spec's complete examples run through the package, then serve
# the playground on localhost and print its URL. Extra arguments go to the
# server (e.g. `npm start -- --port 9000`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
node examples/run-spec-examples.mjs
echo
exec node scripts/serve.mjs "$@"
