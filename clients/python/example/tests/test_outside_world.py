"""The outside world's moves: payers, the chain, the payout rail, the card network, KYC."""

CATALOGUE = "6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21"  # the sandbox's virtual card product


def test_a_checkout_paid_in_full_then_completed_and_another_expired(workspace, make_checkout):
    checkout = make_checkout(amount=5_000_000)
    paid = workspace.pay(checkout)  # what is due
    assert paid["checkout"]["status"] == "paid" and paid["payment"]["outcome"] == "received"
    assert workspace.complete(checkout)["status"] == "completed"
    workspace.wait_for_webhook("checkout.completed", data={"id": checkout["id"]})

    unpaid = make_checkout(amount=5_000_000)
    workspace.expire(unpaid)
    hook = workspace.wait_for_webhook("checkout.expired", data={"id": unpaid["id"]})
    assert hook.data["status"] == "expired"
    assert [h.event for h in workspace.webhooks()].count("checkout.created") == 2


def test_money_in_and_out(workspace):
    shop = workspace.merchant()
    address = shop.api.get("/v1/static-addresses").json()[0]
    deposit = workspace.deposit(address, 15_000_000, currency="USDT")
    assert deposit["amount"] == 15_000_000
    workspace.wait_for_webhook("deposit.received", data={"amount": 15_000_000})

    workspace.credit(shop, 100_000_000)
    payout = workspace.payout(shop, 20_000_000, outcome="failed", failure_reason="account closed")
    assert payout["status"] == "failed"
    workspace.wait_for_webhook("payout.failed", data={"id": payout["id"]})


def test_a_card_authorized_then_settled_by_the_network(workspace):
    shop = workspace.merchant()
    workspace.credit(shop, 200_000_000)
    jane = shop.api.post("/v1/cardholders", json={"name": "Jane Doe", "email": "jane@example.com"}).json()
    workspace.kyc(jane, "approved")
    applied = shop.api.post(
        f"/v1/cardholders/{jane['id']}/cards/apply",
        json={
            "catalogue": CATALOGUE,
            "account_purpose": "business expenses",
            "occupation": "engineer",
            "annual_salary": "50000_100000",
            "expected_monthly_volume": "1000_5000",
        },
    )
    assert applied.status_code == 200, applied.text
    assert shop.api.post(
        f"/v1/cardholders/{jane['id']}/fund", json={"amount": 100_000_000, "currency": "USDC"}
    ).is_success
    card = shop.api.post(f"/v1/cardholders/{jane['id']}/cards", json={"catalogue": CATALOGUE, "type": "virtual"}).json()

    auth = workspace.authorize(
        card, 4_500_000, merchant_name="Blue Bottle Café", local_amount=420, local_currency="EUR"
    )
    assert auth["status"] == "requested"
    assert workspace.settle(auth)["status"] == "completed"
    hook = workspace.wait_for_webhook("card.transaction", data={"id": auth["id"], "status": "completed"})
    assert hook.data["amount"] in (4_500_000, -4_500_000)

    second = workspace.authorize(card, 1_000_000)
    assert workspace.reverse(second)["status"] in ("reversed", "cancelled", "voided")
