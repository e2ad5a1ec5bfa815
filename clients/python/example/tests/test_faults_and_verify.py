"""API faults on the workspace's /v1, and verification of what the app sent (with near misses)."""

import re
from datetime import timedelta

import pytest

from svc_sandbox import RequestVerificationError


def test_a_fault_fails_the_next_request_then_lets_the_retry_through(workspace):
    shop = workspace.merchant()
    workspace.faults(
        {"match": {"method": "POST", "path": "/v1/checkouts"}, "count": 1, "effect": {"status": 503}},
        seed="retries",
    )
    expires_at = (workspace.clock.now() + timedelta(hours=1)).isoformat()
    order = {"title": "Order 7", "amount": 2_000_000, "reference": "order-7", "expires_at": expires_at}
    assert shop.api.post("/v1/checkouts", json=order).status_code == 503
    assert shop.api.post("/v1/checkouts", json=order).status_code == 200

    rules = workspace.faults.list()["rules"]
    assert rules[0]["applied"] == 1 and rules[0]["remaining"] == 0
    workspace.verify(method="POST", path="/v1/checkouts", body={"reference": "order-7"}, count=2)
    assert [r.status for r in workspace.requests(method="POST", path="/v1/checkouts")] == [200, 503]
    workspace.faults.clear()
    assert workspace.faults.list()["rules"] == []


def test_a_failed_verification_names_the_near_misses(workspace, make_checkout):
    make_checkout(title="Order 8", amount=1_000_000)
    with pytest.raises(RequestVerificationError) as failed:
        workspace.verify(method="POST", path="/v1/checkouts", body={"amount": 5_000_000})
    message = str(failed.value)
    assert message.startswith('expected at least 1 request(s) matching {"method":"POST"')
    assert re.search(
        r"near misses:\n  POST /v1/checkouts \(200, [0-9a-f-]+\)\n    body.amount: expected 5000000, actual 1000000",
        message,
    )
    assert isinstance(failed.value, AssertionError)  # pytest shows it as a test failure
