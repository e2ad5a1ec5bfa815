import { useState } from 'react';
import type { Checkout, CheckoutDetail as Detail } from '../../api/types';
import { Card } from '../../components/Card';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DetailHead, Fact } from '../../components/DetailHead';
import { AmountInput, Field, Select } from '../../components/Field';
import { useWords } from '../../components/Private';
import { StatusBadge } from '../../components/StatusBadge';
import { useBusy } from '../../components/useBusy';
import { chainName, formatAmount, formatMoney, formatTimestamp, parseAmount } from '../../lib/format';
import { useStore } from '../../store';
import { CheckoutChains } from './CheckoutChains';
import { CheckoutPayments, CheckoutRefunds } from './CheckoutHistory';
import { RefundForm } from './RefundForm';
import { CHECKOUT_LABEL, CHECKOUT_TONE, REFUNDABLE } from './status';

function Summary({ detail }: { detail: Detail }) {
  const { checkout } = detail;
  const fees = checkout.platform_fee + checkout.reseller_fee + checkout.platform_gas_fee;
  return (
    <Card>
      <DetailHead
        title={checkout.title}
        titleTestId="checkout-title"
        badge={
          <StatusBadge
            status={checkout.status}
            tone={CHECKOUT_TONE[checkout.status]}
            label={CHECKOUT_LABEL[checkout.status]}
            testId="checkout-status"
            large
          />
        }
        code={checkout.id}
        codeTestId="checkout-id"
        copyValue={checkout.id}
        amount={
          <>
            <span className="detail-amount-value" data-testid="checkout-amount">
              {formatMoney(checkout.amount, checkout.currency)}
            </span>
            <a
              className="btn btn-secondary btn-sm"
              href={checkout.hosted_url}
              target="_blank"
              rel="noreferrer"
              data-testid="checkout-hosted-link"
            >
              Open hosted page ↗
            </a>
          </>
        }
      />
      <dl className="facts facts-row facts-4">
        <Fact label="Received" testId="checkout-received">
          {formatAmount(detail.received_amount)} {checkout.currency}
        </Fact>
        <Fact label="Refunded" testId="checkout-refunded">
          {formatAmount(checkout.refunded_amount)} {checkout.currency}
        </Fact>
        <Fact
          label="Fees and gas"
          title="Fixed when the payment is detected; a refund within 7 days claws back a share"
        >
          <span data-testid="checkout-fees">
            {formatAmount(fees)} {checkout.currency}
          </span>
          {checkout.paid_at && (
            <span className="fact-sub muted small" data-testid="checkout-fee-breakdown">
              platform {formatAmount(checkout.platform_fee)} · reseller {formatAmount(checkout.reseller_fee)}{' '}
              · gas {formatAmount(checkout.platform_gas_fee)}
            </span>
          )}
        </Fact>
        <Fact label={checkout.paid_at ? 'Paid' : 'Expires'}>
          {formatTimestamp(checkout.paid_at ?? checkout.expires_at)}
        </Fact>
      </dl>
    </Card>
  );
}

/** A chain and token to pay with: "ethereum/USDC". Fiat-only checkouts pay without one. */
const routes = (checkout: Checkout) =>
  checkout.crypto_chains.flatMap((c) => c.tokens.map((t) => ({ chain: c.chain, token: t.name })));

