"""The pytest plugin: registered by the package's ``pytest11`` entry point (installing it is enough).

Fixtures:

- ``svc_sandbox`` (session): the sandbox of the run. ``$SVC_SANDBOX_URL`` (with
  ``$SVC_SANDBOX_CONTROL_TOKEN``) when set; else ``svc-sandbox serve --port 0 --prod-port 0 --db
  :memory:`` started the first time a test needs it (``$SVC_SANDBOX_COMMAND``, else
  ``svc-sandbox`` on PATH, else ``npx --no svc-sandbox``) and stopped when the run ends. Under
  pytest-xdist the workers share that one sandbox: the first worker that needs it starts it.
- ``workspace`` (function): a fresh ephemeral workspace for the test, deleted afterwards; kept,
  and named in the report, when the test fails. ``@pytest.mark.svc_workspace(seed=…,
  clock_start=…, frozen=…)`` sets how it is made.

``--svc-sandbox-coverage[=FILE]`` adds up what every test's workspace reached and writes it (JSON,
and Markdown beside it), with a summary at the end of the run.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import sys
import tempfile
import uuid
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ._http import SandboxRequestError, SandboxUnreachableError
from ._process import COMMAND_ENV, CONTROL_TOKEN_ENV, URL_ENV, SandboxStartError, ServeProcess, start_serve, stop_pid
from ._sandbox import Sandbox
from ._types import Coverage
from ._workspace import Workspace

#: The run's shared folder, handed to pytest-xdist's workers.
RUN_DIR_INPUT = "svc_sandbox_run_dir"
#: The section a failed test's report gets, naming the workspace kept.
SECTION = "svc-sandbox"
DEFAULT_COVERAGE_FILE = "svc-sandbox-coverage.json"


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock across the run's processes (released if the holder dies)."""
    with open(path, "a+b") as handle:
        if sys.platform == "win32":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
            try:
                yield
            finally:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


