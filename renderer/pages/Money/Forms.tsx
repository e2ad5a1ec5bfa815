import { type FormEvent, useState } from 'react';
import type { Payout, PayoutStatus } from '../../api/types';
import { Card } from '../../components/Card';
import { AmountInput, Field, Select } from '../../components/Field';
import { useWords } from '../../components/Private';
import { StatusBadge } from '../../components/StatusBadge';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { formatAmount, formatTime, formatTimestamp, parseAmount } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { currenciesOf } from './currencies';

function CurrencySelect({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (v: string) => void;
  testId: string;
}) {
  const chains = useStore((s) => s.chains);
  return (
    <Field label="Currency">
      <Select value={value} onChange={onChange} testId={testId}>
        {currenciesOf(chains).map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** One empty list, so a selector returning it gives the same value each time. */
const NO_PAYOUTS: Payout[] = [];

function RecentPayouts({ payouts }: { payouts: Payout[] }) {
  if (payouts.length === 0) return null;
  return (
    <ul className="mini-list list-below-form" data-testid="payouts">
      {payouts.slice(0, 6).map((p) => (
        <li key={p.id} className="mini-item" data-testid="payout-row" data-status={p.status}>
          <span className="amount">
            {formatAmount(p.amount)} {p.currency}
          </span>
          <StatusBadge status={p.status} tone={p.status === 'completed' ? 'success' : 'danger'} />
          <span
            className="muted small mini-item-side nowrap"
            title={`${formatTimestamp(p.created_at)}${p.failure_reason ? `: ${p.failure_reason}` : ''}`}
          >
            {formatTime(Date.parse(p.created_at))} UTC
          </span>
        </li>
      ))}
    </ul>
  );
}

export function PayoutForm() {
  const createPayout = useStore((s) => s.createPayout);
  const payouts = useStore((s) => (s.moneyScope === scopeKey(s) ? s.payouts : NO_PAYOUTS));
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USDC');
  const [outcome, setOutcome] = useState<PayoutStatus>('completed');
  const [busy, run] = useBusy();
  const minor = parseAmount(amount);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (minor === null) return;
    if (await run(() => createPayout({ amount: minor, currency, outcome }))) setAmount('');
  };

  return (
    <Card
      title="Payout"
      subtitle="Money leaving to the merchant’s bank or wallet. More than the available balance fails."
      testId="payout"
    >
      <form className="form" onSubmit={submit} data-testid="payout-form">
        <div className="form form-inline">
          <Field label="Amount" grow>
            <AmountInput
              value={amount}
              onChange={setAmount}
              placeholder="50.00"
              testId="payout-amount-input"
            />
          </Field>
          <CurrencySelect value={currency} onChange={setCurrency} testId="payout-currency-select" />
        </div>
        <Field label="Outcome">
          <Select
            value={outcome}
            onChange={(v) => setOutcome(v as PayoutStatus)}
            testId="payout-outcome-select"
          >
            <option value="completed">Completes (debits the balance)</option>
            <option value="failed">Fails (rejected by the receiving bank)</option>
          </Select>
        </Field>
        <SubmitButton busy={busy} busyLabel="Paying out…" disabled={minor === null} testId="payout-submit">
          Pay out
        </SubmitButton>
      </form>
      <RecentPayouts payouts={payouts} />
    </Card>
  );
}

export function CreditForm() {
  const creditMerchant = useStore((s) => s.creditMerchant);
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USDC');
  const [busy, run] = useBusy();
  const minor = parseAmount(amount);
  const words = useWords();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (minor === null) return;
    if (await run(() => creditMerchant(currency, minor))) setAmount('');
  };

  return (
    <Card
      title={words('Credit', 'Add money')}
      subtitle={words(
        'Top up the available balance directly, say to fund cards. No webhook: it is a sandbox shortcut.',
        'Top up the business’s balance directly, for example to fund its cards.',
      )}
      testId="credit"
    >
      <form className="form" onSubmit={submit} data-testid="credit-form">
        <div className="form form-inline">
          <Field label="Amount" grow>
            <AmountInput
              value={amount}
              onChange={setAmount}
              placeholder="1000.00"
              testId="credit-amount-input"
            />
          </Field>
          <CurrencySelect value={currency} onChange={setCurrency} testId="credit-currency-select" />
        </div>
        <SubmitButton
          variant="secondary"
          busy={busy}
          busyLabel="Crediting…"
          disabled={minor === null}
          testId="credit-submit"
        >
          Credit merchant
        </SubmitButton>
      </form>
    </Card>
  );
}
