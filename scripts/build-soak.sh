#!/usr/bin/env bash
# Builds the server N times in a row (default 50) and stops at the first failure: a check that the
# build is not flaky (the bundle step's code-cache pass starts and closes a sandbox in a child
# process; a native crash there fails the build). `--bundle-only`: tsc once, then only the bundle
# step N times (the step that runs native code; ~10x faster than the whole build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=50
bundle_only=false
for arg in "$@"; do
  case "$arg" in
    --bundle-only) bundle_only=true ;;
    *) runs="$arg" ;;
  esac
done
echo "build-soak: $runs builds on node $(node --version)$([ "$bundle_only" = true ] && echo ' (bundle step only)')"
if [ "$bundle_only" = true ]; then npm run build:server --silent >/dev/null; fi
for i in $(seq 1 "$runs"); do
  if [ "$bundle_only" = true ]; then
    out="$(node scripts/bundle-server.js 2>&1)" || { echo "$out"; echo "build-soak: build $i of $runs FAILED"; exit 1; }
  else
    out="$(npm run build:server --silent 2>&1)" || { echo "$out"; echo "build-soak: build $i of $runs FAILED"; exit 1; }
  fi
  echo "build-soak: $i/$runs ok"
done
echo "build-soak: $runs of $runs builds passed"
