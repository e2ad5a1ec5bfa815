import { type FormEvent, useState } from 'react';
import type { CheckoutItem } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { AmountInput, Field, Select, TextInput } from '../../components/Field';
import { StatusBadge } from '../../components/StatusBadge';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { formatMoney, parseAmount } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { merchantName } from '../../store/resellers';
import { CHECKOUT_LABEL, CHECKOUT_TONE } from '../Checkouts/status';

/** Hours until an on-behalf checkout expires (as the Checkouts form's default). */
const HOURS = 24;

/** The checkout just made for a connected merchant, and the way to it on the Checkouts page. */
function CreatedCheckout({ checkout }: { checkout: CheckoutItem }) {
  const owner = useStore((s) => merchantName(s, checkout.merchant_id));
  const selectMerchant = useStore((s) => s.selectMerchant);
  const selectCheckout = useStore((s) => s.selectCheckout);
  // The checkout is the connected merchant's: the Checkouts page shows it in that merchant's scope.
  const open = () => {
    void selectMerchant(checkout.merchant_id);
    void selectCheckout(checkout.id);
    window.location.hash = '#/checkouts';
  };
  return (
    <div
      className="card-section result"
      data-testid="on-behalf-checkout"
      data-checkout-id={checkout.id}
      data-status={checkout.status}
    >
      <div className="detail-title-row">
        <span className="strong">{checkout.title}</span>
        <span className="amount">{formatMoney(checkout.amount, checkout.currency)}</span>
        <StatusBadge
          status={checkout.status}
          tone={CHECKOUT_TONE[checkout.status]}
          label={CHECKOUT_LABEL[checkout.status]}
          testId="on-behalf-checkout-status"
        />
      </div>
      <div className="key-cell">
        <code className="mono key-value" data-testid="on-behalf-checkout-id">
          {checkout.id}
        </code>
        <CopyButton value={checkout.id} testId="on-behalf-checkout-copy" />
      </div>
      <div className="form-actions">
        <span className="muted small">Belongs to {owner}.</span>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={open}
          data-testid="on-behalf-checkout-open"
        >
          Open in Checkouts →
        </button>
      </div>
    </div>
  );
}

/** A checkout created for a connected merchant: the money is theirs, the reseller fee this one's. */
export function OnBehalfForm() {
  const createOnBehalfCheckout = useStore((s) => s.createOnBehalfCheckout);
  const connected = useStore((s) => (s.resellersScope === scopeKey(s) ? s.outgoing : null));
  const merchants = useStore((s) => s.merchants);
  const created = useStore((s) =>
    s.onBehalfCheckout && s.onBehalfCheckout.scope === scopeKey(s) ? s.onBehalfCheckout.value : null,
  );
  const [target, setTarget] = useState('');
  const [title, setTitle] = useState('');
  const [amount, setAmount] = useState('');
  const [busy, run] = useBusy();

  const targets = merchants.filter((m) =>
    (connected ?? []).some((c) => c.status === 'active' && c.merchant_id === m.id),
  );
  const chosen = targets.some((m) => m.id === target) ? target : '';
  const minor = parseAmount(amount);
  const valid = chosen !== '' && title.trim() !== '' && minor !== null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || minor === null) return;
    const ok = await run(() =>
      createOnBehalfCheckout({ merchantId: chosen, title: title.trim(), amount: minor, hours: HOURS }),
    );
    if (ok) {
      setTitle('');
      setAmount('');
    }
  };

  return (
    <Card
      title="Checkout on behalf"
      subtitle={`For a merchant with an active connection; it expires in ${HOURS} hours.`}
      testId="on-behalf"
    >
      {connected !== null && targets.length === 0 ? (
        <p className="empty empty-inline" data-testid="on-behalf-none">
          Connect to a merchant first: checkouts on behalf need an active connection.
        </p>
      ) : (
        <form className="form" onSubmit={submit} data-testid="on-behalf-form">
          <Field label="For merchant">
            <Select value={chosen} onChange={setTarget} testId="on-behalf-merchant-select">
              <option value="">Choose a connected merchant…</option>
              {targets.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </Select>
          </Field>
          <div className="form form-inline">
            <Field label="Title" grow>
              <TextInput
                value={title}
                onChange={setTitle}
                placeholder="Order #2001"
                maxLength={200}
                required
                testId="on-behalf-title-input"
              />
            </Field>
            <Field label="Amount (USDC)">
              <AmountInput
                compact
                value={amount}
                onChange={setAmount}
                placeholder="100.00"
                required
                testId="on-behalf-amount-input"
              />
            </Field>
          </div>
          <div>
            <SubmitButton busy={busy} busyLabel="Creating…" disabled={!valid} testId="on-behalf-submit">
              Create checkout
            </SubmitButton>
          </div>
        </form>
      )}
      {created && <CreatedCheckout checkout={created} />}
    </Card>
  );
}
