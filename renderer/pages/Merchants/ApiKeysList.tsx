import { useState } from 'react';
import type { ApiKey } from '../../api/types';
import { CopyButton } from '../../components/CopyButton';
import { formatTimestamp, statusLabel } from '../../lib/format';
import { useStore } from '../../store';

function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  const revokeKey = useStore((s) => s.revokeKey);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!confirming) {
    return (
      <button
        type="button"
        className="btn btn-danger-ghost btn-sm"
        onClick={() => setConfirming(true)}
        data-testid="key-revoke"
      >
        Revoke
      </button>
    );
  }
  // Revocation is immediate and final: ask once more, inline.
  return (
    <span className="confirm">
      <button
        type="button"
        className="btn btn-danger btn-sm"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await revokeKey(apiKey);
          setBusy(false);
          setConfirming(false);
        }}
        data-testid="key-revoke-confirm"
      >
        {busy ? 'Revoking…' : 'Revoke now'}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={() => setConfirming(false)}
        data-testid="key-revoke-cancel"
      >
        Cancel
      </button>
    </span>
  );
}

/** One key per row: name, role and status above, the full key (one line, copyable) below. */
export function ApiKeysList({ keys }: { keys: ApiKey[] }) {
  if (keys.length === 0) return <p className="empty">No API keys.</p>;
  return (
    <ul className="key-list" data-testid="api-keys-list">
      {keys.map((key) => (
        <li
          key={key.id}
          className={`key-item ${key.revoked_at ? 'revoked' : ''}`}
          data-testid="api-key-row"
          data-key-id={key.id}
          data-role={key.role}
          data-status={key.revoked_at ? 'revoked' : 'active'}
        >
          <div className="key-item-main">
            <div className="key-item-title">
              <span className="key-name" data-testid="key-name">
                {key.name}
              </span>
              <span className={`badge badge-role-${key.role}`} data-testid="key-role">
                {statusLabel(key.role)}
              </span>
              <span
                className={`status ${key.revoked_at ? 'status-revoked' : 'status-active'}`}
                data-testid="key-status"
              >
                {key.revoked_at ? 'Revoked' : 'Active'}
              </span>
            </div>
            {/* Shown only outside presentation mode: MerchantDetail leaves the whole list out then. */}
            <div className="key-cell">
              <code className="mono key-value" data-testid="key-value">
                {key.key}
              </code>
              <CopyButton value={key.key} testId="key-copy" />
            </div>
          </div>
          <div className="key-item-side">
            <span className="muted small nowrap">
              {key.revoked_at
                ? `Revoked ${formatTimestamp(key.revoked_at)}`
                : `Created ${formatTimestamp(key.created_at)}`}
            </span>
            {!key.revoked_at && <RevokeButton apiKey={key} />}
          </div>
        </li>
      ))}
    </ul>
  );
}
