#!/usr/bin/env bash
# Builds the wasm engine (Emscripten) and the npm package into dist/.
# Arguments are more targets of the wasm build (e.g. ptc_names, see CMakeLists.txt).
# Two modules: ptc.wasm (both dialects, the default) and ptc_json.wasm (PTC-JSON
# only, dist/ptc-json.wasm: createRuntime({ stepFunctions: false })).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# Emscripten's JS optimizer needs acorn, which Debian keeps outside Node's path.
export NODE_PATH=/usr/share/nodejs
# Emscripten builds its system libraries on first use into its cache; use a
# private one when the system cache is not writable.
if [ ! -w /usr/share/emscripten/cache ]; then export EM_CACHE="$PWD/build/emcache"; fi
if [ ! -f build/wasm/build.ninja ]; then
  emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# A failed build stops here (pipefail) rather than bundling the last good wasm.
ninja -C build/wasm ptc ptc_json "$@" | { grep -v "^ninja: no work to do" || true; }
test -f build/wasm/ptc.wasm && test -f build/wasm/ptc_json.wasm

node scripts/bundle.mjs
# Type declarations: tsc writes them to build/types/, bundle-types.mjs copies them
# into dist/types/ as .d.mts (import) and .d.cts (require).
npx tsc -p tsconfig.json
node scripts/bundle-types.mjs
# The playground: type-checked, then bundled into dist/playground/ (a static site).
npx tsc -p playground/tsconfig.json
node scripts/bundle-playground.mjs
echo "build: dist/ ready ($(wc -c < dist/ptc.wasm) bytes of wasm, $(gzip -9c dist/ptc.wasm | wc -c) gzipped;" \
  "ptc-json.wasm $(wc -c < dist/ptc-json.wasm), $(gzip -9c dist/ptc-json.wasm | wc -c) gzipped)"
