"""SvcSandboxContainer's readiness, with a stand-in for the container (the real image runs only in
npm run test:container): the engine's health status, or the image's check run by the kit where the
engine schedules none."""

import pytest

from svc_sandbox.testcontainers import ImageHealthcheck


class StandIn:
    """What the wait strategy reads of a container: its inspect data, refreshed by reload()."""

    def __init__(self, states, check_exit=1):
        self.states = list(states)
        self.attrs = {}
        self.check_exit = check_exit
        self.ran = []

    def get_wrapped_container(self):
        return self

    def reload(self):
        self.attrs = self.states.pop(0) if len(self.states) > 1 else self.states[0]

    def exec_run(self, command):
        self.ran.append(command)
        return self.check_exit, b""

    def get_logs(self):
        return b"svc-sandbox ready test=http://127.0.0.1:4010\n", b""


CONFIG = {"Config": {"Healthcheck": {"Test": ["CMD", "node", "/app/healthcheck.js"]}}}


def strategy(run_check_after=0.0):
    return ImageHealthcheck(run_check_after=run_check_after).with_poll_interval(0.01).with_startup_timeout(2)


def test_ready_when_the_engine_reports_healthy():
    container = StandIn(
        [
            {**CONFIG, "State": {"Status": "running", "Health": {"Status": s, "Log": [{}]}}}
            for s in ("starting", "healthy")
        ]
    )
    strategy().wait_until_ready(container)
    assert container.ran == []


def test_an_engine_that_runs_no_checks_gets_the_images_check_run():
    container = StandIn([{**CONFIG, "State": {"Status": "running", "Health": {"Status": "starting", "Log": []}}}], 0)
    strategy().wait_until_ready(container)
    assert container.ran == [["node", "/app/healthcheck.js"]]


def test_unhealthy_or_exited_fails_at_once_with_the_output():
    for state in (
        {"Status": "running", "Health": {"Status": "unhealthy", "Log": [{}]}},
        {"Status": "exited", "ExitCode": 2},
    ):
        with pytest.raises(RuntimeError, match="svc-sandbox ready"):
            strategy(run_check_after=60).wait_until_ready(StandIn([{**CONFIG, "State": state}]))
