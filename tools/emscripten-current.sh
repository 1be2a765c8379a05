#!/usr/bin/env bash
# emscripten-current.sh -- a newer Emscripten than Debian's 3.1.6, built on
# this machine from what it can reach: Emscripten's sources (a git
# repository with its release tags), Debian's clang/lld/llvm, and binaryen
# built from its sources (a git repository with its release tags) or, when
# none is given, binaryen from npm. For checking emheap against the
# Emscripten people install with emsdk; neither setup.sh nor `make test`
# needs it.
#
#   tools/emscripten-current.sh EMSCRIPTEN_GIT_DIR [TAG] [BINARYEN_GIT_DIR]
#
# EMSCRIPTEN_GIT_DIR: a clone of github.com/emscripten-core/emscripten (bare
# or not). TAG: the release to build; by default the newest release whose
# expected LLVM major version (tools/shared.py) is one Debian has as
# clang-N. An older or newer TAG works too: a release that expects a newer
# LLVM than Debian has is built with the nearest one (Emscripten warns):
# 5.0.7 builds with clang-22.
# BINARYEN_GIT_DIR: a clone of github.com/WebAssembly/binaryen; its tag
# version_N, N the binaryen the release expects (tools/building.py), is
# built with cmake and ninja (Emscripten's tools only), with every tool
# Emscripten runs, wasm-emscripten-finalize among them. Without it binaryen
# comes from npm, whose package has no wasm-emscripten-finalize: links that
# need it (-sASYNCIFY, -sWASM_BIGINT=0, wasm2js...) then fail.
# Everything goes to $EMHEAP_EMSCRIPTEN_HOME (default
# ~/.cache/emheap-emscripten)/TAG: the sources, binaryen, a private
# .emscripten config and system-library cache, and bin/emcc, bin/em++
# wrappers that use them. The last line printed is EMCC=..., for
#
#   make test-emscripten-current EMCC_CURRENT=...
set -euo pipefail

die() { echo "emscripten-current: $*" >&2; exit 1; }
say() { echo "emscripten-current: $*" >&2; }

[ $# -ge 1 ] || die "usage: $0 EMSCRIPTEN_GIT_DIR [TAG] [BINARYEN_GIT_DIR]"
SRC=$1
TAG=${2:-}
BINARYEN_SRC=${3:-}
git --git-dir="$SRC/.git" rev-parse --git-dir >/dev/null 2>&1 && SRC="$SRC/.git"
git --git-dir="$SRC" rev-parse --git-dir >/dev/null 2>&1 || die "$SRC is not a git repository"
G() { git --git-dir="$SRC" "$@"; }

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

# What a release expects, read from its own sources.
expected_llvm() { G show "$1:tools/shared.py" 2>/dev/null | sed -n 's/^EXPECTED_LLVM_VERSION = \([0-9]*\).*/\1/p' | head -1; }
expected_binaryen() { G show "$1:tools/building.py" 2>/dev/null | sed -n 's/^EXPECTED_BINARYEN_VERSION = \([0-9]*\).*/\1/p' | head -1; }

# The newest clang-N Debian offers (installed or not).
apt_llvm=
for n in $(seq 30 -1 14); do
  case "$(apt-cache policy "clang-$n" 2>/dev/null)" in *"Candidate: "[0-9]*) apt_llvm=$n; break ;; esac
done
[ -n "$apt_llvm" ] || die "apt offers no clang-N package"

if [ -z "$TAG" ]; then
  for t in $(G tag --list '[0-9]*.[0-9]*.[0-9]*' | sort -V -r || true); do
    if [ "$(expected_llvm "$t")" = "$apt_llvm" ]; then TAG=$t; break; fi
  done
  [ -n "$TAG" ] || die "no release of $SRC expects LLVM $apt_llvm"
fi
G rev-parse --verify -q "$TAG^{commit}" >/dev/null || die "no tag $TAG in $SRC"
LLVM=$(expected_llvm "$TAG")
BINARYEN=$(expected_binaryen "$TAG")
[ -n "$LLVM" ] && [ -n "$BINARYEN" ] || die "$TAG: cannot read its expected LLVM and binaryen versions"
# A release that expects a newer LLVM than apt has is tried with apt's
# newest (Emscripten warns, and usually works with the one before).
[ "$LLVM" -le "$apt_llvm" ] || { say "$TAG expects LLVM $LLVM; using clang-$apt_llvm, the newest apt has"; LLVM=$apt_llvm; }
if [ -n "$BINARYEN_SRC" ]; then binaryen_from="its sources"; else binaryen_from=npm; fi
say "Emscripten $TAG, LLVM $LLVM (apt), binaryen $BINARYEN ($binaryen_from)"

