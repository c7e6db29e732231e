#!/usr/bin/env bash
# The engine's libFuzzer targets (tests/fuzz/), built with clang, ASan and UBSan
# in build/fuzz (configured on first use, then incremental):
#   bash scripts/fuzz.sh <program|workflow|json|all> [seconds] [libFuzzer flags...]
#       a campaign (default 60 s per target); the corpus grows in build/fuzz/corpus/<target>/,
#       findings land in build/fuzz/findings/<target>/
#   bash scripts/fuzz.sh --smoke
#       what npm test runs: each target for a fixed number of runs from seed 1 (no clock:
#       the same on a loaded machine), then every regression case replayed
#   bash scripts/fuzz.sh --replay <target> <file>...
#       runs the target once on each file (a finding's reproduction)
# Seeds (the conformance corpora) and dictionaries (the op and step tables) are
# written into build/fuzz/ by tests/fuzz/gen-inputs.mjs before every run.
# Every input that ever crashed or outran a limit is kept in
# tests/fuzz/regressions/<target>/; a name ending in .pending waits for a fix
# on another branch and is skipped by --smoke (the report says which).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(program workflow json)
dir=build/fuzz
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

build() {
  if [ ! -f "$dir/build.ninja" ]; then
    local launcher=()
    command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DPTC_FUZZ=ON \
      "${launcher[@]}" >/dev/null
  fi
  ninja -C "$dir" "${targets[@]/#/fuzz_}" fuzz_tables | { grep -v "^ninja: no work to do" || true; } >&2
  node tests/fuzz/gen-inputs.mjs "$dir" "$dir/fuzz_tables"
}

# Runs one target's libFuzzer with its dictionary, seeds and limits: a run that
# takes 10 s (the targets' timeoutMs is 50) or 2 GB is a finding too.
fuzz() {  # target, libFuzzer arguments...
  local t=$1; shift
  "$dir/fuzz_$t" -dict="$dir/$t.dict" -timeout=10 -rss_limit_mb=2048 -max_len=32768 -print_final_stats=1 "$@"
}

case "${1:-}" in
  --smoke)
    build
    # No clock in the smoke: a run's time against timeoutMs depends on the machine's load.
    export PTC_FUZZ_CHECK_TIME=0
    passed=0 failed=0
    for t in "${targets[@]}"; do
      work=$(mktemp -d)
      log="$work/log"
      # Every seed once, then a fixed number of mutations from seed 1.
      seeds=$(find "$dir/seeds/$t" -type f | wc -l)
      if fuzz "$t" -seed=1 -runs=$((seeds + 2000)) -artifact_prefix="$work/" "$work" "$dir/seeds/$t" >"$log" 2>&1; then
        echo "fuzz: $t: $(grep -aoE "^#[0-9]+[[:space:]]+DONE[[:space:]]+cov: [0-9]+ ft: [0-9]+" "$log" | tail -1)"
        passed=$((passed + 1))
      else
        tail -40 "$log"
        echo "fuzz: $t FAILED (the input is in $work)"
        failed=$((failed + 1))
      fi
      for f in tests/fuzz/regressions/"$t"/*; do
        [ -f "$f" ] || continue
        case "$f" in *.pending) echo "fuzz: skipped (pending a fix elsewhere): $f"; continue ;; esac
        if "$dir/fuzz_$t" "$f" >"$log" 2>&1; then
          passed=$((passed + 1))
        else
          tail -30 "$log"
          echo "fuzz: regression FAILED: $f"
          failed=$((failed + 1))
        fi
      done
      [ "$failed" -eq 0 ] && rm -rf "$work"
    done
    echo "fuzz: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    ;;
  --replay)
    t=${2:?"usage: scripts/fuzz.sh --replay <target> <file>..."}
    shift 2
    build
    exec "$dir/fuzz_$t" "$@"
    ;;
  program | workflow | json | all)
    which=("$1")
    [ "$1" = all ] && which=("${targets[@]}")
    seconds=${2:-60}
    shift $(($# < 2 ? $# : 2))
    build
    for t in "${which[@]}"; do
      mkdir -p "$dir/corpus/$t" "$dir/findings/$t"
      echo "== fuzz: $t for $seconds s (corpus $dir/corpus/$t, findings $dir/findings/$t)"
      fuzz "$t" -max_total_time="$seconds" -artifact_prefix="$dir/findings/$t/" "$@" "$dir/corpus/$t" "$dir/seeds/$t"
    done
    ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
