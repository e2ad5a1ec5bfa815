import { type FormEvent, useState } from 'react';
import { Field, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
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
      <Field label="Name">
        <TextInput
          value={name}
          onChange={setName}
          placeholder="Acme Ltd"
          maxLength={200}
          required
          testId="merchant-name-input"
        />
      </Field>
      <Field
        label={
          <>
            Country <span className="muted">(optional, ISO code)</span>
          </>
        }
      >
        <TextInput
          value={country}
          onChange={setCountry}
          placeholder="GB"
          maxLength={8}
          testId="merchant-country-input"
        />
      </Field>
      <SubmitButton busy={busy} busyLabel="Creating…" disabled={!name.trim()} testId="create-merchant-submit">
        Create merchant
      </SubmitButton>
    </form>
  );
}