HOME_DIR=${EMHEAP_EMSCRIPTEN_HOME:-$HOME/.cache/emheap-emscripten}
OUT=$HOME_DIR/$TAG
mkdir -p "$OUT"

# 1. clang, lld and llvm (llvm-nm, llvm-ar, llvm-objcopy...) from apt.
if ! command -v "clang-$LLVM" >/dev/null || ! command -v "wasm-ld-$LLVM" >/dev/null || [ ! -x "/usr/lib/llvm-$LLVM/bin/llvm-nm" ]; then
  say "installing clang-$LLVM lld-$LLVM llvm-$LLVM (apt)"
  $SUDO apt-get install -y --no-install-recommends "clang-$LLVM" "lld-$LLVM" "llvm-$LLVM" >&2
fi
LLVM_ROOT=/usr/lib/llvm-$LLVM/bin
[ -x "$LLVM_ROOT/clang" ] && [ -x "$LLVM_ROOT/wasm-ld" ] || die "$LLVM_ROOT has no clang or wasm-ld"

# 2. The sources of the release, as they are at its tag.
if [ ! -f "$OUT/emscripten/emcc.py" ]; then
  say "extracting $TAG"
  rm -rf "$OUT/emscripten.part" && mkdir -p "$OUT/emscripten.part"
  # A partial copy of the repository (a mirror without its largest files)
  # lacks some blobs: those files are left out, and named.
  G ls-tree -r "$TAG" > "$OUT/tree.txt"
  missing=$(paste -d' ' <(cut -f1 "$OUT/tree.txt" | awk '{print $3}' | G cat-file --batch-check) \
    <(cut -f2 "$OUT/tree.txt") | awk '$2 == "missing" {print $3}')
  rm -f "$OUT/tree.txt"
  excludes=()
  for path in $missing; do
    say "left out (not in $SRC): $path"
    excludes+=(":(exclude)$path")
  done
  G archive "$TAG" -- . "${excludes[@]}" | tar -x -C "$OUT/emscripten.part"
  mv "$OUT/emscripten.part" "$OUT/emscripten"
fi
# Its launchers (emar, emranlib...: generated, not in git) and its JS
# tools' packages (acorn, terser, the HTML minifier...).
if [ ! -e "$OUT/emscripten/emar" ] && [ -f "$OUT/emscripten/tools/maint/create_entry_points.py" ]; then
  (cd "$OUT/emscripten" && python3 tools/maint/create_entry_points.py >&2)
fi
if [ ! -d "$OUT/emscripten/node_modules/acorn" ]; then
  say "npm ci in the sources"
  (cd "$OUT/emscripten" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >&2)
fi

# 3. binaryen. From its sources when given: the tools Emscripten runs,
# native, at the version the release expects (a release expecting one the
# repository has no tag of is built with the next tag up; Emscripten only
# warns about a newer binaryen).
if [ -n "$BINARYEN_SRC" ]; then
  git --git-dir="$BINARYEN_SRC/.git" rev-parse --git-dir >/dev/null 2>&1 && BINARYEN_SRC="$BINARYEN_SRC/.git"
  B() { git --git-dir="$BINARYEN_SRC" "$@"; }
  B rev-parse --git-dir >/dev/null 2>&1 || die "$BINARYEN_SRC is not a git repository"
  BINARYEN_ROOT=$OUT/binaryen-native
  if [ ! -x "$BINARYEN_ROOT/bin/wasm-emscripten-finalize" ]; then
    got=
    for v in $BINARYEN $((BINARYEN + 1)) $((BINARYEN + 2)); do
      if B rev-parse --verify -q "version_$v^{commit}" >/dev/null; then got=$v; break; fi
    done
    [ -n "$got" ] || die "$BINARYEN_SRC has no tag version_$BINARYEN (nor the next two)"
    [ "$got" = "$BINARYEN" ] || say "$TAG expects binaryen $BINARYEN; building $got, the next tag there is"
    BINARYEN=$got
    for tool in cmake ninja g++; do command -v $tool >/dev/null || missing_tools="${missing_tools:-} $tool"; done
    if [ -n "${missing_tools:-}" ]; then
      say "installing cmake ninja-build g++ (apt)"
      $SUDO apt-get install -y --no-install-recommends cmake ninja-build g++ >&2
    fi
    say "building binaryen $BINARYEN from its sources (minutes: 20 on 2 cores)"
    rm -rf "$OUT/binaryen-src" && mkdir -p "$OUT/binaryen-src"
    B archive "version_$BINARYEN" | tar -x -C "$OUT/binaryen-src"
    cmake -S "$OUT/binaryen-src" -B "$OUT/binaryen-src/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DBUILD_TESTS=OFF -DBUILD_EMSCRIPTEN_TOOLS_ONLY=ON -DENABLE_WERROR=OFF -DBYN_ENABLE_ASSERTIONS=OFF \
      -DCMAKE_INSTALL_PREFIX="$BINARYEN_ROOT" >&2
    ninja -C "$OUT/binaryen-src/build" install >&2
    rm -rf "$OUT/binaryen-src"
  fi
