"""The rest of a workspace: control calls by operationId or path, merchants, the inbox, URLs."""

import pytest

from svc_sandbox import SandboxRequestError, WebhookTimeoutError


def test_control_calls_by_operation_id_and_by_path(workspace, make_checkout):
    checkout = make_checkout()
    inspected = workspace.call("sandboxGetCheckout", params={"id": checkout["id"]})
    assert inspected["checkout"]["id"] == checkout["id"]
    assert workspace.control("GET", "/clock")["frozen"] is False
    with pytest.raises(SandboxRequestError) as missing:
        workspace.call("sandboxGetCheckout", params={"id": "00000000-0000-4000-8000-000000000000"})
    assert missing.value.status == 404
    with pytest.raises(ValueError, match="no operation"):
        workspace.call("sandboxGetNothing")


def test_merchants_by_name_with_keys_for_both_environments(workspace):
    shop = workspace.merchant()
    assert workspace.merchant() is shop
    other = workspace.merchant("Reseller Co", country="DE")
    assert other.id != shop.id and other.info["country"] == "DE"
    assert shop.api.get("/v1/checkouts").status_code == 200
    assert shop.client("production").get("/v1/checkouts").json() == []  # the same key, in production
    assert shop.api.get("/v1/checkouts", headers={"authorization": "Bearer nope"}).status_code == 401
    assert workspace.dashboard_url.endswith(f"?workspace={workspace.id}")


def test_the_inbox_waits_then_names_what_did_arrive(workspace, make_checkout):
    checkout = make_checkout()
    with pytest.raises(
        WebhookTimeoutError, match=r"no checkout.paid webhook .* within 0.3 s; received: checkout.created"
    ):
        workspace.wait_for_webhook("checkout.paid", timeout=0.3)
    workspace.inbox.clear()
    assert workspace.webhooks() == []
    workspace.inbox.respond_with(500)  # a receiver that fails: the sandbox retries on its clock
    workspace.pay(checkout)
    failed = workspace.wait_for_webhook("checkout.paid")
    assert failed.headers["x-svc-event"] == "checkout.paid"
    workspace.inbox.respond_with(200)
    workspace.clock.advance("5m")  # the first retry
    retried = [h for h in workspace.webhooks() if h.event == "checkout.paid"]
    assert len(retried) == 2 and retried[0].delivery_id == retried[1].delivery_id
