import { statusLabel } from '../lib/format';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'accent';

interface Props {
  status: string;
  /** Shown instead of the status in words. */
  label?: string;
  tone: Tone;
  testId?: string;
  large?: boolean;
}

/** A state (checkout, delivery, card, transaction) as a coloured badge; `data-status` keeps the raw value. */
export function StatusBadge({ status, label, tone, testId, large }: Props) {
  return (
    <span
      className={`badge badge-tone-${tone} ${large ? 'badge-lg' : ''}`}
      data-testid={testId}
      data-status={status}
    >
      {label ?? statusLabel(status)}
    </span>
  );
}
