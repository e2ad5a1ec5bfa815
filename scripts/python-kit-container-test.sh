#!/usr/bin/env bash
# The Python kit's Testcontainers module (svc_sandbox.testcontainers) against the image
# `npm run test:container` just built: scripts/test-container.sh runs it after the image's own test.
# The example project (scripts/python-kit-project.sh) runs its container/ suite: SvcSandboxContainer
# started, healthy, and every test's workspace made in it through the plugin's fixtures.
#
#   bash scripts/python-kit-container-test.sh [IMAGE]     (default localhost/svc-sandbox:local)
#
# testcontainers speaks the Docker API: podman serves it on a socket of this run
# (`podman system service`, stopped at the end) named by DOCKER_HOST. Ryuk, testcontainers' reaper,
# is off: its image comes from a registry and none is reachable here; the fixture removes its
# container itself. Fails, never skips: no podman, no python3, a test skipped or failing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
image="${1:-localhost/svc-sandbox:local}"
command -v podman >/dev/null || { echo "python-kit-container-test: podman is not on PATH" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/svc-sandbox-py-container.XXXXXX")"
sock="$work/podman.sock"
podman system service --time=0 "unix://$sock" >"$work/podman-service.log" 2>&1 &
service=$!
trap 'kill "$service" 2>/dev/null || true; wait "$service" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  [ -S "$sock" ] && break
  sleep 0.1
done
if [ ! -S "$sock" ]; then
  echo "python-kit-container-test: podman system service opened no socket at $sock" >&2
  cat "$work/podman-service.log" >&2
  exit 1
fi

echo "== the Python kit's container module (svc_sandbox.testcontainers) against $image"
python="$(bash "$root/scripts/python-kit-project.sh" "$work/project")"
cd "$work/project"
status=0
DOCKER_HOST="unix://$sock" TESTCONTAINERS_RYUK_DISABLED=true SVC_SANDBOX_IMAGE="$image" \
  "$python" -m pytest -p no:cacheprovider -v -rfEs --junitxml="$work/container.xml" container/ || status=$?
if [ "$status" -ne 0 ]; then
  echo "python-kit-container-test: FAILED (pytest exit $status)" >&2
  exit "$status"
fi
# Every test ran: a skip (no engine answering, say) is a failure here.
"$python" - "$work/container.xml" <<'PY'
import sys
import xml.etree.ElementTree as tree

suite = tree.parse(sys.argv[1]).getroot()
suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
counts = {name: int(suite.get(name, "0")) for name in ("tests", "failures", "errors", "skipped")}
if counts["tests"] < 2 or counts["failures"] or counts["errors"] or counts["skipped"]:
    sys.exit(f"python-kit-container-test: expected every container test to pass, got {counts}")
print(f"python-kit-container-test: {counts['tests']} tests passed against the container")
PY
