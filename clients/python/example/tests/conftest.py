from datetime import timedelta

import pytest


@pytest.fixture
def make_checkout(workspace):
    """A checkout of the workspace's merchant (or of `shop`), expiring an hour from sandbox time."""

    def make(shop=None, **fields):
        shop = shop or workspace.merchant()
        expires_at = (workspace.clock.now() + timedelta(hours=1)).isoformat()
        body = {"title": "Order", "amount": 25_000_000, "expires_at": expires_at, **fields}
        response = shop.api.post("/v1/checkouts", json=body)
        assert response.status_code == 200, response.text
        return response.json()

    return make
