from datetime import timedelta

from svc_sandbox import verify_signature


def test_a_partly_paid_checkout_expires_as_partial(workspace):
    shop = workspace.merchant()  # its key, an httpx client on /v1, a webhook endpoint on the inbox
    workspace.clock.freeze()
    expires_at = workspace.clock.now() + timedelta(hours=1)

    checkout = shop.api.post(
        "/v1/checkouts",
        json={"title": "Order 1004", "amount": 25_000_000, "currency": "USDC", "expires_at": expires_at.isoformat()},
    ).json()
    workspace.pay(checkout, amount=10_000_000)  # 10 of 25 USDC arrive

    moved = workspace.clock.advance("2h")  # past the expiry: runs this workspace's due jobs
    assert "checkout.partial" in moved.event_types

    hook = workspace.wait_for_webhook("checkout.partial", data={"id": checkout["id"]})
    verify_signature(hook.raw_body, hook.headers, shop.webhook_secret)  # over the raw bytes
    assert hook.data["status"] == "partial"

    checkout = shop.api.get(f"/v1/checkouts/{checkout['id']}").json()
    assert checkout["status"] == "partial"
    assert checkout["paid_amount"] == 10_000_000
