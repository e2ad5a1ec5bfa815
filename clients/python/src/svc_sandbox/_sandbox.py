"""A sandbox the tests share: one already running, or ``svc-sandbox serve`` started here."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any

import httpx

from ._http import _NO_BODY, CONTROL_TOKEN_HEADER, TIMEOUT_S, Caller, SandboxRequestError
from ._process import ServeProcess, start_serve
from ._types import JSON
from ._workspace import Workspace


class Sandbox:
    """A running sandbox, reached over HTTP like any client reaches it.

    ``Sandbox.connect(url)`` for one already running (``svc-sandbox serve``, a CI service
    container), ``Sandbox.start()`` to run ``svc-sandbox serve`` in memory on free ports until
    :meth:`close`. :meth:`workspace` makes a workspace of its own for one test.
    """

    def __init__(
        self,
        test_url: str,
        *,
        production_url: str,
        self_url: str | None = None,
        dashboard_url: str | None = None,
        control_token: str | None = None,
        process: ServeProcess | None = None,
    ) -> None:
        #: the test listener's base URL, as this process reaches it (``/v1`` acts in test there)
        self.test_url = test_url.rstrip("/")
        #: the production listener's base URL
        self.production_url = production_url.rstrip("/")
        #: the test listener as the sandbox reaches itself (where the inbox endpoints deliver): a
        #: container's own address, where ``test_url`` is the port published on the host
        self.self_url = (self_url or self.test_url).rstrip("/")
        self.dashboard_url = dashboard_url or f"{self.test_url}/"
        self.control_token = control_token
        #: the control token header, when the sandbox has one
        self.base_headers: dict[str, str] = {} if control_token is None else {CONTROL_TOKEN_HEADER: control_token}
        self.process = process
        self.http = httpx.Client(timeout=TIMEOUT_S)
        self._call = Caller(self.http, self.test_url, self.base_headers)

    @classmethod
    def connect(
        cls,
        url: str,
        *,
        control_token: str | None = None,
        production_url: str | None = None,
    ) -> Sandbox:
        """A sandbox already running, by its test URL; checks that it answers ``/sandbox/health``.

        ``production_url``: the production listener as this process reaches it (default: what
        the sandbox says, right unless a container publishes it on another port)."""
        base = url.rstrip("/")
        headers = {} if control_token is None else {CONTROL_TOKEN_HEADER: control_token}
        with httpx.Client(timeout=TIMEOUT_S) as client:
            health = Caller(client, base, headers)("sandboxGetHealth")
        urls = health["urls"]
        return cls(
            base,
            production_url=production_url or urls["production"],
            self_url=urls["test"],
            dashboard_url=f"{base}/",
            control_token=control_token,
        )

    @classmethod
    def start(
        cls,
        command: str | Sequence[str] | None = None,
        *,
        seed: str | None = None,
        control_token: str | None = None,
        timeout: float = 30.0,
    ) -> Sandbox:
        """Runs ``svc-sandbox serve --port 0 --prod-port 0 --db :memory:`` until :meth:`close`.

        ``command``: the CLI (default ``$SVC_SANDBOX_COMMAND``, else ``svc-sandbox`` on PATH, else
        ``npx --no svc-sandbox``), e.g. ``["node", "/path/to/checkout/dist/server/cli.js"]``."""
        process = start_serve(command, seed=seed, control_token=control_token, timeout=timeout)
        return cls(
            process.test_url,
            production_url=process.production_url,
            control_token=control_token,
            process=process,
        )

    def health(self) -> JSON:
        answer: JSON = self._call("sandboxGetHealth")
        return answer

    def call(
        self,
        operation_id: str,
        *,
        params: Mapping[str, object] | None = None,
        query: Mapping[str, object] | None = None,
        json: Any = _NO_BODY,
    ) -> Any:
        """A sandbox-wide control call (no workspace header: the default workspace, or the list)."""
        return self._call(operation_id, params=params, query=query, json=json)

    def workspace(
        self,
        *,
        name: str | None = None,
        seed: str | None = None,
        clock_start: str | datetime | None = None,
        frozen: bool | None = None,
        ephemeral: bool = True,
        fork_of: str | None = None,
        checkpoint: str | None = None,
    ) -> Workspace:
        """A new workspace of its own: its data, merchants, clock and inbox.

        ``seed`` makes its ids, keys and addresses repeat; ``clock_start`` (ISO 8601 or a datetime)
        and ``frozen`` set its clock; ``fork_of`` copies another workspace (at ``checkpoint``).
        Ephemeral by default: kept in memory only, gone when the sandbox stops."""
        body: JSON = {"name": name or f"py-{secrets.token_hex(6)}", "ephemeral": ephemeral}
        if seed is not None:
            body["seed"] = seed
        clock: JSON = {}
        if clock_start is not None:
            clock["start"] = clock_start.isoformat() if isinstance(clock_start, datetime) else clock_start
        if frozen is not None:
            clock["frozen"] = frozen
        if clock:
            body["clock"] = clock
        if fork_of is not None:
            body["from"] = {"workspace_id": fork_of, **({} if checkpoint is None else {"checkpoint": checkpoint})}
        try:
            info = self._call("sandboxCreateWorkspace", json=body)
        except SandboxRequestError as error:
            if error.status == 404 and error.url.endswith("/workspaces"):
                raise SandboxRequestError(
                    error.method,
                    error.url,
                    404,
                    f"the sandbox at {self.test_url} has no workspaces: it is older than this package",
                ) from error
            raise
        return Workspace(self, info)

    def close(self) -> None:
        """Closes the connections; stops the sandbox when it was started here (its workspaces go with it)."""
        self.http.close()
        if self.process is not None:
            self.process.stop()
            self.process = None

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Sandbox({self.test_url!r})"
