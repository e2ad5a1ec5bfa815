import { useState } from 'react';

interface Props {
  label: string;
  /** The button that does it, once confirmed. */
  confirmLabel: string;
  busyLabel?: string;
  onConfirm: () => Promise<unknown>;
  disabled?: boolean;
  testId: string;
}

/** An action that cannot be undone asks once more, inline (as revoking an API key does). */
export function ConfirmButton({ label, confirmLabel, busyLabel, onConfirm, disabled, testId }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!confirming) {
    return (
      <button
        type="button"
        className="btn btn-danger-ghost btn-sm"
        disabled={disabled}
        onClick={() => setConfirming(true)}
        data-testid={testId}
      >
        {label}
      </button>
    );
  }
  return (
    <span className="confirm">
      <button
        type="button"
        className="btn btn-danger btn-sm"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await onConfirm();
          setBusy(false);
          setConfirming(false);
        }}
        data-testid={`${testId}-confirm`}
      >
        {busy ? (busyLabel ?? `${confirmLabel}…`) : confirmLabel}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={() => setConfirming(false)}
        data-testid={`${testId}-cancel`}
      >
        Keep
      </button>
    </span>
  );
}
