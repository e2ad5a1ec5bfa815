"""A workspace of its own for one test: its data, merchants and keys, clock, inbox and faults."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from types import TracebackType
from typing import TYPE_CHECKING, Any

import httpx

from ._durations import parse_duration
from ._http import (
    _NO_BODY,
    WORKSPACE_HEADER,
    Caller,
    SandboxRequestError,
    SandboxUnreachableError,
    resolve,
    send,
)
from ._types import (
    JSON,
    Advance,
    ClockState,
    Coverage,
    RequestVerificationError,
    ScenarioFailedError,
    TriggerRun,
    VerifiedRequest,
    VerifyResult,
    Webhook,
    WebhookTimeoutError,
    as_id,
    contains,
    words,
)

if TYPE_CHECKING:
    from datetime import datetime

    from ._sandbox import Sandbox

#: How long ``wait_for_webhook`` waits by default: a webhook that never comes fails with the
#: kit's message (what did arrive) well before a per-test timeout would.
WAIT_TIMEOUT_S = 4.0
#: How often the inbox is read while waiting: short, a test waits on it.
POLL_S = 0.02

Thing = str | Mapping[str, Any]


class Clock:
    """The workspace's clock: moving it runs what falls due in this workspace only."""

    def __init__(self, call: Caller) -> None:
        self._call = call

    def state(self) -> ClockState:
        return ClockState.of(self._call("sandboxGetClock"))

    def now(self) -> datetime:
        """The workspace's sandbox time."""
        return self.state().now

    def advance(self, by: str | int | float | timedelta) -> Advance:
        """Moves the clock forward (``"90s"``, ``"2d"``, ``"1h30m"``, seconds or a timedelta),
        running every job that falls due on the way: expiries, settlements, webhook retries."""
        return Advance.of(self._call("sandboxAdvanceClock", json={"seconds": parse_duration(by)}))

    def freeze(self) -> ClockState:
        """Stops the clock where it stands (it moves only when advanced)."""
        return ClockState.of(self._call("sandboxFreezeClock"))

    def resume(self) -> ClockState:
        """Lets it run again from where it stands."""
        return ClockState.of(self._call("sandboxResumeClock"))


class Faults:
    """The workspace's API faults: errors, 429s, latency, timeouts, lost responses on its ``/v1``.

    ``workspace.faults(rule, …, seed=…)`` replaces the rules; each rule is the control API's
    ``{"match": {"method", "path", "env"}, "rate", "count", "effect": {…}}``.
    """

    def __init__(self, call: Caller) -> None:
        self._call = call

    def __call__(self, *rules: Mapping[str, Any], seed: str | None = None) -> JSON:
        body: JSON = {"rules": [dict(rule) for rule in rules]}
        if seed is not None:
            body["seed"] = seed
        answer: JSON = self._call("sandboxSetFaults", json=body)
        return answer

    set = __call__

    def list(self) -> JSON:
        """``{"seed", "rules"}``: the rules in force, with what each has done (``applied``, ``remaining``)."""
        answer: JSON = self._call("sandboxGetFaults")
        return answer

    def clear(self) -> None:
        self._call("sandboxClearFaults")


