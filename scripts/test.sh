#!/usr/bin/env bash
# Every test: set-up, the formatter check and the linter, the build, the engine
# natively (plain and with address/undefined sanitizers) with GoogleTest, a short
# fuzz run of each libFuzzer target with every regression case (scripts/fuzz.sh --smoke), the
# package with Jest on the real wasm build, the packed tarball installed into
# fresh consumer projects (tests/package/run.mjs), and the playground in headless
# Chromium. Ends with one "N passed, N failed" line. The quicker loops are in
# CONTRIBUTING.md (npm run test:quick, test:cpp, test:js, test:browser).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

echo "== style: formatting (clang-format, Prettier) and ESLint"
bash scripts/reformat.sh --check
npx --no-install eslint .

echo "== source checks, no build (npm run test:source: tests/source/, in a copy without dist/)"
source_log=$(mktemp)
if node scripts/test-source.mjs --ci >"$source_log" 2>&1; then tail -5 "$source_log"; else cat "$source_log"; exit 1; fi

bash scripts/build.sh

logs=$(mktemp -d)
native_suite() {  # log name, scripts/test-cpp.sh arguments...
  local log="$logs/$1.log"; shift
  # --gtest_brief: the log holds only the failures (with their case's file:line) and the summary.
  if bash scripts/test-cpp.sh "$@" >"$log"; then tail -3 "$log"; else tail -80 "$log"; exit 1; fi
}
echo "== engine: GoogleTest (native, release)"
native_suite native
echo "== engine: GoogleTest (native, -fsanitize=address,undefined)"
native_suite asan --asan

echo "== engine: fuzz smoke (libFuzzer, clang, address/undefined sanitizers; fixed runs from seed 1, then the regressions)"
bash scripts/fuzz.sh --smoke >"$logs/fuzz.log" 2>&1 || { tail -60 "$logs/fuzz.log"; exit 1; }
grep "^fuzz: " "$logs/fuzz.log"

echo "== package: Jest (wasm build)"
# On a failure, each failing test's block first ("● file › case name", then its file:line).
npx jest --ci >"$logs/jest.log" 2>&1 || grep -A16 "^  ● " "$logs/jest.log" | head -200 || true
tail -8 "$logs/jest.log"
# An if, not "a && ! b": set -e ignores a failing "! b", which let failing Jest tests pass the run.
if ! grep -q "^Tests: .* passed" "$logs/jest.log" || grep -q "^Tests: .*failed" "$logs/jest.log"; then
  echo "jest: some tests failed (above; the whole log: $logs/jest.log)"
  exit 1
fi

echo "== package: the tarball, installed into fresh consumer projects"
node tests/package/run.mjs 2>&1 | tee "$logs/package.log"
grep -q "^package: [0-9]* passed, 0 failed" "$logs/package.log"

echo "== playground: browser tests (Chromium)"
node --test --test-reporter=tap tests/browser/ 2>&1 | tee "$logs/browser.log" | grep -E "^# (tests|pass|fail)"
grep -q "^# fail 0" "$logs/browser.log"

passed=0
for f in "$logs"/native.log "$logs"/asan.log; do
  # One "[  PASSED  ]" line per test binary (ptc_json_only_tests, ptc_tests): their sum.
  n=$(grep -oE "\[  PASSED  \] [0-9]+ tests?" "$f" | grep -oE "[0-9]+" | awk '{ s += $1 } END { print s + 0 }')
  passed=$((passed + n))
done
passed=$((passed + $(grep -oE "^fuzz: [0-9]+ passed" "$logs/fuzz.log" | grep -oE "[0-9]+")))
jest_passed=$(grep -oE "^Tests: .*" "$logs/jest.log" | grep -oE "[0-9]+ passed" | grep -oE "[0-9]+")
passed=$((passed + jest_passed))
passed=$((passed + $(grep -oE "^Tests: .*" "$source_log" | grep -oE "[0-9]+ passed" | grep -oE "[0-9]+")))
passed=$((passed + $(grep -oE "^package: [0-9]+ passed" "$logs/package.log" | grep -oE "[0-9]+")))
passed=$((passed + $(grep -oE "^# pass [0-9]+" "$logs/browser.log" | grep -oE "[0-9]+")))
echo "$passed passed, 0 failed"