function Simulate({ checkout }: { checkout: Checkout }) {
  const payCheckout = useStore((s) => s.payCheckout);
  const checkoutAction = useStore((s) => s.checkoutAction);
  const [busy, run] = useBusy();
  const [part, setPart] = useState('');
  const options = routes(checkout);
  const [route, setRoute] = useState(0);
  const active = checkout.status === 'active';
  const partMinor = parseAmount(part);
  const via = options[route] ?? options[0];
  const payWith = via ? { chain: via.chain, token: via.token } : { method: 'fiat' as const };

  const pay = (amount?: number) =>
    run(() => payCheckout(checkout.id, amount === undefined ? payWith : { ...payWith, amount }));
  const words = useWords();

  return (
    <Card
      title={words('Play the outside world', 'Act as the customer')}
      subtitle={words(
        'A transfer the chain detects, settlement, expiry: each fires its webhook as the service would.',
        'Pay in full or in part, settle the payment now, or let the time to pay run out.',
      )}
      testId="checkout-simulate"
    >
      <div className="action-rows">
        <div className="form form-inline">
          {options.length > 0 && (
            <Field label="Pay with">
              <Select value={route} onChange={(v) => setRoute(Number(v))} testId="checkout-pay-with">
                {options.map((o, i) => (
                  <option key={`${o.chain}/${o.token}`} value={i}>
                    {o.token} on {chainName(o.chain)}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || !active || checkout.amount === null}
            onClick={() => void pay()}
            data-testid="checkout-pay-full"
          >
            Pay in full
          </button>
          <span className="or muted small">or</span>
          {/* The amount and its button stay together: wrapping moves both to the next line. */}
          <span className="pay-part">
            <Field label={`Part (${checkout.currency})`}>
              <AmountInput
                compact
                value={part}
                onChange={setPart}
                placeholder="10.00"
                testId="checkout-pay-amount"
              />
            </Field>
            <button
              type="button"
              className="btn btn-secondary"
              disabled={busy || !active || partMinor === null}
              onClick={async () => {
                if (partMinor !== null && (await pay(partMinor))) setPart('');
              }}
              data-testid="checkout-pay-part"
            >
              Pay part
            </button>
          </span>
          {!active && options.length > 0 && (
            <button
              type="button"
              className="btn btn-secondary"
              disabled={busy || (partMinor === null && checkout.amount === null)}
              onClick={async () => {
                const amount = partMinor ?? checkout.amount ?? undefined;
                if (await run(() => payCheckout(checkout.id, { ...payWith, amount, late: true })))
                  setPart('');
              }}
              title="A transfer after the checkout closed (the part, else the amount): recorded as late, credited to no one"
              data-testid="checkout-pay-late"
            >
              Send late transfer
            </button>
          )}
        </div>
        <div className="button-group action-row-divided">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy || checkout.status !== 'paid'}
            onClick={() => void run(() => checkoutAction(checkout.id, 'complete'))}
            title="Settle now instead of after the settlement delay"
            data-testid="checkout-complete"
          >
            Complete now
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy || !active}
            onClick={() => void run(() => checkoutAction(checkout.id, 'expire'))}
            title="Expire now: partial if something arrived, else expired"
            data-testid="checkout-expire"
          >
            Expire now
          </button>
          <ConfirmButton
            label="Cancel checkout"
            confirmLabel="Cancel it"
            busyLabel="Cancelling…"
            disabled={busy || !active}
            onConfirm={() => checkoutAction(checkout.id, 'cancel')}
            testId="checkout-cancel"
          />
        </div>
      </div>
    </Card>
  );
}

export function CheckoutDetail({ checkoutId }: { checkoutId: string }) {
  const detail = useStore((s) => (s.checkoutDetail?.checkout.id === checkoutId ? s.checkoutDetail : null));
  const words = useWords();
  if (!detail) {
    return (
      <Card>
        <p className="empty">Loading checkout…</p>
      </Card>
    );
  }
  const { checkout } = detail;
  return (
    <div className="stack" data-testid="checkout-detail" data-checkout-id={checkout.id} data-env={detail.env}>
      <Summary detail={detail} />
      <Simulate checkout={checkout} />
      <CheckoutPayments payments={detail.payments} currency={checkout.currency} />
      <Card
        title="Refunds"
        subtitle={words(
          'As the merchant’s owner (POST /v1/checkouts/{id}/refund). Gas comes off the refund unless the merchant pays it.',
          'Money back to the customer, all or part. The network fee comes off the refund unless the business pays it.',
        )}
        testId="checkout-refunds"
      >
        <RefundForm checkout={checkout} enabled={REFUNDABLE.includes(checkout.status)} />
        <CheckoutRefunds refunds={detail.refunds} currency={checkout.currency} />
      </Card>
      {checkout.crypto_chains.length > 0 && <CheckoutChains chains={checkout.crypto_chains} />}
    </div>
  );
}
