import { type FormEvent, useState } from 'react';
import { Card } from '../../components/Card';
import { Field, Select } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useSandboxNow } from '../../components/useSandboxNow';
import { formatDate, formatOffset, formatTime } from '../../lib/format';
import { useStore } from '../../store';

const STEPS = [
  { seconds: 60, label: '+1 min', testId: 'clock-advance-minute' },
  { seconds: 3600, label: '+1 h', testId: 'clock-advance-hour' },
  { seconds: 86400, label: '+1 day', testId: 'clock-advance-day' },
] as const;

const UNITS = { minutes: 60, hours: 3600, days: 86400 } as const;
const MAX_ADVANCE_SECONDS = 10 * 365 * 86400;
type Unit = keyof typeof UNITS;

function CustomAdvance() {
  const advanceClock = useStore((s) => s.advanceClock);
  const busy = useStore((s) => s.clockBusy);
  const [amount, setAmount] = useState('30');
  const [unit, setUnit] = useState<Unit>('days');
  const value = Number(amount);
  // The API takes at most 10 years; say so in the unit being typed, not in seconds.
  const most = Math.floor(MAX_ADVANCE_SECONDS / UNITS[unit]);
  const problem =
    !/^\s*\d+\s*$/.test(amount) || value <= 0
      ? `Enter a whole number of ${unit}, 1 or more.`
      : value > most
        ? `At most ${most.toLocaleString('en-US')} ${unit} (10 years) at a time.`
        : null;
  const valid = problem === null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) void advanceClock(value * UNITS[unit]);
  };

  return (
    <form className="form form-inline" onSubmit={submit}>
      <Field label="Advance by">
        <input
          className="input input-narrow"
          type="number"
          min={1}
          step={1}
          aria-invalid={amount !== '' && !valid}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          data-testid="clock-custom-amount"
        />
      </Field>
      <Field label="Unit">
        <Select value={unit} onChange={(v) => setUnit(v as Unit)} testId="clock-custom-unit">
          {Object.keys(UNITS).map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </Select>
      </Field>
      <SubmitButton variant="secondary" busy={busy} disabled={!valid} testId="clock-custom-submit">
        Advance
      </SubmitButton>
      {amount !== '' && problem && (
        <span className="field-error" role="alert" data-testid="clock-custom-error">
          {problem}
        </span>
      )}
    </form>
  );
}

export function ClockPage() {
  const now = useSandboxNow();
  const clock = useStore((s) => s.clock);
  const busy = useStore((s) => s.clockBusy);
  const advanceClock = useStore((s) => s.advanceClock);
  const freezeClock = useStore((s) => s.freezeClock);
  const resumeClock = useStore((s) => s.resumeClock);
  const frozen = clock?.frozen ?? false;

  return (
    <div className="grid-clock">
      <div className="stack">
        <Card testId="clock">
          <div className="clock-face">
            <div className="clock-face-top">
              <span className={`pill ${frozen ? 'pill-frozen' : 'pill-running'}`} data-testid="clock-state">
                {frozen ? 'Frozen' : 'Running'}
              </span>
              <span className="muted small" data-testid="clock-offset">
                {clock ? formatOffset(clock.offset_ms) : ''}
              </span>
            </div>
            <div
              className="clock-time mono"
              data-testid="clock-now"
              data-iso={now === null ? '' : new Date(now).toISOString()}
            >
              {now === null ? '—' : formatTime(now)}
            </div>
            <div className="clock-date">{now === null ? '' : `${formatDate(now)} · UTC`}</div>
          </div>
          <div className="clock-controls">
            <div className="button-group">
              {STEPS.map((step) => (
                <button
                  key={step.seconds}
                  type="button"
                  className="btn btn-secondary"
                  disabled={busy || !clock}
                  onClick={() => void advanceClock(step.seconds)}
                  data-testid={step.testId}
                >
                  {step.label}
                </button>
              ))}
            </div>
            {frozen ? (
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy}
                onClick={() => void resumeClock()}
                data-testid="clock-resume"
              >
                Resume
              </button>
            ) : (
              <button
                type="button"
                className="btn btn-outline"
                disabled={busy || !clock}
                onClick={() => void freezeClock()}
                data-testid="clock-freeze"
              >
                Freeze
              </button>
            )}
          </div>
        </Card>
        <Card title="Custom jump" subtitle="Jump further in one go: everything due on the way runs in order.">
          <CustomAdvance />
        </Card>
      </div>
      <Card title="How sandbox time works">
        <ul className="notes">
          <li>
            The clock follows real time plus an offset. Advancing adds to the offset; it never goes back.
          </li>
          <li>
            Everything that falls due runs at once, in order: checkout expiry, settlement, fee holds, webhook
            retries.
          </li>
          <li>
            Frozen, time stands still until you advance or resume it: good for exact, repeatable scenarios.
          </li>
        </ul>
      </Card>
    </div>
  );
}
