import { type FormEvent, useState } from 'react';
import type {
  ChaosEffect,
  ChaosSettings,
  ChaosSettingsInput,
  WebhookEndpoint,
} from '../../../server/contract/webhooks.js';
import { Field, TextInput } from '../../components/Field';
import { StatusBadge, type Tone } from '../../components/StatusBadge';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';

/**
 * Delivery chaos in the dashboard: an endpoint's settings (shown as chips, edited in a form) and,
 * per attempt, what chaos did to it (badges).
 */

const percent = (p: number) => `${Math.round(p * 1000) / 10}%`;

/** The settings in force, in words, one chip each. */
function chaosChips(chaos: ChaosSettings): string[] {
  const chips: string[] = [];
  if (chaos.duplicate > 0) chips.push(`duplicate ${percent(chaos.duplicate)}`);
  if (chaos.reorder_window > 1) chips.push(`reorder window ${chaos.reorder_window}`);
  if (chaos.delay)
    chips.push(
      chaos.delay.min_ms === chaos.delay.max_ms
        ? `delay ${chaos.delay.min_ms} ms`
        : `delay ${chaos.delay.min_ms}–${chaos.delay.max_ms} ms`,
    );
  if (chaos.drop > 0) chips.push(`drop ${percent(chaos.drop)}`);
  if (chaos.bad_signature > 0) chips.push(`bad signature ${percent(chaos.bad_signature)}`);
  return chips;
}

interface Draft {
  seed: string;
  duplicate: string;
  reorder: string;
  delayMin: string;
  delayMax: string;
  drop: string;
  badSignature: string;
}

const draftOf = (chaos: ChaosSettings | null): Draft => ({
  seed: chaos?.seed ?? '',
  duplicate: chaos?.duplicate ? String(chaos.duplicate) : '',
  reorder: chaos && chaos.reorder_window > 1 ? String(chaos.reorder_window) : '',
  delayMin: chaos?.delay ? String(chaos.delay.min_ms) : '',
  delayMax: chaos?.delay ? String(chaos.delay.max_ms) : '',
  drop: chaos?.drop ? String(chaos.drop) : '',
  badSignature: chaos?.bad_signature ? String(chaos.bad_signature) : '',
});

/** The form's text as the settings to send, or the first problem in words. */
function settingsOf(d: Draft, seedChanged: boolean): ChaosSettingsInput | string {
  const settings: ChaosSettingsInput = {};
  const probability = (text: string, name: string): number | string | undefined => {
    if (text.trim() === '') return undefined;
    const n = Number(text);
    return Number.isFinite(n) && n >= 0 && n <= 1 ? n : `${name} must be a probability from 0 to 1`;
  };
  for (const [key, text, name] of [
    ['duplicate', d.duplicate, 'Duplicate'],
    ['drop', d.drop, 'Drop'],
    ['bad_signature', d.badSignature, 'Bad signature'],
  ] as const) {
    const value = probability(text, name);
    if (typeof value === 'string') return value;
    if (value !== undefined) settings[key] = value;
  }
  if (d.reorder.trim() !== '') {
    const n = Number(d.reorder);
    if (!Number.isInteger(n) || n < 0 || n > 50) return 'Reorder window must be a whole number from 0 to 50';
    settings.reorder_window = n;
  }
  if (d.delayMin.trim() !== '' || d.delayMax.trim() !== '') {
    const min = Number(d.delayMin.trim() === '' ? d.delayMax : d.delayMin);
    const max = Number(d.delayMax.trim() === '' ? d.delayMin : d.delayMax);
    if (![min, max].every((n) => Number.isInteger(n) && n >= 0 && n <= 10_000))
      return 'Delay must be whole milliseconds from 0 to 10000';
    if (min > max) return 'Delay: the minimum must not be greater than the maximum';
    settings.delay = { min_ms: min, max_ms: max };
  }
  // A seed sent restarts the sequence: only when it was changed (or set for the first time).
  if (seedChanged && d.seed.trim() !== '') settings.seed = d.seed.trim().slice(0, 64);
  return settings;
}

