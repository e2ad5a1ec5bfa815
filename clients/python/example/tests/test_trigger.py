"""Built-in scenarios (svc-sandbox trigger) in the test's workspace."""

import pytest

from svc_sandbox import SandboxRequestError


def test_trigger_runs_a_built_in_scenario_and_says_what_it_changed(workspace):
    run = workspace.trigger("checkout.partial")
    assert run.ok
    assert run.events.get("checkout.partial") == 1
    assert [m["name"] for m in run.merchants] == ["Demo Coffee Roasters"]
    assert run.clock["moved_seconds"] >= 7200
    assert workspace.coverage().count("checkout.partial") == 1


def test_its_webhooks_reach_the_inbox_through_the_merchant_it_reuses(workspace):
    # The scenario reuses the newest merchant of its name: taking it first gives it the inbox endpoint.
    shop = workspace.merchant("Demo Coffee Roasters", kyb_status="approved")
    run = workspace.trigger("checkout.paid")
    assert run.merchants[0]["id"] == shop.id and run.merchants[0]["made"] is False
    hook = workspace.wait_for_webhook("checkout.paid")
    assert hook.data["merchant_id"] == shop.id


def test_an_unknown_scenario_is_refused(workspace):
    names = {s["name"] for s in workspace.scenarios()}
    assert {"checkout.partial", "card.transaction", "webhook.retries-exhausted"} <= names
    with pytest.raises(SandboxRequestError) as refused:
        workspace.trigger("checkout.nonexistent")
    assert refused.value.status == 404
