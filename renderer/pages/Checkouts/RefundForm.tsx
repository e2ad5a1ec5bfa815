import { type FormEvent, useState } from 'react';
import type { Checkout } from '../../api/types';
import { AmountInput, Field, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { formatAmount, parseAmount } from '../../lib/format';
import { useStore } from '../../store';

export function RefundForm({ checkout, enabled }: { checkout: Checkout; enabled: boolean }) {
  const refundCheckout = useStore((s) => s.refundCheckout);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [merchantPaysGas, setMerchantPaysGas] = useState(false);
  const [busy, run] = useBusy();
  const minor = parseAmount(amount);
  const refundable = (checkout.paid_amount ?? 0) - checkout.refunded_amount;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (amount !== '' && minor === null) return;
    const ok = await run(() =>
      refundCheckout(checkout.id, {
        ...(minor === null ? {} : { amount: minor }),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        ...(merchantPaysGas ? { gas_fee_payer: 'merchant' as const } : {}),
      }),
    );
    if (ok) {
      setAmount('');
      setReason('');
    }
  };

  return (
    <form className="form" onSubmit={submit} data-testid="refund-form">
      <div className="form form-inline">
        <Field label={`Amount (${checkout.currency})`}>
          <AmountInput
            compact
            value={amount}
            onChange={setAmount}
            placeholder={refundable > 0 ? formatAmount(refundable) : 'all'}
            testId="refund-amount-input"
          />
        </Field>
        <Field label="Reason" grow>
          <TextInput
            value={reason}
            onChange={setReason}
            placeholder="Customer returned the item"
            maxLength={500}
            testId="refund-reason-input"
          />
        </Field>
      </div>
      <div className="form-actions">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={merchantPaysGas}
            onChange={(e) => setMerchantPaysGas(e.target.checked)}
            data-testid="refund-merchant-gas"
          />
          Merchant pays gas
        </label>
        <SubmitButton
          variant="outline"
          busy={busy}
          busyLabel="Refunding…"
          disabled={!enabled || (amount !== '' && minor === null)}
          testId="refund-submit"
        >
          Refund
        </SubmitButton>
      </div>
    </form>
  );
}
