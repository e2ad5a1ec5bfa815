import { type FormEvent, useState } from 'react';
import { AmountInput, Field, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { parseAmount } from '../../lib/format';
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
      <Field label="Title">
        <TextInput
          value={title}
          onChange={setTitle}
          placeholder="Order #1042"
          maxLength={200}
          required
          testId="checkout-title-input"
        />
      </Field>
      <div className="form form-inline">
        <Field label="Amount (USDC)" grow>
          <AmountInput
            value={amount}
            onChange={setAmount}
            placeholder="25.00"
            required
            testId="checkout-amount-input"
          />
        </Field>
        <Field label="Expires in (hours)" grow>
          <TextInput
            type="number"
            min={1}
            max={MAX_HOURS}
            step="any"
            value={hours}
            onChange={setHours}
            testId="checkout-hours-input"
          />
        </Field>
      </div>
      <SubmitButton busy={busy} busyLabel="Creating…" disabled={!valid} testId="checkout-create-submit">
        Create checkout
      </SubmitButton>
    </form>
  );
}
