import type { Env } from '../api/types';
import { useStore } from '../store';

const ENVS: { value: Env; label: string }[] = [
  { value: 'test', label: 'Test' },
  { value: 'production', label: 'Production' },
];

/** The merchant and environment the merchant pages show; one choice shared by all of them. */
export function ScopeBar() {
  const merchants = useStore((s) => s.merchants);
  const selected = useStore((s) => s.selectedMerchantId);
  const selectMerchant = useStore((s) => s.selectMerchant);
  const env = useStore((s) => s.env);
  const setEnv = useStore((s) => s.setEnv);

  return (
    <div className="scope-bar" data-testid="scope-bar">
      <label className="scope-field">
        <span className="scope-label">Merchant</span>
        <select
          className="input scope-select"
          value={selected ?? ''}
          disabled={merchants.length === 0}
          onChange={(e) => void selectMerchant(e.target.value)}
          data-testid="scope-merchant"
        >
          {merchants.length === 0 && <option value="">No merchants</option>}
          {merchants.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </label>
      <div className="scope-field">
        <span className="scope-label">Environment</span>
        <fieldset className="segmented" aria-label="Environment">
          {ENVS.map(({ value, label }) => (
            <button
              key={value}
              type="button"
              className={`segmented-item segmented-${value} ${env === value ? 'active' : ''}`}
              aria-pressed={env === value}
              onClick={() => setEnv(value)}
              data-testid={`scope-env-${value}`}
            >
              {label}
            </button>
          ))}
        </fieldset>
      </div>
    </div>
  );
}
