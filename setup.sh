#!/usr/bin/env bash
# setup.sh -- first command on a fresh Debian machine: installs what is
# missing (Debian packages, npm packages), builds emheap and its samples, and
# profiles the sample app in headless Chromium to show that it all works.
#
#   ./setup.sh                 install + build + headless demo (prints the top sites)
#   ./setup.sh --install-only  install what is missing, nothing else (CI uses this)
set -euo pipefail
cd "$(dirname "$0")"

# command -> Debian package that provides it
declare -A PACKAGES=(
  [emcc]=emscripten [wasm-opt]=binaryen [wasm-objdump]=wabt
  [chromium]=chromium [jq]=jq [node]=nodejs [npm]=npm [make]=make
  [go]=golang-go   # `go tool pprof` reads the pprof export in the tests
  [firefox-esr]=firefox-esr   # tests/firefox.test.js: JS stacks from Firefox's stack text
  [valgrind]=valgrind   # its dh_view.html opens the DHAT export in tests/dhat.test.js
  [cmake]=cmake   # tests/npm_package.test.js builds a CMake app with emcmake
  # tests/dwarf.test.js: a module with DWARF built without emcc, its lines
  # checked against llvm-symbolizer's
  [clang]=clang [wasm-ld]=lld [llvm-symbolizer]=llvm
)

missing=()
for cmd in "${!PACKAGES[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${PACKAGES[$cmd]}")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi

[ "${1:-}" = "--install-only" ] && exit 0

make -s all
node samples/run-demo.js
