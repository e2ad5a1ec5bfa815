"""``svc-sandbox serve`` as a child process: which command, its ready line, stopping it."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: The variable naming the sandbox the tests use; the CLI reads it too.
URL_ENV = "SVC_SANDBOX_URL"
#: The control token of that sandbox, when it has one.
CONTROL_TOKEN_ENV = "SVC_SANDBOX_CONTROL_TOKEN"
#: The command that runs the CLI, when it is neither on PATH nor found by npx (a checkout).
COMMAND_ENV = "SVC_SANDBOX_COMMAND"

#: The line ``serve`` prints once both listeners are bound.
READY = re.compile(r"^svc-sandbox ready test=(\S+) production=(\S+) dashboard=(\S+)$", re.MULTILINE)

#: How long a stopping sandbox gets after SIGTERM before it is killed.
GRACE_S = 3.0

HOW_TO_GET_ONE = (
    f"either set {URL_ENV} to a running sandbox (svc-sandbox serve, or the container image), "
    "or make the CLI available to start one: `npm install --save-dev svc-sandbox` in this project "
    "(found through npx), svc-sandbox on PATH, "
    f"or {COMMAND_ENV}='node /path/to/svc-sandbox/dist/server/cli.js' for a checkout"
)


class SandboxStartError(Exception):
    """``svc-sandbox serve`` could not be started, or did not say it was ready."""


def serve_command(command: str | Sequence[str] | None = None) -> list[str]:
    """The CLI to run: ``command``, else ``$SVC_SANDBOX_COMMAND``, ``svc-sandbox`` on PATH, or npx."""
    if command is None:
        command = os.environ.get(COMMAND_ENV) or None
    if command is not None:
        parts = shlex.split(command) if isinstance(command, str) else list(command)
        if not parts:
            raise SandboxStartError(f"svc-sandbox: {COMMAND_ENV} is empty; {HOW_TO_GET_ONE}")
        return parts
    found = shutil.which("svc-sandbox")
    if found:
        return [found]
    npx = shutil.which("npx")
    if npx:
        # --no: the package installed in this project or nothing, never a download.
        return [npx, "--no", "svc-sandbox"]
    raise SandboxStartError(
        f"svc-sandbox: no sandbox: {URL_ENV} is not set, and neither svc-sandbox nor npx is on PATH; " + HOW_TO_GET_ONE
    )


@dataclass
class ServeProcess:
    """A started ``svc-sandbox serve``: its addresses and process."""

    test_url: str
    production_url: str
    pid: int
    command: list[str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(GRACE_S)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            return
        stop_pid(self.pid)


def _tail(path: Path, lines: int = 20) -> str:
    try:
        text = path.read_text("utf-8", "replace")
    except OSError:
        return ""
    return "\n".join(text.rstrip().splitlines()[-lines:])


def start_serve(
    command: str | Sequence[str] | None = None,
    *,
    log: Path | None = None,
    seed: str | None = None,
    control_token: str | None = None,
    timeout: float = 30.0,
    cwd: str | os.PathLike[str] | None = None,
) -> ServeProcess:
    """Starts ``serve --port 0 --prod-port 0 --db :memory:`` and waits for its ready line.

    Its output goes to ``log`` (a temporary file unless given), which is read for the ready line: no
    pipe to drain, and another process can take the sandbox over (the pytest plugin's workers).
    The sandbox's own variables (``SVC_SANDBOX_*``) are left out of its environment.
    """
    argv = serve_command(command) + ["serve", "--port", "0", "--prod-port", "0", "--db", ":memory:"]
    if seed is not None:
        argv += ["--seed", seed]
    if control_token is not None:
        argv += ["--control-token", control_token]
    env = {name: value for name, value in os.environ.items() if not name.startswith("SVC_SANDBOX_")}
    if log is None:
        handle, name = tempfile.mkstemp(prefix="svc-sandbox-serve-", suffix=".log")
        os.close(handle)
        log = Path(name)
    with open(log, "wb") as out:
        try:
            process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd
            )
        except OSError as error:
            raise SandboxStartError(f"svc-sandbox: cannot run {shlex.join(argv)}: {error}; {HOW_TO_GET_ONE}") from error
    deadline = time.monotonic() + timeout
    while True:
        text = log.read_text("utf-8", "replace")
        match = READY.search(text)
        if match:
            return ServeProcess(match.group(1), match.group(2), process.pid, argv, log, process)
        code = process.poll()
        if code is not None:
            raise SandboxStartError(
                f"svc-sandbox: `{shlex.join(argv)}` exited ({code}) before it was ready; {HOW_TO_GET_ONE}"
                f"\n--- its output ---\n{_tail(log)}"
            )
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise SandboxStartError(
                f"svc-sandbox: `{shlex.join(argv)}` was not ready within {timeout:g} s"
                f"\n--- its output ---\n{_tail(log)}"
            )
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    if sys.platform != "win32":
        # A child of this process that has exited but is not reaped yet still answers kill(0).
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done == pid:
                return False
        except ChildProcessError:
            pass
    return True


def stop_pid(pid: int) -> None:
    """Stops a sandbox started by another process of this run (SIGTERM, then SIGKILL after the grace)."""
    if not _alive(pid):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + GRACE_S
    while time.monotonic() < deadline:
        if not _alive(pid):
            return
        time.sleep(0.05)
    if sys.platform != "win32":
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
