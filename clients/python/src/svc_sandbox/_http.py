"""Calls to the sandbox by operationId (the table in ``_operations``), over one httpx client."""

from __future__ import annotations

import json as _json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlencode

import httpx

from ._operations import OPERATIONS

#: A request's deadline: a hung sandbox fails the test instead of hanging it.
TIMEOUT_S = 30.0

WORKSPACE_HEADER = "x-svc-workspace"
CONTROL_TOKEN_HEADER = "x-svc-control-token"


class SandboxRequestError(Exception):
    """A call to the sandbox that did not answer 2xx: the status and the ``error`` it gave."""

    def __init__(self, method: str, url: str, status: int, error: str) -> None:
        super().__init__(f"{method} {url}: {status} {error}".strip())
        self.method = method
        self.url = url
        self.status = status
        #: the ``error`` field of the answer, or its raw text
        self.error = error


class SandboxUnreachableError(Exception):
    """No sandbox answered at all: nothing listening, the connection dropped, no answer in time."""


_PARAM = re.compile(r"\{(\w+)\}")


def resolve(
    operation_id: str,
    params: Mapping[str, object] | None = None,
    query: Mapping[str, object] | None = None,
) -> tuple[str, str]:
    """The method and path (parameters filled in and encoded, with the query) of one operation."""
    try:
        method, template = OPERATIONS[operation_id]
    except KeyError:
        raise ValueError(
            f"svc-sandbox: no operation {operation_id!r} (svc_sandbox._operations.OPERATIONS lists them)"
        ) from None
    given = params or {}

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        value = given.get(name)
        if value is None or value == "":
            raise ValueError(f"svc-sandbox: {operation_id} needs the path parameter {name}")
        return quote(str(value), safe="")

    path = _PARAM.sub(fill, template)
    if query:
        pairs: list[tuple[str, str]] = []
        for name, value in query.items():
            if value is None:
                continue
            for item in value if isinstance(value, (list, tuple)) else [value]:
                pairs.append((name, str(item).lower() if isinstance(item, bool) else str(item)))
        if pairs:
            path += "?" + urlencode(pairs)
    return method, path


_NO_BODY: Any = object()


def send(
    client: httpx.Client,
    method: str,
    url: str,
    headers: Mapping[str, str],
    body: Any = _NO_BODY,
) -> Any:
    """One JSON call: the parsed answer (None for an empty one); raises unless 2xx."""
    try:
        if body is _NO_BODY:
            response = client.request(method, url, headers=dict(headers))
        else:
            response = client.request(method, url, headers=dict(headers), json=body)
    except httpx.TimeoutException as error:
        raise SandboxUnreachableError(f"{method} {url}: no answer within {TIMEOUT_S:g} s") from error
    except httpx.TransportError as error:
        raise SandboxUnreachableError(f"{method} {url}: no sandbox answering ({error})") from error
    text = response.text
    if not response.is_success:
        message = text
        try:
            parsed = _json.loads(text)
            if isinstance(parsed, dict) and isinstance(parsed.get("error"), str):
                message = parsed["error"]
        except ValueError:
            pass
        raise SandboxRequestError(method, url, response.status_code, message)
    if text == "":
        return None
    try:
        return _json.loads(text)
    except ValueError:
        raise SandboxRequestError(
            method, url, response.status_code, "the answer is not JSON (is this a sandbox?)"
        ) from None


class Caller:
    """Control calls by operationId with a fixed set of headers (the control token, a workspace)."""

    def __init__(self, client: httpx.Client, base_url: str, headers: Mapping[str, str]) -> None:
        self.client = client
        self.base_url = base_url
        self.headers = dict(headers)

    def __call__(
        self,
        operation_id: str,
        *,
        params: Mapping[str, object] | None = None,
        query: Mapping[str, object] | None = None,
        json: Any = _NO_BODY,
    ) -> Any:
        method, path = resolve(operation_id, params, query)
        return send(self.client, method, self.base_url + path, self.headers, json)

    def path(self, operation_id: str, params: Mapping[str, object] | None = None) -> str:
        return resolve(operation_id, params)[1]
