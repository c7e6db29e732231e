#!/usr/bin/env bash
# The engine's GoogleTest suite, natively: configures build/native (release) or, with
# --asan, build/asan (debug, -fsanitize=address,undefined) on first use, builds
# ptc_tests and ptc_json_only_tests (the engine without the step-function dialect)
# and runs them. No set-up, no wasm. Other arguments go to GoogleTest:
#   bash scripts/test-cpp.sh --gtest_filter='*aggregation_json__sum_a_field'
#   npm run test:cpp -- --gtest_filter='Cases/StepFunctionConformance.*'
# `npm run test:cpp` runs the source checks first (scripts/test-source.mjs, seconds,
# no build); this script alone is the native suite (npm test calls it so, twice).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=build/native
cmake_args=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--asan" ]; then
  shift
  dir=build/asan
  cmake_args=(-DCMAKE_BUILD_TYPE=Debug -DPTC_SANITIZE=ON)
  export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1
fi
if [ ! -f "$dir/build.ninja" ]; then cmake -S . -B "$dir" -G Ninja "${cmake_args[@]}" >/dev/null; fi
# A failed build stops here (pipefail), never running a stale binary.
ninja -C "$dir" ptc_tests ptc_json_only_tests | { grep -v "^ninja: no work to do" || true; } >&2
# A filter that matches none of the second binary's tests runs none of them.
"$dir/ptc_json_only_tests" --gtest_brief=1 "$@"
exec "$dir/ptc_tests" --gtest_brief=1 "$@"
