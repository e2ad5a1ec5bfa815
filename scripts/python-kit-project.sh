#!/usr/bin/env bash
# Sets up the Python kit's example consumer project (clients/python/example) in DIR as a user
# would: its own folder, its own venv, the kit installed with pip from the wheel just built
# (scripts/python-kit-wheel.sh), with the testcontainers extra. Prints the venv's python.
#
# The third-party packages (pytest, pytest-xdist, httpx, testcontainers…) are the kit venv's
# (scripts/python-kit-venv.sh, cached outside the clone): the project's venv sees them through a
# .pth file, so pip resolves the wheel's declared dependencies against them (--no-index: a
# dependency the wheel declares and the venv lacks fails the install) and installs only the kit.
# A venv made from nothing each run would cost about 15 s more on two cores.
#
#   bash scripts/python-kit-project.sh .tmp/python-kit && cd .tmp/python-kit && .venv/bin/python -m pytest -n 4
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:?usage: scripts/python-kit-project.sh DIR}"
kit="$(bash "$root/scripts/python-kit-venv.sh")"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
cp -R "$root/clients/python/example/." "$dir/"
wheel="$(bash "$root/scripts/python-kit-wheel.sh" "$dir/dist")"
rm -rf "$dir/.venv"
python3 -m venv --without-pip "$dir/.venv"
site="$("$dir/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
kit_site="$("$kit/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$kit_site" >"$site/svc-sandbox-kit-venv.pth"
"$dir/.venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index "$wheel[testcontainers]" >&2
"$dir/.venv/bin/python" -m pip check >&2
echo "$dir/.venv/bin/python"
