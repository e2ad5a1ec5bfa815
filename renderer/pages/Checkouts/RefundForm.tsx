import { type FormEvent, useState } from 'react';
import type { Checkout } from '../../api/types';
import { formatAmount, parseAmount } from '../../components/format';
import { useBusy } from '../../components/useBusy';
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
        <label className="field">
          <span className="field-label">Amount ({checkout.currency})</span>
          <input
            className="input input-amount"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            placeholder={refundable > 0 ? formatAmount(refundable) : 'all'}
            aria-invalid={amount !== '' && minor === null}
            data-testid="refund-amount-input"
          />
        </label>
        <label className="field grow">
          <span className="field-label">Reason</span>
          <input
            className="input"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder="Customer returned the item"
            maxLength={500}
            data-testid="refund-reason-input"
          />
        </label>
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
        <button
          type="submit"
          className="btn btn-outline"
          disabled={busy || !enabled || (amount !== '' && minor === null)}
          data-testid="refund-submit"
        >
          {busy ? 'Refunding…' : 'Refund'}
        </button>
      </div>
    </form>
  );
}
