"""SvcSandboxContainer: the image started, healthy, and driven through the plugin's fixtures."""

from datetime import timedelta

import httpx

from svc_sandbox import verify_signature


def test_it_is_healthy_on_a_published_port(container, svc_sandbox):
    url = container.get_url()
    assert svc_sandbox.test_url == url
    assert httpx.get(f"{url}/sandbox/health").json()["status"] == "ok"
    assert container.env_vars() == {"SVC_SANDBOX_URL": url}  # what the plugin reads instead


def test_a_partial_checkout_with_its_webhook_in_the_inbox(workspace):
    # The inbox endpoint is the sandbox's own address inside the container, not the published port.
    shop = workspace.merchant()
    workspace.clock.freeze()
    expires_at = (workspace.clock.now() + timedelta(hours=1)).isoformat()
    checkout = shop.api.post(
        "/v1/checkouts", json={"title": "Order", "amount": 25_000_000, "expires_at": expires_at}
    ).json()
    workspace.pay(checkout, amount=10_000_000)
    assert "checkout.partial" in workspace.clock.advance("2h").event_types
    hook = workspace.wait_for_webhook("checkout.partial", data={"id": checkout["id"]}, timeout=10)
    verify_signature(hook.raw_body, hook.headers, shop.webhook_secret)
    assert shop.client("production").get("/v1/checkouts").json() == []  # the production port, published too
