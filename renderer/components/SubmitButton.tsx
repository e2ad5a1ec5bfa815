import type { ReactNode } from 'react';

/**
 * A form's submit button: disabled while `busy` (or when `disabled`), and showing `busyLabel`
 * ("Creating…") instead of its label while busy, when one is given.
 */
export function SubmitButton({
  variant = 'primary',
  busy = false,
  busyLabel,
  disabled = false,
  testId,
  children,
}: {
  variant?: 'primary' | 'secondary' | 'outline';
  busy?: boolean;
  busyLabel?: string;
  disabled?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className={`btn btn-${variant}`} disabled={busy || disabled} data-testid={testId}>
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
