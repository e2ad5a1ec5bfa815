#!/usr/bin/env bash
# Makes (once) the Python venv behind the Python kit's tests (clients/python: the svc-sandbox
# package, its pytest plugin, its Testcontainers module) and prints its directory. It holds the
# pinned packages the kit and its example project need, not the kit itself (each run installs the
# kit freshly built: scripts/python-kit-project.sh). Needs python3 (3.10 or newer, with its venv
# module) and pip's access to a Python package index.
#
# Each package comes from the index by its pinned version. testcontainers may be missing from an
# index (a mirror that carries only some packages): the copy kept in this repository is installed
# instead (tools/wheels/); its dependencies always come from the index. The venv lives in a cache
# outside the clone, named after the pins (changing one makes a new venv), so a fresh clone reuses
# it and `git clean` does not remove it.
#
#   SVC_SANDBOX_PYTHON_KIT_VENV   the venv directory (default: $XDG_CACHE_HOME or ~/.cache, then
#                                 svc-sandbox/python-kit-<hash of the pins>)
#
# Exits non-zero, saying why, when python3, venv or a package cannot be had: never a silent skip.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
testcontainers=4.15.0
# httpx: the kit's one dependency; pytest and pytest-xdist: the example project's suite (-n 4);
# flit_core: builds the kit's wheel offline; mypy: checks the kit's types (it ships py.typed).
pins=(httpx==0.28.1 pytest==9.1.1 pytest-xdist==3.8.0 flit_core==4.1.0 mypy==2.4.0)
fallback="$root/tools/wheels/testcontainers-$testcontainers-py3-none-any.whl"
key="$(printf '%s\n' "${pins[@]}" "testcontainers==$testcontainers" | sha256sum | cut -c1-12)"
venv="${SVC_SANDBOX_PYTHON_KIT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-sandbox/python-kit-$key}"

if [ -f "$venv/.ready" ]; then
  echo "$venv"
  exit 0
fi
command -v python3 >/dev/null || { echo "python-kit-venv: python3 is not on PATH" >&2; exit 1; }
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || {
  echo "python-kit-venv: the Python kit needs Python 3.10 or newer; python3 is $(python3 --version 2>&1)" >&2
  exit 1
}

mkdir -p "$(dirname "$venv")"
# Two runs making it at once: the second waits, then finds it made.
exec 9>"$venv.lock"
if command -v flock >/dev/null; then flock 9; fi
if [ -f "$venv/.ready" ]; then
  echo "$venv"
  exit 0
fi

# A venv's scripts name its own directory, so it is made in place; `.ready` marks it complete
# (a half-made one, from an interrupted run, is made again).
rm -rf "$venv"
python3 -m venv "$venv" >&2 || {
  echo "python-kit-venv: python3 -m venv failed (on Debian: apt-get install python3-venv)" >&2
  exit 1
}
pip() { "$venv/bin/pip" install --quiet --disable-pip-version-check --retries 1 --timeout 20 "$@" >&2; }

pip "${pins[@]}" || { echo "python-kit-venv: cannot install ${pins[*]} from pip's index" >&2; exit 1; }
# Asked of the index alone first (no dependencies), so a missing package is told apart from a
# missing dependency in one quick question.
if "$venv/bin/pip" download --quiet --disable-pip-version-check --retries 1 --timeout 20 --no-deps \
  -d "$venv/.download" "testcontainers==$testcontainers" >/dev/null 2>&1; then
  pip "testcontainers==$testcontainers"
else
  echo "python-kit-venv: testcontainers $testcontainers is not on this pip's index; installing the copy in tools/wheels" >&2
  pip "$fallback" || { echo "python-kit-venv: cannot install $fallback (or its dependencies from the index)" >&2; exit 1; }
fi
rm -rf "$venv/.download"
touch "$venv/.ready"
echo "$venv"
