"""Test an integration against svc-sandbox from Python.

Installing the package is enough for pytest: its plugin gives the ``svc_sandbox`` fixture (one
sandbox for the run: ``$SVC_SANDBOX_URL``, else ``svc-sandbox serve`` started for the run) and the
``workspace`` fixture (a workspace of its own per test, deleted afterwards)::

    def test_checkout(workspace):
        shop = workspace.merchant()
        checkout = shop.api.post("/v1/checkouts", json={...}).json()
        workspace.pay(checkout, amount=10_000_000)
        workspace.clock.advance("2h")
        hook = workspace.wait_for_webhook("checkout.partial")
        verify_signature(hook.raw_body, hook.headers, shop.webhook_secret)

Everything is plain HTTP to the sandbox: the same code serves a sandbox started here, one running
on this machine, or a service container (``svc_sandbox.testcontainers``).
"""

from ._durations import parse_duration
from ._http import SandboxRequestError, SandboxUnreachableError
from ._process import SandboxStartError
from ._sandbox import Sandbox
from ._types import (
    Advance,
    ClockState,
    Coverage,
    FiredEvent,
    RequestVerificationError,
    ScenarioFailedError,
    TriggerRun,
    VerifiedRequest,
    VerifyResult,
    Webhook,
    WebhookTimeoutError,
)
from ._workspace import Clock, Faults, Inbox, Merchant, Workspace
from .signing import SignatureError, is_valid_signature, sign, verify_signature

__version__ = "0.1.0"

__all__ = [
    "Advance",
    "Clock",
    "ClockState",
    "Coverage",
    "Faults",
    "FiredEvent",
    "Inbox",
    "Merchant",
    "RequestVerificationError",
    "Sandbox",
    "SandboxRequestError",
    "SandboxStartError",
    "SandboxUnreachableError",
    "ScenarioFailedError",
    "SignatureError",
    "TriggerRun",
    "VerifiedRequest",
    "VerifyResult",
    "Webhook",
    "WebhookTimeoutError",
    "Workspace",
    "is_valid_signature",
    "parse_duration",
    "sign",
    "verify_signature",
]
