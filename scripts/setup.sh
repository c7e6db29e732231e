#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and test ptc-wasm:
# Debian packages (Emscripten, nlohmann/json, fast_float, GoogleTest, ninja, clang-format, clang and its
# sanitizer and libFuzzer runtimes, Chromium, PostgreSQL) when
# missing, then the npm dependencies when package-lock.json changed.
# Idempotent and quiet when everything is present; `npm start`/`npm test` call it.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

have_cmd em++ || need_apt+=(emscripten)
have_pkg nlohmann-json3-dev || need_apt+=(nlohmann-json3-dev)
have_pkg libfast-float-dev || need_apt+=(libfast-float-dev)
have_pkg libgtest-dev || need_apt+=(libgtest-dev)
have_cmd ninja || need_apt+=(ninja-build)
have_cmd cmake || need_apt+=(cmake)
have_cmd g++ || need_apt+=(g++)
have_cmd gzip || need_apt+=(gzip)
have_cmd clang-format || need_apt+=(clang-format)  # npm run format:check
have_cmd clang++ || need_apt+=(clang)  # the fuzz targets (scripts/fuzz.sh): clang 14, Debian 12's
have_pkg libclang-rt-14-dev || need_apt+=(libclang-rt-14-dev)  # libFuzzer and clang's sanitizer runtimes
have_cmd python3 || need_apt+=(python3)  # the token corpus's Python twins (tests/js/token-corpus.test.cjs)
# examples/durable-queue and its fault test (tests/js/durable-queue.test.cjs) start their own server from
# /usr/lib/postgresql/<major>/bin (initdb, pg_ctl); the package's default cluster is not used.
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need_apt+=(postgresql-15)
if [ "${PTC_SKIP_BROWSER:-}" != 1 ]; then
  have_cmd chromium || need_apt+=(chromium)
fi

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# npm ci only when the lock file changed since the last install.
stamp=node_modules/.ptc-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: npm ci"
  log=$(mktemp)
  if ! npm ci --no-audit --no-fund --loglevel=error 2>"$log"; then
    # The registry mirror here lacks other platforms' optional packages (e.g.
    # @unrs/resolver-binding-android-*), so npm ci calls any lock made here "out of
    # sync". npm install with the same lock installs the same pinned versions.
    if grep -q "EUSAGE" "$log"; then
      echo "setup: npm ci refused the lock file; installing the locked versions with npm install"
      npm install --no-audit --no-fund --loglevel=error
    else
      cat "$log" >&2
      exit 1
    fi
  fi
  rm -f "$log"
  cp package-lock.json "$stamp"
fi
