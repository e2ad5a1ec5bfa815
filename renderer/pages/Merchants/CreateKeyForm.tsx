import { type FormEvent, useState } from 'react';
import type { Role } from '../../api/types';
import { Field, Select, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useStore } from '../../store';

const ROLES: { value: Role; label: string }[] = [
  { value: 'developer', label: 'Developer' },
  { value: 'admin', label: 'Admin' },
  { value: 'owner', label: 'Owner' },
];

export function CreateKeyForm({ merchantId }: { merchantId: string }) {
  const createKey = useStore((s) => s.createKey);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const ok = await createKey(merchantId, { name: name.trim(), role });
    setBusy(false);
    if (ok) setName('');
  };

  return (
    <form className="form form-inline" onSubmit={submit} data-testid="create-key-form">
      <Field label="Key name" grow>
        <TextInput
          value={name}
          onChange={setName}
          placeholder="CI pipeline"
          maxLength={200}
          required
          testId="key-name-input"
        />
      </Field>
      <Field label="Role">
        <Select value={role} onChange={(v) => setRole(v as Role)} testId="key-role-select">
          {ROLES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </Select>
      </Field>
      <SubmitButton busy={busy} busyLabel="Creating…" disabled={!name.trim()} testId="create-key-submit">
        Create key
      </SubmitButton>
    </form>
  );
}
