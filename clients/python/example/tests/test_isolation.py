"""Workspaces do not meet: each test's clock, data and inbox are its own (also under pytest -n 4)."""

from datetime import timedelta

import pytest


@pytest.mark.parametrize("days", [1, 2, 3, 4])
def test_each_test_moves_only_its_own_clock(workspace, make_checkout, days):
    workspace.clock.freeze()
    start = workspace.clock.now()
    checkout = make_checkout(title=f"Order for {days} day(s)")
    moved = workspace.clock.advance(f"{days}d")
    assert moved.now - start == timedelta(days=days)
    assert moved.event_types == ["checkout.expired"]  # its own checkout, nobody else's
    hooks = workspace.webhooks()
    assert {h.data["id"] for h in hooks} == {checkout["id"]}


def test_another_workspace_sees_nothing_of_this_one(workspace, svc_sandbox, make_checkout):
    shop = workspace.merchant()
    checkout = make_checkout()
    with svc_sandbox.workspace(name=f"{workspace.name[:40]}-other") as other:
        stranger = other.merchant()
        assert stranger.id != shop.id
        assert stranger.api.get(f"/v1/checkouts/{checkout['id']}").status_code == 404
        assert stranger.api.get("/v1/checkouts").json() == []
        other.clock.advance("30d")
        assert other.webhooks() == []
    assert shop.api.get(f"/v1/checkouts/{checkout['id']}").json()["status"] == "active"
