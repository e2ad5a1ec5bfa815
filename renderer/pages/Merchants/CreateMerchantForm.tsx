import { type FormEvent, useState } from 'react';
import { useStore } from '../../store';

export function CreateMerchantForm() {
  const createMerchant = useStore((s) => s.createMerchant);
  const [name, setName] = useState('');
  const [country, setCountry] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    // The server validates (country: two capital letters); its message is shown if it refuses.
    const ok = await createMerchant({
      name: name.trim(),
      ...(country.trim() ? { country: country.trim() } : {}),
    });
    setBusy(false);
    if (ok) {
      setName('');
      setCountry('');
    }
  };

  return (
    <form className="form" onSubmit={submit} data-testid="create-merchant-form">
      <label className="field">
        <span className="field-label">Name</span>
        <input
          className="input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Acme Ltd"
          maxLength={200}
          required
          data-testid="merchant-name-input"
        />
      </label>
      <label className="field">
        <span className="field-label">
          Country <span className="muted">(optional, ISO code)</span>
        </span>
        <input
          className="input"
          value={country}
          onChange={(e) => setCountry(e.target.value)}
          placeholder="GB"
          maxLength={8}
          data-testid="merchant-country-input"
        />
      </label>
      <button
        type="submit"
        className="btn btn-primary"
        disabled={busy || !name.trim()}
        data-testid="create-merchant-submit"
      >
        {busy ? 'Creating…' : 'Create merchant'}
      </button>
    </form>
  );
}
