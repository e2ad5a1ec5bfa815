#!/usr/bin/env bash
# Builds the Python kit's wheel (clients/python: svc_sandbox-<version>-py3-none-any.whl) into OUT
# (default dist/python) and prints its path. Offline: the build backend (flit_core) comes from the
# kit's venv (scripts/python-kit-venv.sh, made when missing). A CI job then installs it as any
# package: `pip install dist/python/svc_sandbox-0.1.0-py3-none-any.whl` (add `[testcontainers]`
# for the container module). Without this script: `pip wheel --no-deps ./clients/python -w OUT`
# (pip fetches flit_core from the index), or `pip install ./clients/python` straight from the checkout.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/dist/python}"
venv="$(bash "$root/scripts/python-kit-venv.sh")"
mkdir -p "$out"
# Built from a copy: a build writes nothing into the checkout (no build/ or egg-info beside the sources).
work="$(mktemp -d "${TMPDIR:-/tmp}/svc-sandbox-kit-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -R "$root/clients/python/pyproject.toml" "$root/clients/python/README.md" "$root/clients/python/src" "$work/"
"$venv/bin/pip" wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation --no-index \
  -w "$out" "$work" >&2
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/clients/python/pyproject.toml")"
wheel="$out/svc_sandbox-$version-py3-none-any.whl"
[ -f "$wheel" ] || { echo "python-kit-wheel: no $wheel after the build" >&2; exit 1; }
echo "$wheel"
