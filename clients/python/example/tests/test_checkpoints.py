"""Checkpoints: a moment saved, the workspace moved on, the moment brought back."""


def test_restore_brings_back_the_data_and_the_clock(workspace, make_checkout):
    shop = workspace.merchant()
    checkout = make_checkout()
    saved = workspace.checkpoint("created, unpaid")
    assert saved["name"] == "created, unpaid"
    at = workspace.clock.now()

    workspace.pay(checkout)
    workspace.clock.advance("3d")
    assert shop.api.get(f"/v1/checkouts/{checkout['id']}").json()["status"] in ("paid", "completed")

    workspace.restore("created, unpaid")
    assert shop.api.get(f"/v1/checkouts/{checkout['id']}").json()["status"] == "active"
    assert abs((workspace.clock.now() - at).total_seconds()) < 60
    assert [c["name"] for c in workspace.checkpoints()] == ["created, unpaid"]
    # The merchant made before the checkpoint is still there, with its key and inbox endpoint.
    again = workspace.merchant()
    assert (again.id, again.key, again.webhook_secret) == (shop.id, shop.key, shop.webhook_secret)
    workspace.pay(checkout)
    workspace.wait_for_webhook("checkout.paid", data={"id": checkout["id"]})
