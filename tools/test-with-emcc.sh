#!/usr/bin/env bash
# test-with-emcc.sh -- every test of this tree again, built with another
# emcc (the one tools/emscripten-current.sh prints, say):
#
#   tools/test-with-emcc.sh EMCC [make targets...]     (default: test)
#
# The tree as it is now (tracked files and untracked ones git does not
# ignore) is copied to build/with-emcc/VERSION/ and built and tested there,
# with that emcc's folder first on PATH (so em++, emar and an npm install's
# emheap-config find it too) and EMCC set for make and the bench. The
# node packages of this tree, and its third-party sources when it has them,
# are reused. The output of make goes to build/with-emcc/VERSION.log too.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 EMCC [make targets...]" >&2; exit 2; }
EMCC=$1
shift
[ -x "$EMCC" ] || { echo "test-with-emcc: $EMCC is not an executable" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VERSION=$("$EMCC" --version | sed -n '1s/.* \([0-9][0-9.]*[^ ]*\)$/\1/p')
[ -n "$VERSION" ] || { echo "test-with-emcc: $EMCC --version says no version" >&2; exit 2; }
DIR=$ROOT/build/with-emcc/$VERSION
mkdir -p "$DIR/tree"

# The tree, refreshed (what was built there before stays, so make rebuilds
# only what changed).
(cd "$ROOT" && git ls-files -z -c -o --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
  tar -x -C "$DIR/tree"
ln -sfn "$ROOT/node_modules" "$DIR/tree/node_modules"
mkdir -p "$DIR/tree/build"
# The third-party sources (npm packs) of this tree, when it has fetched them;
# else the copy's make fetches them itself.
if [ ! -e "$DIR/tree/build/third_party" ] && [ -d "$ROOT/build/third_party" ]; then
  cp -r "$ROOT/build/third_party" "$DIR/tree/build/third_party"
fi

echo "test-with-emcc: Emscripten $VERSION ($EMCC) in ${DIR#$ROOT/}" >&2
cd "$DIR/tree"
export PATH="$(dirname "$EMCC"):$PATH"
export EMCC
set +e
make EMCC="$EMCC" "${@:-test}" 2>&1 | tee "$DIR.log"
status=${PIPESTATUS[0]}
echo "test-with-emcc: Emscripten $VERSION: make ${*:-test} exited $status (log: ${DIR#$ROOT/}.log)" >&2
exit "$status"
