#!/usr/bin/env bash
# Makes (once) the Python venv with openapi-python-client 0.29.0 that the generated-client test
# uses, and prints its directory. Needs python3 (3.11 or newer, with its venv module) and pip's
# access to a Python package index.
#
# The generator comes from the Python package index by its pinned version. Where the index lacks
# it (a mirror that carries only some packages), the copy kept in this repository is installed
# instead (tools/wheels/); its dependencies always come from the index. The venv lives in a cache
# outside the clone, so a fresh clone reuses it and `git clean` does not remove it.
#
#   OPENAPI_PYTHON_CLIENT_VENV   the venv directory (default: $XDG_CACHE_HOME or ~/.cache, then
#                                svc-sandbox/openapi-python-client-0.29.0)
#   OPENAPI_PYTHON_CLIENT_WHEEL  a wheel to install instead of the index's (default: none)
#
# Exits non-zero, saying why, when python3, venv or a package cannot be had.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version=0.29.0
fallback="$root/tools/wheels/openapi_python_client-$version-py3-none-any.whl"
venv="${OPENAPI_PYTHON_CLIENT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-sandbox/openapi-python-client-$version}"

if [ -f "$venv/.ready" ]; then
  echo "$venv"
  exit 0
fi
command -v python3 >/dev/null || { echo "python-client-venv: python3 is not on PATH" >&2; exit 1; }
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "python-client-venv: openapi-python-client $version needs Python 3.11 or newer; python3 is $(python3 --version 2>&1)" >&2
  exit 1
}

# A venv's scripts name its own directory, so it is made in place; `.ready` marks it complete
# (a half-made one, from an interrupted run, is made again).
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv" >&2 || {
  echo "python-client-venv: python3 -m venv failed (on Debian: apt-get install python3-venv)" >&2
  exit 1
}
pip() { "$venv/bin/pip" install --quiet --disable-pip-version-check --retries 1 --timeout 20 "$@" >&2; }

if [ -n "${OPENAPI_PYTHON_CLIENT_WHEEL:-}" ]; then
  pip "$OPENAPI_PYTHON_CLIENT_WHEEL"
# Asked of the index alone first (no dependencies), so a missing generator is told apart from a
# missing dependency in one quick question.
elif "$venv/bin/pip" download --quiet --disable-pip-version-check --retries 1 --timeout 20 --no-deps \
  -d "$venv/.download" "openapi-python-client==$version" >/dev/null 2>&1; then
  pip "openapi-python-client==$version"
else
  echo "python-client-venv: openapi-python-client $version is not on this pip's index; installing the copy in tools/wheels" >&2
  pip "$fallback"
fi
rm -rf "$venv/.download"
touch "$venv/.ready"
echo "$venv"