@dataclass
class _Run:
    """What one pytest run (all its xdist workers) shares: a folder, and the sandbox."""

    dir: Path
    #: the process that stops the sandbox at the end: pytest itself, or xdist's controller
    controller: bool
    coverage_file: str | None
    sandbox: Sandbox | None = None
    #: the ``serve`` this process started, if it did
    serve: ServeProcess | None = None

    @property
    def record(self) -> Path:
        return self.dir / "sandbox.json"

    def started(self) -> dict[str, Any] | None:
        """The sandbox this run started (by any of its processes), if one was."""
        try:
            record: dict[str, Any] = json.loads(self.record.read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return record

    def get_sandbox(self) -> Sandbox:
        if self.sandbox is not None:
            return self.sandbox
        url = os.environ.get(URL_ENV)
        if url:
            token = os.environ.get(CONTROL_TOKEN_ENV) or None
            try:
                self.sandbox = Sandbox.connect(url, control_token=token)
            except (SandboxRequestError, SandboxUnreachableError) as error:
                raise SandboxStartError(
                    f"svc-sandbox: {URL_ENV}={url} does not answer as a sandbox: {error} "
                    f"(unset {URL_ENV} to have the plugin start svc-sandbox serve for the run)"
                ) from error
            return self.sandbox
        # One sandbox for the run: the first process to need it starts it, the others read where.
        with _locked(self.dir / "sandbox.lock"):
            record = self.started()
            if record is None:
                try:
                    self.serve = start_serve(log=self.dir / "sandbox.log")
                except SandboxStartError as error:
                    self.record.write_text(json.dumps({"error": str(error)}), "utf-8")
                    raise
                record = {
                    "test": self.serve.test_url,
                    "production": self.serve.production_url,
                    "pid": self.serve.pid,
                    "command": self.serve.command,
                }
                self.record.write_text(json.dumps(record), "utf-8")
        if "error" in record:
            raise SandboxStartError(record["error"])
        self.sandbox = Sandbox(record["test"], production_url=record["production"])
        return self.sandbox

    def keep_coverage(self, coverage: Coverage) -> None:
        folder = self.dir / "coverage"
        folder.mkdir(exist_ok=True)
        (folder / f"{uuid.uuid4()}.json").write_text(json.dumps(coverage.as_json()), "utf-8")

    def read_coverage(self) -> Coverage:
        folder = self.dir / "coverage"
        files = sorted(folder.glob("*.json")) if folder.is_dir() else []
        return Coverage.add(Coverage.of(json.loads(f.read_text("utf-8"))) for f in files)

    def finish(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
        if not self.controller:
            return
        if self.serve is not None:
            self.serve.stop()
        else:
            record = self.started()
            if record is not None and isinstance(record.get("pid"), int):
                stop_pid(record["pid"])
        shutil.rmtree(self.dir, ignore_errors=True)


_RUN = pytest.StashKey[_Run]()
_WORKSPACE = pytest.StashKey[Workspace]()
_FAILED = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("svc-sandbox")
    group.addoption(
        "--svc-sandbox-coverage",
        nargs="?",
        const=DEFAULT_COVERAGE_FILE,
        default=None,
        metavar="FILE",
        help="add up what every test's workspace reached (event types, state transitions) and write "
        f"it as JSON to FILE (default {DEFAULT_COVERAGE_FILE}) and as Markdown beside it",
    )


class _XdistHooks:
    """Registered only with pytest-xdist (its hooks are unknown without it)."""

    def __init__(self, run: _Run) -> None:
        self.run = run

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[RUN_DIR_INPUT] = str(self.run.dir)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "svc_workspace(seed=None, clock_start=None, frozen=None, name=None): how the workspace "
        "fixture makes this test's workspace",
    )
    worker_input = getattr(config, "workerinput", None)
    if worker_input is not None and RUN_DIR_INPUT in worker_input:
        run = _Run(Path(worker_input[RUN_DIR_INPUT]), False, config.getoption("svc_sandbox_coverage"))
    else:
        folder = Path(tempfile.mkdtemp(prefix="svc-sandbox-pytest-"))
        run = _Run(folder, True, config.getoption("svc_sandbox_coverage"))
        if config.pluginmanager.hasplugin("xdist"):
            config.pluginmanager.register(_XdistHooks(run), "svc-sandbox-xdist")
    config.stash[_RUN] = run


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(_RUN, None)
    if run is not None:
        run.finish()


def pytest_report_header(config: pytest.Config) -> str:
    url = os.environ.get(URL_ENV)
    if url:
        return f"svc-sandbox: the sandbox at {url} ({URL_ENV})"
    command = os.environ.get(COMMAND_ENV)
    how = f"{COMMAND_ENV}={command}" if command else "svc-sandbox on PATH, else npx"
    return f"svc-sandbox: starts svc-sandbox serve when a test needs it ({how})"


@pytest.fixture(scope="session")
def svc_sandbox(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """The sandbox of this run: ``$SVC_SANDBOX_URL``, or ``svc-sandbox serve`` started for the run."""
    run = request.config.stash[_RUN]
    yield run.get_sandbox()


def _workspace_name(item: pytest.Item) -> str:
    # Unique across the sandbox (two runs may share one), at most 64 characters, readable.
    return f"{item.name[:50]}-{secrets.token_hex(4)}"


@pytest.fixture
def workspace(svc_sandbox: Sandbox, request: pytest.FixtureRequest) -> Iterator[Workspace]:
    """A workspace of the test's own: its data, merchants and keys, clock, inbox and faults.
    Deleted after the test; kept (and named in the report) when the test fails."""
    marker = request.node.get_closest_marker("svc_workspace")
    options: dict[str, Any] = dict(marker.kwargs) if marker is not None else {}
    options.setdefault("name", _workspace_name(request.node))
    made = svc_sandbox.workspace(**options)
    request.node.stash[_WORKSPACE] = made
    yield made
    run = request.config.stash[_RUN]
    if run.coverage_file is not None and not made.closed:
        try:
            run.keep_coverage(made.coverage())
        except (SandboxRequestError, SandboxUnreachableError):
            pass
    if request.node.stash.get(_FAILED, False):
        made.keep()
    else:
        made.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if not report.failed or report.when not in ("setup", "call"):
        return
    made = item.stash.get(_WORKSPACE, None)
    if made is None or made.closed or item.stash.get(_FAILED, False):
        return
    item.stash[_FAILED] = True
    if os.environ.get(URL_ENV):
        where = (
            f"it stays in the sandbox at {made.sandbox.test_url} until that stops "
            f"(svc-sandbox workspaces delete {made.id} removes it)"
        )
    else:
        where = (
            "it goes when the sandbox this run started stops, at the end of the run: to look at it "
            f"afterwards, run against a running sandbox ({URL_ENV}=http://127.0.0.1:4010 after svc-sandbox serve)"
        )
    report.sections.append(
        (
            SECTION,
            f"workspace kept: {made.name} ({made.id})\n  dashboard: {made.dashboard_url}\n  {where}",
        )
    )
    # JUnit XML writes the properties of the teardown's report, which copies the item's.
    item.user_properties.append(("svc_sandbox_workspace", made.id))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    run = config.stash.get(_RUN, None)
    if run is None or not run.controller:
        return
    lines: list[str] = []
    for key in ("failed", "error"):
        for report in terminalreporter.stats.get(key, []):
            for title, content in getattr(report, "sections", []):
                if title == SECTION:
                    lines.append(f"{report.nodeid}: {content.splitlines()[0]}")
    if run.coverage_file is not None:
        coverage = run.read_coverage()
        target = Path(run.coverage_file)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(coverage.as_json(), indent=2) + "\n", "utf-8")
        markdown = target.with_suffix(".md")
        markdown.write_text(coverage.markdown(), "utf-8")
        lines.append(f"coverage: {coverage.summary()}")
        unreached = coverage.unreached_events
        if unreached:
            lines.append(f"  event types never reached: {', '.join(unreached)}")
        lines.append(f"  written to {target} and {markdown}")
    if lines:
        terminalreporter.write_sep("-", "svc-sandbox")
        for line in lines:
            terminalreporter.write_line(line)