class Inbox:
    """The sandbox's built-in webhook receiver, one per workspace: every merchant the kit makes
    has a webhook endpoint pointing here, so a test reads its deliveries without a server."""

    def __init__(self, call: Caller, name: str, url: str) -> None:
        self._call = call
        self.name = name
        #: where the endpoints deliver: under the workspace's ``/w/<id>`` prefix (a delivery
        #: carries no workspace header), at the address the sandbox reaches itself on
        self.url = url

    def messages(self) -> list[Webhook]:
        """Every delivery received so far, oldest first."""
        answer = self._call("sandboxGetInbox", params={"name": self.name}, query={"limit": 1000})
        return sorted((Webhook.of(m) for m in answer["messages"]), key=lambda w: w.message_id)

    def wait_for(
        self,
        event: str | None = None,
        *,
        data: Mapping[str, Any] | None = None,
        match: Callable[[Webhook], bool] | None = None,
        timeout: float = WAIT_TIMEOUT_S,
    ) -> Webhook:
        """The first delivery of that event type (whose data holds ``data``, and that ``match``
        accepts), reading the inbox until ``timeout`` seconds; then raises
        :class:`WebhookTimeoutError` naming what did arrive."""

        def accepts(hook: Webhook) -> bool:
            if hook.event is None or (event is not None and hook.event != event):
                return False
            if data is not None and not contains(hook.data, data):
                return False
            return match is None or match(hook)

        deadline = time.monotonic() + timeout
        while True:
            seen = self.messages()
            for hook in seen:
                if accepts(hook):
                    return hook
            if time.monotonic() >= deadline:
                break
            time.sleep(POLL_S)
        wanted = event or "matching"
        if data is not None:
            wanted += f" (data holding {dict(data)!r})"
        received = words([hook.event or "(not an event)" for hook in seen])
        raise WebhookTimeoutError(f"no {wanted} webhook in the inbox within {timeout:g} s; received: {received}")

    def clear(self) -> None:
        """Forgets the deliveries received so far."""
        self._call("sandboxClearInboxMessages", params={"name": self.name})

    def respond_with(self, status: int) -> None:
        """The status the inbox answers deliveries with from now on (default 200): a 500
        rehearses a failing receiver, and the sandbox retries on its clock."""
        self._call("sandboxUpdateInbox", params={"name": self.name}, json={"response_status": status})


class Merchant:
    """A merchant of the workspace: its owner API key, an httpx client for ``/v1`` with that key,
    and its webhook endpoint on the workspace's inbox (test environment)."""

    def __init__(self, workspace: Workspace, info: JSON, key: str, endpoint: JSON) -> None:
        self.workspace = workspace
        self.info = info
        self.id: str = info["id"]
        self.name: str = info["name"]
        #: the owner API key: it acts in the environment of the listener it is sent to
        self.key = key
        #: the inbox endpoint's id and signing secret (``whsec_…``)
        self.endpoint_id: str = endpoint["id"]
        self.webhook_secret: str = endpoint["secret"]
        self._clients: dict[str, httpx.Client] = {}

    @property
    def headers(self) -> dict[str, str]:
        """``Authorization: Bearer <key>``, for ``/v1``."""
        return {"authorization": f"Bearer {self.key}"}

    def client(self, env: str = "test") -> httpx.Client:
        """An httpx client on that environment's listener with the key: ``client.post("/v1/checkouts", json=…)``.
        Answers are returned as they come (a 422 is a response, not an exception)."""
        if env not in self._clients:
            base = self.workspace.sandbox.production_url if env == "production" else self.workspace.sandbox.test_url
            self._clients[env] = httpx.Client(base_url=base, headers=self.headers, timeout=30.0)
        return self._clients[env]

    @property
    def api(self) -> httpx.Client:
        """The test environment's ``/v1``, with this merchant's key."""
        return self.client("test")

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()

    def __repr__(self) -> str:
        return f"Merchant(id={self.id!r}, name={self.name!r})"


