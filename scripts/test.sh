#!/usr/bin/env bash
# Every test: set-up and build, the engine natively (plain and with
# address/undefined sanitizers) with GoogleTest, the package with Jest on the
# real wasm build, the packed tarball installed into fresh consumer projects
# (tests/package/run.mjs), and the playground in headless Chromium. Ends with one
# "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh

logs=$(mktemp -d)
native_suite() {  # name, extra cmake args...
  local dir="build/$1"; shift
  if [ ! -f "$dir/build.ninja" ]; then cmake -S . -B "$dir" -G Ninja "$@" >/dev/null; fi
  ninja -C "$dir" ptc_tests | grep -v "^ninja: no work to do" || true
  "$dir/ptc_tests" --gtest_brief=1 | tee "$logs/$(basename "$dir").log" | tail -3
}

echo "== engine: GoogleTest (native, release)"
native_suite native -DCMAKE_BUILD_TYPE=Release
echo "== engine: GoogleTest (native, -fsanitize=address,undefined)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 native_suite asan -DCMAKE_BUILD_TYPE=Debug -DPTC_SANITIZE=ON

echo "== package: Jest (wasm build)"
npx jest --ci 2>&1 | tee "$logs/jest.log" | tail -8
grep -q "^Tests: .* passed" "$logs/jest.log" && ! grep -q "^Tests: .*failed" "$logs/jest.log"

echo "== package: the tarball, installed into fresh consumer projects"
node tests/package/run.mjs 2>&1 | tee "$logs/package.log"
grep -q "^package: [0-9]* passed, 0 failed" "$logs/package.log"

echo "== playground: browser tests (Chromium)"
node --test --test-reporter=tap tests/browser/ 2>&1 | tee "$logs/browser.log" | grep -E "^# (tests|pass|fail)"
grep -q "^# fail 0" "$logs/browser.log"

passed=0
for f in "$logs"/native.log "$logs"/asan.log; do
  n=$(grep -oE "\[  PASSED  \] [0-9]+ tests?" "$f" | grep -oE "[0-9]+" || echo 0)
  passed=$((passed + n))
done
jest_passed=$(grep -oE "^Tests: .*" "$logs/jest.log" | grep -oE "[0-9]+ passed" | grep -oE "[0-9]+")
passed=$((passed + jest_passed))
passed=$((passed + $(grep -oE "^package: [0-9]+ passed" "$logs/package.log" | grep -oE "[0-9]+")))
passed=$((passed + $(grep -oE "^# pass [0-9]+" "$logs/browser.log" | grep -oE "[0-9]+")))
echo "$passed passed, 0 failed"