function ChaosForm({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const updateEndpoint = useStore((s) => s.updateEndpoint);
  const [draft, setDraft] = useState(() => draftOf(endpoint.chaos));
  const [restart, setRestart] = useState(false);
  const [busy, run] = useBusy();
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const seedChanged = restart || draft.seed.trim() !== (endpoint.chaos?.seed ?? '');
  const settings = settingsOf(draft, seedChanged);
  const problem = typeof settings === 'string' ? settings : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (typeof settings === 'string') return;
    if (await run(() => updateEndpoint(endpoint, { chaos: settings }))) onDone();
  };
  const turnOff = async () => {
    if (await run(() => updateEndpoint(endpoint, { chaos: null }))) onDone();
  };

  const number = (key: keyof Draft, label: string, placeholder: string, testId: string) => (
    <Field label={label}>
      <TextInput
        value={draft[key]}
        onChange={set(key)}
        inputMode="decimal"
        placeholder={placeholder}
        aria-invalid={problem !== null && draft[key] !== ''}
        testId={testId}
      />
    </Field>
  );

  return (
    <form className="form chaos-form" onSubmit={submit} data-testid="chaos-form">
      <p className="muted small">
        Misbehave on purpose, per attempt: probabilities from 0 to 1 (a drop is recorded as a timeout and
        retried on the schedule). The same seed and the same events give the same decisions in any sandbox.
      </p>
      <div className="form form-inline">
        {number('duplicate', 'Duplicate', '0.3', 'chaos-duplicate')}
        {number('drop', 'Drop', '0.1', 'chaos-drop')}
        {number('badSignature', 'Bad signature', '0.05', 'chaos-bad-signature')}
      </div>
      <div className="form form-inline">
        {number('reorder', 'Reorder window', '5', 'chaos-reorder')}
        {number('delayMin', 'Delay min (ms)', '100', 'chaos-delay-min')}
        {number('delayMax', 'Delay max (ms)', '500', 'chaos-delay-max')}
      </div>
      <div className="form form-inline">
        <Field label="Seed" grow>
          <TextInput
            value={draft.seed}
            onChange={set('seed')}
            maxLength={64}
            placeholder="chosen for you when empty"
            testId="chaos-seed"
          />
        </Field>
        {endpoint.chaos && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={restart}
              onChange={(e) => setRestart(e.target.checked)}
              data-testid="chaos-restart"
            />
            Restart the sequence
          </label>
        )}
      </div>
      {problem && (
        <p className="field-error" role="alert" data-testid="chaos-problem">
          {problem}
        </p>
      )}
      <div className="button-group">
        <SubmitButton busy={busy} busyLabel="Saving…" disabled={problem !== null} testId="chaos-save">
          Save chaos
        </SubmitButton>
        {endpoint.chaos && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy}
            onClick={() => void turnOff()}
            data-testid="chaos-off"
          >
            Turn off
          </button>
        )}
        <button type="button" className="btn btn-ghost" onClick={onDone} data-testid="chaos-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}

/** An endpoint's chaos: what is on (or nothing), and the form to change it. */
export function EndpointChaos({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [editing, setEditing] = useState(false);
  const chaos = endpoint.chaos;
  return (
    <div className="endpoint-chaos" data-testid="endpoint-chaos" data-chaos={chaos ? 'on' : 'off'}>
      {editing ? (
        <ChaosForm endpoint={endpoint} onDone={() => setEditing(false)} />
      ) : (
        <div className="token-chips">
          {chaos ? (
            <>
              <StatusBadge status="chaos" tone="warning" label="Chaos" testId="endpoint-chaos-badge" />
              {chaosChips(chaos).map((chip) => (
                <span key={chip} className="chip" data-testid="endpoint-chaos-chip">
                  {chip}
                </span>
              ))}
              <span className="chip mono" title="The same seed gives the same decisions">
                seed {chaos.seed}
              </span>
            </>
          ) : null}
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setEditing(true)}
            data-testid="endpoint-chaos-edit"
          >
            {chaos ? 'Edit chaos' : 'Add chaos'}
          </button>
        </div>
      )}
    </div>
  );
}

const EFFECT_TONE: Record<ChaosEffect['kind'], Tone> = {
  dropped: 'danger',
  reordered: 'info',
  delayed: 'neutral',
  bad_signature: 'danger',
  duplicated: 'warning',
};

function effectLabel(effect: ChaosEffect): string {
  switch (effect.kind) {
    case 'dropped':
      return 'dropped (never sent)';
    case 'reordered':
      return `reordered ${effect.position} of ${effect.of}`;
    case 'delayed':
      return `delayed ${effect.ms} ms`;
    case 'bad_signature':
      return 'bad signature';
    case 'duplicated':
      return `duplicated (2nd: ${effect.response_status === null ? (effect.error ?? 'no answer') : `HTTP ${effect.response_status}`})`;
  }
}

/** What chaos did to one attempt, one badge per effect (nothing when it did nothing). */
export function ChaosBadges({ effects }: { effects: readonly ChaosEffect[] }) {
  if (effects.length === 0) return null;
  return (
    <span className="chaos-badges" data-testid="attempt-chaos">
      {effects.map((effect) => (
        <StatusBadge
          key={effect.kind}
          status={effect.kind}
          tone={EFFECT_TONE[effect.kind]}
          label={`chaos: ${effectLabel(effect)}`}
          testId="attempt-chaos-badge"
        />
      ))}
    </span>
  );
}