class Workspace:
    """One test's own world in a shared sandbox: data, merchants and keys, clock, inbox, faults.

    Made by the ``workspace`` fixture (or :meth:`Sandbox.workspace`); deleted when closed.
    """

    def __init__(self, sandbox: Sandbox, info: JSON) -> None:
        self.sandbox = sandbox
        self.info = info
        self.id: str = info["id"]
        self.name: str = info["name"]
        #: ``X-SVC-Workspace`` (and the control token, when the sandbox has one), for ``/sandbox``
        self.control_headers = {**sandbox.base_headers, WORKSPACE_HEADER: self.id}
        self._call = Caller(sandbox.http, sandbox.test_url, self.control_headers)
        self.clock = Clock(self._call)
        self.faults = Faults(self._call)
        inbox_path = self._call.path("sandboxReceiveInboxWebhook", {"name": "test"})
        self.inbox = Inbox(
            self._call,
            "test",
            f"{sandbox.self_url}/w/{self.id}{inbox_path}",
        )
        self._merchants: dict[str, Merchant] = {}
        self.closed = False
        #: set when the workspace was left in the sandbox (a failed test's), instead of deleted
        self.kept = False

    @property
    def dashboard_url(self) -> str:
        """The dashboard, opened on this workspace."""
        return f"{self.sandbox.dashboard_url}?workspace={self.id}"

    # ---- any control call --------------------------------------------------------------------

    def call(
        self,
        operation_id: str,
        *,
        params: Mapping[str, object] | None = None,
        query: Mapping[str, object] | None = None,
        json: Any = _NO_BODY,
    ) -> Any:
        """Any control operation in this workspace, by its operationId (the OpenAPI document's):
        ``workspace.call("sandboxGetCheckout", params={"id": checkout_id})``. Raises
        :class:`SandboxRequestError` unless 2xx."""
        return self._call(operation_id, params=params, query=query, json=json)

    def control(self, method: str, path: str, json: Any = _NO_BODY) -> Any:
        """A control call by path, relative to ``/sandbox``: ``workspace.control("GET", "/clock")``."""
        return send(self.sandbox.http, method, f"{self.sandbox.test_url}/sandbox{path}", self.control_headers, json)

    # ---- merchants ---------------------------------------------------------------------------

    def merchant(
        self,
        name: str = "Test merchant",
        *,
        country: str | None = None,
        kyb_status: str | None = None,
    ) -> Merchant:
        """The workspace's merchant of that name with its owner key, made the first time (with a
        webhook endpoint on the workspace's inbox). A merchant the workspace already holds by that
        name (a fork's, a scenario's) is taken as it is, and gets the inbox endpoint if it has none."""
        if name in self._merchants:
            return self._merchants[name]
        existing = [m for m in self._call("sandboxListMerchants") if m["name"] == name]
        if existing:
            info = existing[0]
            keys = self._call("sandboxListMerchantApiKeys", params={"id": info["id"]})
            owner = [k for k in keys if k.get("role") == "owner" and k.get("revoked_at") is None]
            if owner:
                key: str = owner[0]["key"]
            else:
                key = self._call("sandboxCreateMerchantApiKey", params={"id": info["id"]}, json={})["key"]
        else:
            body: JSON = {"name": name}
            if country is not None:
                body["country"] = country
            if kyb_status is not None:
                body["kyb_status"] = kyb_status
            created = self._call("sandboxCreateMerchant", json=body)
            info, key = created["merchant"], created["api_key"]["key"]
        endpoint = self._inbox_endpoint(info["id"], look=bool(existing))
        merchant = Merchant(self, info, key, endpoint)
        self._merchants[name] = merchant
        return merchant

    def _inbox_endpoint(self, merchant_id: str, *, look: bool) -> JSON:
        params = {"id": merchant_id}
        if look:
            for endpoint in self._call("sandboxListMerchantWebhookEndpoints", params=params, query={"env": "test"}):
                if endpoint["url"] == self.inbox.url:
                    found: JSON = endpoint
                    return found
        made: JSON = self._call(
            "sandboxCreateMerchantWebhookEndpoint", params=params, query={"env": "test"}, json={"url": self.inbox.url}
        )
        return made

    # ---- built-in scenarios ------------------------------------------------------------------

    def trigger(self, scenario: str, *, env: str | None = None) -> TriggerRun:
        """Runs a built-in scenario in this workspace, as ``svc-sandbox trigger`` does: its merchants
        are reused by name (made the first time), its events fire, its expectations are checked.
        Raises :class:`ScenarioFailedError` when a step did not hold.

        Its webhooks go to the endpoints of the merchants it names: to have them in the inbox, take
        that merchant first (``workspace.merchant("Demo Coffee Roasters", kyb_status="approved")``)."""
        body: JSON = {"reuse_merchants": True}
        if env is not None:
            body["env"] = env
        run = TriggerRun.of(self._call("sandboxRunLibraryScenario", params={"name": scenario}, json=body))
        if not run.ok:
            raise ScenarioFailedError(run.failure())
        return run

    def scenarios(self) -> list[JSON]:
        """The built-in scenarios: ``[{"name", "description", "events"}]``."""
        items: list[JSON] = self._call("sandboxListLibraryScenarios")["items"]
        return items

    # ---- the outside world -------------------------------------------------------------------

    def pay(self, checkout: Thing, amount: int | None = None, **fields: Any) -> JSON:
        """A transfer to the checkout, as a payer would send it: ``amount`` in minor units (omitted:
        what is due); ``chain``, ``token``, ``txid``, ``late=True``… as the control API takes them.
        Answers ``{"checkout", "payment"}``."""
        body = {**fields, **({} if amount is None else {"amount": amount})}
        answer: JSON = self._call("sandboxPayCheckout", params={"id": as_id(checkout)}, json=body)
        return answer

    def complete(self, checkout: Thing) -> JSON:
        """The service settles a paid checkout (``completed``)."""
        answer: JSON = self._call("sandboxCompleteCheckout", params={"id": as_id(checkout)})
        return answer

    def expire(self, checkout: Thing) -> JSON:
        """The checkout's time runs out now (expired, or partial when something arrived)."""
        answer: JSON = self._call("sandboxExpireCheckout", params={"id": as_id(checkout)})
        return answer

    def deposit(self, address: Thing, amount: int, currency: str = "USDC", **fields: Any) -> JSON:
        """A transfer to one of the merchant's static addresses (``deposit.received``)."""
        target = address if isinstance(address, str) else str(address["address"])
        answer: JSON = self._call(
            "sandboxCreateStaticAddressDeposit",
            params={"address": target},
            json={"amount": amount, "currency": currency, **fields},
        )
        return answer

    def credit(self, merchant: Merchant | Thing, amount: int, currency: str = "USDC", **fields: Any) -> JSON:
        """Money for a merchant's balance (``env``, ``memo`` as the control API takes them)."""
        answer: JSON = self._call(
            "sandboxCreditMerchant",
            params={"id": _merchant_id(merchant)},
            json={"amount": amount, "currency": currency, **fields},
        )
        return answer

    def payout(self, merchant: Merchant | Thing, amount: int, currency: str = "USDC", **fields: Any) -> JSON:
        """A payout from the merchant's balance: ``outcome="failed"`` rehearses a bank's refusal."""
        answer: JSON = self._call(
            "sandboxCreatePayout",
            json={"merchant_id": _merchant_id(merchant), "amount": amount, "currency": currency, **fields},
        )
        return answer

    def kyc(self, cardholder: Thing, result: str = "approved") -> JSON:
        """The identity provider's verdict on a cardholder: ``approved`` or ``rejected``."""
        answer: JSON = self._call(
            "sandboxReviewCardholderKyc", params={"id": as_id(cardholder)}, json={"result": result}
        )
        return answer

    def authorize(self, card: Thing, amount: int, **fields: Any) -> JSON:
        """The card network asks to authorize a payment (``merchant_name``, ``local_amount``,
        ``settle_after_seconds``… as the control API takes them). Answers the card transaction."""
        answer: JSON = self._call(
            "sandboxCreateCardAuthorization", params={"id": as_id(card)}, json={"amount": amount, **fields}
        )
        return answer

    def settle(self, transaction: Thing) -> JSON:
        """The network settles an authorization."""
        answer: JSON = self._call("sandboxSettleCardTransaction", params={"id": as_id(transaction)})
        return answer

    def reverse(self, transaction: Thing) -> JSON:
        """The network voids an authorization before settlement."""
        answer: JSON = self._call("sandboxReverseCardTransaction", params={"id": as_id(transaction)})
        return answer

    def decline(self, transaction: Thing) -> JSON:
        """The network declines an authorization."""
        answer: JSON = self._call("sandboxDeclineCardTransaction", params={"id": as_id(transaction)})
        return answer

    # ---- webhooks ----------------------------------------------------------------------------

    def webhooks(self) -> list[Webhook]:
        """Every delivery the workspace's inbox received, oldest first."""
        return self.inbox.messages()

    def wait_for_webhook(
        self,
        event: str | None = None,
        *,
        data: Mapping[str, Any] | None = None,
        match: Callable[[Webhook], bool] | None = None,
        timeout: float = WAIT_TIMEOUT_S,
    ) -> Webhook:
        """The first delivery of that event type in the inbox (see :meth:`Inbox.wait_for`)."""
        return self.inbox.wait_for(event, data=data, match=match, timeout=timeout)

    # ---- what the app sent -------------------------------------------------------------------

    def _verify(self, criteria: Mapping[str, Any]) -> VerifyResult:
        body = {k: v for k, v in criteria.items() if v is not None}
        if isinstance(body.get("count"), int):
            body["count"] = {"eq": body["count"]}
        if hasattr(body.get("since"), "isoformat"):
            body["since"] = body["since"].isoformat()
        return VerifyResult.of(self._call("sandboxVerifyRequests", json=body))

    def verify(
        self,
        *,
        method: str | None = None,
        path: str | None = None,
        env: str | None = None,
        status: int | str | None = None,
        query: Mapping[str, str] | None = None,
        body: Any = None,
        since: str | datetime | None = None,
        count: int | Mapping[str, int] | None = None,
    ) -> VerifyResult:
        """Checks that the app sent the ``/v1`` requests described (``count``: exactly n, or
        ``{"gte"|"lte"|"eq": n}``; default at least one); raises :class:`RequestVerificationError`,
        an AssertionError naming the closest requests and what differed, when not."""
        criteria = {
            "method": method,
            "path": path,
            "env": env,
            "status": status,
            "query": query,
            "body": body,
            "since": since,
            "count": count,
        }
        result = self._verify(criteria)
        if not result.ok:
            raise RequestVerificationError({k: v for k, v in criteria.items() if v is not None}, result)
        return result

    def requests(
        self,
        *,
        method: str | None = None,
        path: str | None = None,
        env: str | None = None,
        status: int | str | None = None,
        body: Any = None,
    ) -> list[VerifiedRequest]:
        """The ``/v1`` requests matching, newest first (at most 20)."""
        criteria = {"method": method, "path": path, "env": env, "status": status, "body": body}
        return list(self._verify({**criteria, "count": {"gte": 0}}).requests)

    # ---- coverage and checkpoints ------------------------------------------------------------

    def coverage(self) -> Coverage:
        """What this workspace reached: each event type and state transition, with a count."""
        return Coverage.of(self._call("sandboxGetCoverage"))

    def checkpoint(self, name: str) -> JSON:
        """Saves this moment of the workspace (data, clock, settings) under ``name``."""
        answer: JSON = self._call("sandboxSaveCheckpoint", json={"name": name})
        return answer

    def restore(self, name: str) -> JSON:
        """Brings back the data, clock and settings saved as ``name``; answers the workspace."""
        answer: JSON = self._call("sandboxRestoreCheckpoint", params={"name": name})["workspace"]
        # Merchants made after the checkpoint are gone: they are looked up again by name.
        for merchant in self._merchants.values():
            merchant.close()
        self._merchants.clear()
        return answer

    def checkpoints(self) -> list[JSON]:
        answer: list[JSON] = self._call("sandboxListCheckpoints")
        return answer

    # ---- the end -----------------------------------------------------------------------------

    def _close_clients(self) -> None:
        for merchant in self._merchants.values():
            merchant.close()

    def keep(self) -> None:
        """Leaves the workspace in the sandbox (to look at it afterwards); closes its clients."""
        self._close_clients()
        self.kept = True
        self.closed = True

    def close(self) -> None:
        """Deletes the workspace, its data, keys and clock with it. Calling it again does nothing."""
        if self.closed:
            return
        self.closed = True
        self._close_clients()
        method, path = resolve("sandboxDeleteWorkspace", {"id": self.id})
        try:
            send(self.sandbox.http, method, self.sandbox.test_url + path, self.sandbox.base_headers)
        except SandboxRequestError as error:
            # Already gone: deleted elsewhere, or its sandbox stopped and took it along.
            if error.status != 404:
                raise
        except SandboxUnreachableError:
            pass

    def __enter__(self) -> Workspace:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Workspace(id={self.id!r}, name={self.name!r})"


def _merchant_id(merchant: Thing | Merchant) -> str:
    return merchant.id if isinstance(merchant, Merchant) else as_id(merchant)
