"""What the plugin reports, seen from outside: pytest sessions of their own (pytester) against this
run's sandbox."""

import json
import os
import re
import shlex
import shutil
import stat

import httpx
import pytest

from svc_sandbox import Sandbox, SandboxRequestError


@pytest.fixture
def inner(pytester, svc_sandbox, monkeypatch):
    """A pytest run of its own, pointed at this run's sandbox."""
    monkeypatch.setenv("SVC_SANDBOX_URL", svc_sandbox.test_url)
    if svc_sandbox.control_token:
        monkeypatch.setenv("SVC_SANDBOX_CONTROL_TOKEN", svc_sandbox.control_token)
    return pytester


def test_a_failed_tests_workspace_is_kept_and_named_the_others_deleted(inner, svc_sandbox, tmp_path):
    ids = tmp_path / "ids.txt"
    inner.makepyfile(
        test_inner=f"""
        def test_passes(workspace):
            open({str(ids)!r}, "a").write(workspace.id + "\\n")

        def test_fails(workspace):
            workspace.merchant()
            assert 1 + 1 == 3
        """
    )
    report = tmp_path / "report.xml"
    result = inner.runpytest_inprocess("-p", "no:cacheprovider", f"--junitxml={report}")
    result.assert_outcomes(passed=1, failed=1)
    output = result.stdout.str()
    kept = re.search(r"workspace kept: test_fails-[0-9a-f]{8} \((ws_\w+)\)", output)
    assert kept, output
    assert f'<property name="svc_sandbox_workspace" value="{kept.group(1)}" />' in report.read_text()
    assert "test_inner.py::test_fails: workspace kept:" in output  # the summary at the end
    assert f"dashboard: {svc_sandbox.test_url}/?workspace={kept.group(1)}" in output
    # The failed test's workspace is still there, with its merchant; the passing test's is gone.
    assert svc_sandbox.call("sandboxGetWorkspace", params={"id": kept.group(1)})["id"] == kept.group(1)
    with pytest.raises(SandboxRequestError) as gone:
        svc_sandbox.call("sandboxGetWorkspace", params={"id": ids.read_text().strip()})
    assert gone.value.status == 404
    svc_sandbox.call("sandboxDeleteWorkspace", params={"id": kept.group(1)})


def test_coverage_over_the_whole_run(inner, tmp_path):
    inner.makeconftest(
        """
        import pytest
        from datetime import timedelta

        @pytest.fixture
        def paid(workspace):
            shop = workspace.merchant()
            expires_at = (workspace.clock.now() + timedelta(hours=1)).isoformat()
            body = {"title": "Order", "amount": 1000000, "expires_at": expires_at}
            checkout = shop.api.post("/v1/checkouts", json=body).json()
            return workspace.pay(checkout)
        """
    )
    inner.makepyfile(test_inner="def test_one(paid): pass\n\ndef test_two(paid): pass\n")
    target = tmp_path / "reports" / "coverage.json"
    result = inner.runpytest_inprocess("-p", "no:cacheprovider", f"--svc-sandbox-coverage={target}")
    result.assert_outcomes(passed=2)
    result.stdout.re_match_lines(
        [r"coverage: \d+ of \d+ event types and \d+ of \d+ state transitions reached, over 2 workspaces"]
    )
    report = json.loads(target.read_text())
    counts = {e["type"]: e["count"] for e in report["events"]}
    assert counts["checkout.paid"] == 2 and counts["checkout.created"] == 2
    assert "| checkout.paid | 2 |" in target.with_suffix(".md").read_text()


def test_no_sandbox_says_both_ways_to_get_one(pytester, monkeypatch, tmp_path):
    pytester.makepyfile(test_inner="def test_needs_one(workspace): pass\n")
    monkeypatch.delenv("SVC_SANDBOX_URL", raising=False)
    monkeypatch.delenv("SVC_SANDBOX_COMMAND", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # neither svc-sandbox nor npx
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    output = result.stdout.str()
    assert "neither svc-sandbox nor npx is on PATH" in output
    assert "set SVC_SANDBOX_URL to a running sandbox" in output and "SVC_SANDBOX_COMMAND=" in output

    monkeypatch.setenv("SVC_SANDBOX_COMMAND", str(tmp_path / "no-such-cli"))
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    assert "cannot run" in result.stdout.str() and "npm install --save-dev svc-sandbox" in result.stdout.str()

    monkeypatch.setenv("SVC_SANDBOX_URL", "http://127.0.0.1:9")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    assert "SVC_SANDBOX_URL=http://127.0.0.1:9 does not answer as a sandbox" in result.stdout.str()


def _cli():
    """The CLI this test starts sandboxes with: SVC_SANDBOX_COMMAND, else svc-sandbox on PATH."""
    command = os.environ.get("SVC_SANDBOX_COMMAND")
    parts = shlex.split(command) if command else [shutil.which("svc-sandbox") or ""]
    parts[0] = shutil.which(parts[0]) or parts[0]
    if not parts[0]:
        pytest.fail("this test starts sandboxes of its own: set SVC_SANDBOX_COMMAND or put svc-sandbox on PATH")
    return parts


@pytest.mark.parametrize("found_as", ["svc-sandbox", "npx"])
def test_the_plugin_starts_serve_when_no_url_is_set_and_stops_it_at_the_end(pytester, monkeypatch, tmp_path, found_as):
    # A stand-in on PATH records how the plugin called it, then runs the real CLI.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls, urls = tmp_path / "calls.txt", tmp_path / "urls.txt"
    drop = "shift 2; " if found_as == "npx" else ""  # npx --no svc-sandbox <args>
    stand_in = bin_dir / found_as
    stand_in.write_text(f'#!/bin/sh\necho "$*" >> {shlex.quote(str(calls))}\n{drop}exec {shlex.join(_cli())} "$@"\n')
    stand_in.chmod(stand_in.stat().st_mode | stat.S_IXUSR)
    monkeypatch.delenv("SVC_SANDBOX_URL", raising=False)
    monkeypatch.delenv("SVC_SANDBOX_COMMAND", raising=False)
    monkeypatch.setenv("PATH", os.pathsep.join([str(bin_dir), "/usr/bin", "/bin"]))
    pytester.makepyfile(
        test_inner=f"""
        def test_one(svc_sandbox, workspace):
            open({str(urls)!r}, "a").write(svc_sandbox.test_url + "\\n")
            workspace.merchant()

        def test_two(svc_sandbox):
            open({str(urls)!r}, "a").write(svc_sandbox.test_url + "\\n")
        """
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["svc-sandbox: starts svc-sandbox serve when a test needs it (svc-sandbox on PATH, else npx)"]
    )
    expected = "serve --port 0 --prod-port 0 --db :memory:"
    assert calls.read_text().splitlines() == [f"--no svc-sandbox {expected}" if found_as == "npx" else expected]
    started = set(urls.read_text().split())
    assert len(started) == 1  # one sandbox for the run
    with pytest.raises(httpx.TransportError):  # and it is stopped at the end
        httpx.get(f"{started.pop()}/sandbox/health", timeout=2)


def test_outside_pytest_fixtures_a_sandbox_is_started_and_stopped_by_hand():
    with Sandbox.start(_cli()) as sandbox:
        assert sandbox.health()["status"] == "ok"
        with sandbox.workspace(seed="by-hand") as made:
            assert made.merchant().api.get("/v1/checkouts").json() == []
        url = sandbox.test_url
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/sandbox/health", timeout=2)
