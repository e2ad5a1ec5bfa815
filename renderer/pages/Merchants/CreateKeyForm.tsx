import { type FormEvent, useState } from 'react';
import type { Role } from '../../api/types';
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
      <label className="field grow">
        <span className="field-label">Key name</span>
        <input
          className="input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="CI pipeline"
          maxLength={200}
          required
          data-testid="key-name-input"
        />
      </label>
      <label className="field">
        <span className="field-label">Role</span>
        <select
          className="input"
          value={role}
          onChange={(e) => setRole(e.target.value as Role)}
          data-testid="key-role-select"
        >
          {ROLES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        className="btn btn-primary"
        disabled={busy || !name.trim()}
        data-testid="create-key-submit"
      >
        {busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
