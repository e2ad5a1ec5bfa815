#!/usr/bin/env bash
# Makes (once) the Python venv with openapi-python-client 0.29.0 that the generated-client test
# uses, and prints its directory. The venv lives in a cache outside the clone, so a fresh clone
# reuses it and `git clean` does not remove it. The wheel is not on a registry reachable here: it
# comes from the shared tools folder beside the clone (../shared/tools/wheels); its dependencies
# install from the machine's pip configuration.
#
#   OPENAPI_PYTHON_CLIENT_VENV   the venv directory (default: $XDG_CACHE_HOME or ~/.cache, then
#                                svc-sandbox/openapi-python-client-0.29.0)
#   OPENAPI_PYTHON_CLIENT_WHEEL  the wheel (default: found under ../shared or ../../shared)
#
# Exits non-zero, saying why, when python3, the wheel or a dependency is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wheel_name=openapi_python_client-0.29.0-py3-none-any.whl
venv="${OPENAPI_PYTHON_CLIENT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-sandbox/openapi-python-client-0.29.0}"

if [ -f "$venv/.ready" ]; then
  echo "$venv"
  exit 0
fi

wheel="${OPENAPI_PYTHON_CLIENT_WHEEL:-}"
if [ -z "$wheel" ]; then
  # A clone sits beside shared/; a git worktree under wt/ sits one level deeper.
  for dir in "$root/../shared" "$root/../../shared"; do
    if [ -f "$dir/tools/wheels/$wheel_name" ]; then
      wheel="$dir/tools/wheels/$wheel_name"
      break
    fi
  done
fi
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
  echo "python-client-venv: $wheel_name not found in ../shared/tools/wheels (set OPENAPI_PYTHON_CLIENT_WHEEL)" >&2
  exit 1
fi
command -v python3 >/dev/null || { echo "python-client-venv: python3 is not on PATH" >&2; exit 1; }

# A venv's scripts name its own directory, so it is made in place; `.ready` marks it complete
# (a half-made one, from an interrupted run, is made again).
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv" >&2
# One retry: an index this machine cannot reach is passed over quickly for the configured local ones.
"$venv/bin/pip" install --quiet --retries 1 --timeout 20 "$wheel" >&2
touch "$venv/.ready"
echo "$venv"
