"""The webhook signature: ``X-SVC-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>``.

The HMAC is over the bytes as sent (``server/webhooks/signing.ts``). A body parsed and serialized
again has other bytes (spaces, key order, ``\\u`` escapes) and does not verify: check the raw
request body, before any JSON parsing.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

SIGNATURE_HEADER = "X-SVC-Signature"

RawBody = bytes | bytearray | memoryview | str


class SignatureError(ValueError):
    """A webhook whose signature does not check out: missing, malformed, or not the body's."""


def _raw(body: object) -> bytes:
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body)
    if isinstance(body, str):
        # The raw body decoded as UTF-8 (what the sandbox sends) encodes back to the same bytes.
        return body.encode("utf-8")
    raise TypeError(
        "svc-sandbox: verify_signature needs the raw request body (bytes, as received), "
        f"not {type(body).__name__}: a parsed and re-serialized body has other bytes and never verifies"
    )


def sign(secret: str, raw_body: RawBody) -> str:
    """The ``X-SVC-Signature`` value for these bytes: ``sha256=`` and the lowercase hex HMAC."""
    digest = hmac.new(secret.encode("utf-8"), _raw(raw_body), hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def _header(headers: Mapping[str, str] | str | None) -> str | None:
    if headers is None or isinstance(headers, str):
        return headers
    wanted = SIGNATURE_HEADER.lower()
    for name, value in headers.items():
        if name.lower() == wanted:
            return value
    return None


def verify_signature(raw_body: RawBody, headers: Mapping[str, str] | str | None, secret: str) -> None:
    """Checks a delivery's signature over its raw body; raises :class:`SignatureError` when it fails.

    ``headers``: the request's headers (any mapping; the name is matched case-insensitively), or the
    ``X-SVC-Signature`` value itself. ``secret``: the endpoint's signing secret.
    """
    body = _raw(raw_body)
    given = _header(headers)
    if given is None or given == "":
        raise SignatureError(f"no {SIGNATURE_HEADER} header: this request was not signed by the sandbox")
    if not given.startswith("sha256="):
        raise SignatureError(f"{SIGNATURE_HEADER} is not sha256=<hex>: {given[:80]!r}")
    if not hmac.compare_digest(sign(secret, body).encode("ascii"), given.encode("utf-8", "replace")):
        raise SignatureError(
            f"{SIGNATURE_HEADER} does not match the body: the HMAC is over the raw bytes received "
            "(a body parsed and serialized again has other bytes), with the endpoint's signing secret"
        )


def is_valid_signature(raw_body: RawBody, headers: Mapping[str, str] | str | None, secret: str) -> bool:
    """:func:`verify_signature` as a yes or no."""
    try:
        verify_signature(raw_body, headers, secret)
    except SignatureError:
        return False
    return True
