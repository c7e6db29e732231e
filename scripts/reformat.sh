#!/usr/bin/env bash
# Formats the whole tree: the C++ with clang-format (.clang-format), the TypeScript
# and JavaScript with Prettier (.prettierrc.json; .prettierignore keeps JSON and
# docs as written). With --check it changes nothing and fails on any file that
# differs, listing them (a step of `npm test`: `npm run format:check`).
#   bash scripts/reformat.sh           # npm run format
#   bash scripts/reformat.sh --check   # npm run format:check
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
[ "${1:-}" = "--check" ] && check=1

if ! command -v clang-format >/dev/null 2>&1; then
  echo "reformat: clang-format is missing (bash scripts/setup.sh installs it)" >&2
  exit 1
fi
# Tracked and new (not ignored) C++ files that exist, wherever they live.
mapfile -t cpp < <(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.h' | sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)

status=0
if [ "$check" = 1 ]; then
  rc=0
  out=$(clang-format --dry-run --Werror "${cpp[@]}" 2>&1) || rc=$?
  drift=$(grep -oE "^[^:]+\.(cpp|h):" <<<"$out" | tr -d : | sort -u || true)
  if [ -n "$drift" ]; then
    echo "format: $(clang-format --version | head -1) would change:" >&2
    sed 's/^/  /' <<<"$drift" >&2
    status=1
  elif [ "$rc" != 0 ]; then
    echo "$out" >&2  # clang-format itself failed (e.g. a .clang-format it does not understand)
    status=1
  fi
  npx --no-install prettier --check --log-level warn . || status=1
  if [ "$status" != 0 ]; then echo "format: run 'npm run format' and commit the result" >&2; fi
  exit "$status"
fi

clang-format -i "${cpp[@]}"
npx --no-install prettier --write --log-level warn .
