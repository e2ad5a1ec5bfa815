"""svc-sandbox's container image under Testcontainers: ``SvcSandboxContainer``.

Needs the extra: ``pip install "svc-sandbox[testcontainers]"``, and a container engine (Docker, or
podman's Docker-compatible socket through ``DOCKER_HOST``)::

    from svc_sandbox.testcontainers import SvcSandboxContainer

    with SvcSandboxContainer("ghcr.io/OWNER/svc-sandbox:latest") as container:
        os.environ["SVC_SANDBOX_URL"] = container.get_url()   # what the pytest plugin connects to
        with container.sandbox() as sandbox:                  # or a Sandbox here and now
            ...

The container runs the image as built (its ``serve`` command), in memory (no volume written), on
ports published to free host ports. It is ready when the image's own HEALTHCHECK says healthy.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from testcontainers.core.container import DockerContainer
from testcontainers.core.waiting_utils import WaitStrategy, WaitStrategyTarget

from ._sandbox import Sandbox

#: The image when none is named: ``$SVC_SANDBOX_IMAGE``, else what ``npm run test:container`` builds.
DEFAULT_IMAGE = "svc-sandbox:local"
IMAGE_ENV = "SVC_SANDBOX_IMAGE"
TEST_PORT = 4010
PRODUCTION_PORT = 4011
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}


class ImageHealthcheck(WaitStrategy):
    """Ready when the image's HEALTHCHECK (``node /app/healthcheck.js``: ``/sandbox/health`` answers)
    reports healthy, as the engine runs it.

    An engine that never schedules health checks (podman without systemd) has recorded no result
    after the image's start interval: the check's own command is then run in the container (what
    ``podman healthcheck run`` does), and its exit code decides. A container that exits, or a check
    that reports unhealthy, fails at once with the container's output."""

    def __init__(self, run_check_after: float = 6.0) -> None:
        super().__init__()
        self.run_check_after = run_check_after

    def wait_until_ready(self, container: WaitStrategyTarget) -> None:
        wrapped = container.get_wrapped_container()
        started = time.monotonic()
        while True:
            wrapped.reload()
            attrs: dict[str, Any] = wrapped.attrs
            state = attrs.get("State") or {}
            health = state.get("Health") or {}
            status = health.get("Status")
            if status == "healthy":
                return
            if status == "unhealthy" or state.get("Status") in ("exited", "dead"):
                stdout, stderr = container.get_logs()
                raise RuntimeError(
                    f"svc-sandbox container: {status or state.get('Status')} "
                    f"(exit code {state.get('ExitCode')}):\n{(stdout + stderr).decode('utf-8', 'replace')}"
                )
            elapsed = time.monotonic() - started
            if not health.get("Log") and elapsed >= self.run_check_after:
                code, _ = wrapped.exec_run(self._check_command(attrs))
                if code == 0:
                    return
            if elapsed > self._startup_timeout:
                raise TimeoutError(
                    f"svc-sandbox container: not healthy within {self._startup_timeout:g} s "
                    f"(health: {status or 'no result'})"
                )
            time.sleep(self._poll_interval)

    @staticmethod
    def _check_command(attrs: dict[str, Any]) -> list[str]:
        test = ((attrs.get("Config") or {}).get("Healthcheck") or {}).get("Test") or []
        if test and test[0] == "CMD":
            return list(test[1:])
        if test and test[0] == "CMD-SHELL":
            return ["/bin/sh", "-c", test[1]]
        # An image built in a format that drops HEALTHCHECK (podman's default OCI): the image's check.
        return ["node", "/app/healthcheck.js"]


class SvcSandboxContainer(DockerContainer):
    """The svc-sandbox image as a test container: in memory, ports published, ready when healthy.

    ``image``: default ``$SVC_SANDBOX_IMAGE``, else ``svc-sandbox:local``. ``control_token``: every
    control call must then send it (:meth:`sandbox` does). ``seed``: ids, keys and addresses repeat.
    ``allow_hosts``: more host names requests may use (a remote Docker host's name is added itself).
    """

    def __init__(
        self,
        image: str | None = None,
        *,
        control_token: str | None = None,
        seed: str | None = None,
        allow_hosts: Sequence[str] = (),
        startup_timeout: float = 60.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(image or os.environ.get(IMAGE_ENV) or DEFAULT_IMAGE, **kwargs)
        self.control_token = control_token
        self.allow_hosts = list(allow_hosts)
        self.with_exposed_ports(TEST_PORT, PRODUCTION_PORT)
        # A test's sandbox keeps nothing: no database file in the image's volume.
        self.with_env("SVC_SANDBOX_DB", ":memory:")
        if control_token is not None:
            self.with_env("SVC_SANDBOX_CONTROL_TOKEN", control_token)
        if seed is not None:
            self.with_env("SVC_SANDBOX_SEED", seed)
        self.waiting_for(ImageHealthcheck().with_startup_timeout(int(startup_timeout)))

    def start(self) -> SvcSandboxContainer:
        hosts = list(self.allow_hosts)
        try:
            host = self.get_docker_client().host()
        except Exception:  # the engine's address is only a hint here
            host = "localhost"
        if host not in LOOPBACK:
            hosts.append(host)
        if hosts:
            self.with_env("SVC_SANDBOX_ALLOW_HOSTS", ",".join(hosts))
        super().start()
        return self

    def get_url(self) -> str:
        """The test listener's URL from this machine: what ``SVC_SANDBOX_URL`` is set to."""
        return f"http://{self.get_container_host_ip()}:{self.get_exposed_port(TEST_PORT)}"

    def get_production_url(self) -> str:
        """The production listener's URL from this machine."""
        return f"http://{self.get_container_host_ip()}:{self.get_exposed_port(PRODUCTION_PORT)}"

    def env_vars(self) -> dict[str, str]:
        """The variables that point the pytest plugin (or the CLI) at this container."""
        found = {"SVC_SANDBOX_URL": self.get_url()}
        if self.control_token is not None:
            found["SVC_SANDBOX_CONTROL_TOKEN"] = self.control_token
        return found

    def sandbox(self) -> Sandbox:
        """A :class:`Sandbox` connected to this container (close it before the container stops)."""
        return Sandbox.connect(
            self.get_url(), control_token=self.control_token, production_url=self.get_production_url()
        )
