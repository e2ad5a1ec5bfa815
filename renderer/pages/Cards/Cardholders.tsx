import { type FormEvent, useState } from 'react';
import { Card } from '../../components/Card';
import { Field, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { formatMoney } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';

export function NewCardholderForm() {
  const createCardholder = useStore((s) => s.createCardholder);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [busy, run] = useBusy();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await run(() =>
      createCardholder({ name: name.trim(), ...(email.trim() ? { email: email.trim() } : {}) }),
    );
    if (ok) {
      setName('');
      setEmail('');
    }
  };

  return (
    <form className="form" onSubmit={submit} data-testid="new-cardholder-form">
      <Field label="Name">
        <TextInput
          value={name}
          onChange={setName}
          placeholder="Jane Doe"
          maxLength={200}
          required
          testId="cardholder-name-input"
        />
      </Field>
      <Field
        label={
          <>
            Email <span className="muted">(optional)</span>
          </>
        }
      >
        <TextInput
          type="email"
          value={email}
          onChange={setEmail}
          placeholder="jane@example.com"
          testId="cardholder-email-input"
        />
      </Field>
      <SubmitButton
        busy={busy}
        busyLabel="Creating…"
        disabled={!name.trim()}
        testId="cardholder-create-submit"
      >
        Create cardholder
      </SubmitButton>
    </form>
  );
}

export function CardholderList() {
  const holders = useStore((s) => s.cardholders);
  const loaded = useStore((s) => s.cardholdersScope !== null && s.cardholdersScope === scopeKey(s));
  const selected = useStore((s) => s.selectedCardholderId);
  const selectCardholder = useStore((s) => s.selectCardholder);
  const env = useStore((s) => s.env);

  return (
    <Card title="Cardholders" className="card-flush" testId="cardholder-list">
      {loaded && holders.length === 0 ? (
        <p className="empty">No cardholders in {env} yet.</p>
      ) : (
        <ul className="merchant-list">
          {(loaded ? holders : []).map((holder) => {
            // The wallet's own currencies, as everywhere else ("50.00 USDC", never "$50.00").
            const wallet = holder.balances.filter((b) => b.balance !== 0);
            return (
              <li key={holder.id}>
                <button
                  type="button"
                  className={`merchant-item ${holder.id === selected ? 'selected' : ''}`}
                  onClick={() => void selectCardholder(holder.id)}
                  data-testid="cardholder-item"
                  data-cardholder-id={holder.id}
                >
                  <span className="avatar avatar-person" aria-hidden="true">
                    {holder.name.trim().charAt(0).toUpperCase() || '?'}
                  </span>
                  <span className="merchant-item-text">
                    <span className="merchant-item-name">{holder.name}</span>
                    <span className="merchant-item-sub">
                      {holder.is_kyc_verified ? 'Verified' : 'Not verified'} ·{' '}
                      {wallet.length === 0
                        ? formatMoney(0, 'USDC')
                        : wallet.map((b) => formatMoney(b.balance, b.currency)).join(' · ')}
                    </span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