else
  # From npm: bin/wasm-opt and friends are node scripts.
  BINARYEN_ROOT=$OUT/binaryen/node_modules/binaryen
  # npm lacks some versions (128 among them): the next one up is taken then,
  # as Emscripten only warns about a binaryen newer than it expects.
  if [ ! -x "$BINARYEN_ROOT/bin/wasm-opt" ]; then
    mkdir -p "$OUT/binaryen"
    got=
    for v in $BINARYEN $((BINARYEN + 1)) $((BINARYEN + 2)) $((BINARYEN + 3)); do
      say "npm install binaryen@$v"
      if (cd "$OUT/binaryen" && npm install --no-save --no-audit --no-fund --loglevel=error "binaryen@$v" >&2); then
        got=$v
        break
      fi
    done
    [ -n "$got" ] || die "npm has no binaryen from $BINARYEN to $((BINARYEN + 3))"
    [ "$got" = "$BINARYEN" ] || say "$TAG expects binaryen $BINARYEN; using $got, the next npm has"
    BINARYEN=$got
  fi
  chmod +x "$BINARYEN_ROOT"/bin/* 2>/dev/null || true
fi
for tool in wasm-opt wasm-metadce wasm2js wasm-ctor-eval wasm-split wasm-emscripten-finalize; do
  [ -e "$BINARYEN_ROOT/bin/$tool" ] || say "note: this binaryen has no bin/$tool (the emcc options that need it will fail)"
done

# 4. A private config and cache, and wrappers that use them. The config is
# the sources' embedded one (emscripten/.emscripten, as `emsdk --embedded`
# writes it): Emscripten finds it by itself wherever its tools are called
# from, as CMake's toolchain file calls em++ directly.
NODE_JS=$(command -v node) || die "no node"
CONFIG=$OUT/emscripten/.emscripten
cat > "$CONFIG" <<EOF
LLVM_ROOT = '$LLVM_ROOT'
BINARYEN_ROOT = '$BINARYEN_ROOT'
NODE_JS = '$NODE_JS'
CACHE = '$OUT/cache'
EOF
mkdir -p "$OUT/bin"
for tool in emcc em++ emar emranlib emcmake emconfigure; do
  cat > "$OUT/bin/$tool" <<EOF
#!/bin/sh
# $tool of Emscripten $TAG with its private config (tools/emscripten-current.sh)
EM_CONFIG='$CONFIG' exec '$OUT/emscripten/$tool' "\$@"
EOF
  chmod +x "$OUT/bin/$tool"
done

# 5. It works: a C program compiled, linked and run (the first run builds
# the system libraries into the cache: minutes).
say "checking: hello world (the first build fills the cache)"
mkdir -p "$OUT/check"
printf '#include <stdio.h>\n#include <stdlib.h>\nint main(void) { char *p = malloc(5); printf("ok %%d\\n", p != 0); free(p); return 0; }\n' > "$OUT/check/hello.c"
"$OUT/bin/emcc" -O2 "$OUT/check/hello.c" -o "$OUT/check/hello.js" >&2
[ "$("$NODE_JS" "$OUT/check/hello.js")" = "ok 1" ] || die "the check program did not print ok"
"$OUT/bin/emcc" --version | head -1 >&2
echo "EMCC=$OUT/bin/emcc"
