#!/usr/bin/env bash
# npm start: set-up and build, then run the spec's complete examples through
# the package and print their results.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
node examples/run-spec-examples.mjs
