import { type FormEvent, useState } from 'react';
import { parseAmount } from '../../components/format';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';

/** The spec allows expiries up to 30 days ahead. */
const MAX_HOURS = 30 * 24;

export function NewCheckoutForm() {
  const createCheckout = useStore((s) => s.createCheckout);
  const [title, setTitle] = useState('');
  const [amount, setAmount] = useState('');
  const [hours, setHours] = useState('24');
  const [busy, run] = useBusy();

  const minor = parseAmount(amount);
  const hoursValue = Number(hours);
  const hoursValid = Number.isFinite(hoursValue) && hoursValue > 0 && hoursValue <= MAX_HOURS;
  const valid = title.trim() !== '' && minor !== null && hoursValid;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || minor === null) return;
    const ok = await run(() => createCheckout({ title: title.trim(), amount: minor, hours: hoursValue }));
    if (ok) {
      setTitle('');
      setAmount('');
    }
  };

  return (
    <form className="form" onSubmit={submit} data-testid="new-checkout-form">
      <label className="field">
        <span className="field-label">Title</span>
        <input
          className="input"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          placeholder="Order #1042"
          maxLength={200}
          required
          data-testid="checkout-title-input"
        />
      </label>
      <div className="form form-inline">
        <label className="field grow">
          <span className="field-label">Amount (USDC)</span>
          <input
            className="input"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            placeholder="25.00"
            aria-invalid={amount !== '' && minor === null}
            required
            data-testid="checkout-amount-input"
          />
        </label>
        <label className="field grow">
          <span className="field-label">Expires in (hours)</span>
          <input
            className="input"
            type="number"
            min={1}
            max={MAX_HOURS}
            step="any"
            value={hours}
            onChange={(e) => setHours(e.target.value)}
            data-testid="checkout-hours-input"
          />
        </label>
      </div>
      <button
        type="submit"
        className="btn btn-primary"
        disabled={busy || !valid}
        data-testid="checkout-create-submit"
      >
        {busy ? 'Creating…' : 'Create checkout'}
      </button>
    </form>
  );
}
