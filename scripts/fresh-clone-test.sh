#!/usr/bin/env bash
# Proves that `npm install && npm test` needs nothing from outside the repository: clones the
# committed HEAD of this checkout into a new temporary folder (the clone has nothing beside it),
# with caches of its own (so the Python generator and the browser come from the registries and the
# repository, not from what this machine already holds), and runs the README's two commands there.
#
#   bash scripts/fresh-clone-test.sh [--keep]
#
# Prints the folder and each step's time; exits with npm test's status. --keep leaves the folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
keep=0
[ "${1:-}" = "--keep" ] && keep=1

work="$(mktemp -d "${TMPDIR:-/tmp}/svc-sandbox-fresh-XXXXXX")"
caches="$(mktemp -d "${TMPDIR:-/tmp}/svc-sandbox-fresh-caches-XXXXXX")"
cleanup() { [ "$keep" -eq 1 ] || rm -rf "$work" "$caches"; }
trap cleanup EXIT
clone="$work/svc-sandbox"
echo "== fresh clone of $(git -C "$root" rev-parse --short HEAD) into $clone (nothing beside it)"
git clone --quiet --no-hardlinks "$root" "$clone"
# Checked again at the end: nothing the run makes may land beside the clone either.
beside() {
  if [ -n "$(ls -A "$work" | grep -v '^svc-sandbox$' || true)" ]; then
    echo "fresh-clone-test: $work holds more than the clone: $(ls -A "$work" | tr '\n' ' ')" >&2
    return 1
  fi
}
beside

# Caches of its own, in a folder apart (the clone's folder holds the clone alone): nothing installed
# earlier on this machine is found.
export XDG_CACHE_HOME="$caches/xdg"
export npm_config_cache="$caches/npm"
# Electron's binary is a download this check does not need (npm start runs headless without it).
export ELECTRON_SKIP_BINARY_DOWNLOAD=1

cd "$clone"
start=$SECONDS
echo "== npm install"
npm install --no-audit --no-fund
echo "npm install: $((SECONDS - start)) s"
start=$SECONDS
echo "== npm test"
status=0
npm test || status=$?
node scripts/test-summary.js test-results/vitest.json || true
echo "npm test: $((SECONDS - start)) s, exit $status"
beside || status=1
exit "$status"
