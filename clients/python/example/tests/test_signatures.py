"""verify_signature against deliveries the sandbox made: the raw bytes verify, anything else fails."""

import json

import pytest

from svc_sandbox import SignatureError, is_valid_signature, sign, verify_signature


@pytest.fixture
def delivery(workspace, make_checkout):
    shop = workspace.merchant()
    checkout = make_checkout(amount=5_000_000)
    workspace.pay(checkout)
    return shop, workspace.wait_for_webhook("checkout.paid", data={"id": checkout["id"]})


def test_the_raw_body_verifies_with_the_endpoint_secret(delivery):
    shop, hook = delivery
    verify_signature(hook.raw_body, hook.headers, shop.webhook_secret)
    verify_signature(hook.raw_body.decode("utf-8"), hook.signature, shop.webhook_secret)  # text, the header value
    assert hook.signature == sign(shop.webhook_secret, hook.raw_body)
    assert hook.signature_valid is True  # the inbox's own check agrees
    assert {"x-svc-event": "checkout.paid", "x-svc-delivery-id": hook.delivery_id}.items() <= hook.headers.items()


def test_a_re_serialized_body_fails(delivery):
    shop, hook = delivery
    parsed = json.loads(hook.raw_body)
    for again in (json.dumps(parsed), json.dumps(parsed, sort_keys=True, separators=(",", ":"))):
        assert again.encode() != hook.raw_body
        with pytest.raises(SignatureError, match="raw bytes"):
            verify_signature(again.encode(), hook.headers, shop.webhook_secret)
    # The rule is the bytes: a serialization that happens to give the same bytes verifies.
    same = json.dumps(parsed, separators=(",", ":"), ensure_ascii=False).encode()
    assert is_valid_signature(same, hook.headers, shop.webhook_secret) == (same == hook.raw_body)
    with pytest.raises(TypeError, match="raw request body"):
        verify_signature(parsed, hook.headers, shop.webhook_secret)


def test_a_wrong_secret_or_header_fails(delivery):
    shop, hook = delivery
    assert not is_valid_signature(hook.raw_body, hook.headers, "whsec_notTheEndpointsSecret123")
    with pytest.raises(SignatureError, match="no X-SVC-Signature"):
        verify_signature(hook.raw_body, {"content-type": "application/json"}, shop.webhook_secret)
    with pytest.raises(SignatureError, match="sha256="):
        verify_signature(hook.raw_body, {"X-SVC-Signature": "md5=abc"}, shop.webhook_secret)
    assert is_valid_signature(hook.raw_body, {"X-Svc-Signature": hook.signature}, shop.webhook_secret)
