import { type FormEvent, useEffect, useState } from 'react';
import type { FaultEffect, FaultMatch, FaultRule, FaultRuleInput } from '../../api/faults';
import { EXAMPLE_PATHS } from '../../api/links';
import { Card } from '../../components/Card';
import { Field, Select, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { describeFaultEffect, describeFaultMatch } from '../../lib/faults';
import { useStore } from '../../store';

type Status = NonNullable<FaultEffect['status']>;
/** What each status stands for; a Record, so a status the contract gains or drops fails the typecheck. */
const STATUS_LABELS: Record<Status, string> = {
  429: '429 Too many requests',
  500: '500 Internal error',
  502: '502 Bad gateway',
  503: '503 Unavailable',
  504: '504 Gateway timeout',
};
const STATUSES = Object.keys(STATUS_LABELS).map(Number) as Status[];
const METHODS: NonNullable<FaultMatch['method']>[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type EffectKind = 'status' | 'latency' | 'timeout' | 'lost_response';

interface Draft {
  id: string;
  method: '' | NonNullable<FaultMatch['method']>;
  path: string;
  env: '' | 'test' | 'production';
  rate: string;
  count: string;
  kind: EffectKind;
  status: Status;
  retryAfter: string;
  latencyMin: string;
  latencyMax: string;
  seed: string;
}

const EMPTY: Draft = {
  id: '',
  method: '',
  path: '',
  env: '',
  rate: '',
  count: '',
  kind: 'status',
  status: 503,
  retryAfter: '',
  latencyMin: '',
  latencyMax: '',
  seed: '',
};

const whole = (text: string, min: number, max: number) => {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? n : null;
};

/** The form's text as a rule, or the first problem in words (the server checks the same again). */
function ruleOf(d: Draft): FaultRuleInput | string {
  const match: FaultMatch = {};
  if (d.method) match.method = d.method;
  if (d.path.trim()) {
    if (!/^\/v1(\/|$)/.test(d.path.trim()))
      return 'Path must start with /v1 (a route like /v1/checkouts/{id}, or an exact path)';
    match.path = d.path.trim();
  }
  if (d.env) match.env = d.env;
  const rule: FaultRuleInput = { match, effect: {} };
  if (d.id.trim()) {
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(d.id.trim()))
      return 'Name: letters, digits and _ . : - only (64 at most)';
    rule.id = d.id.trim();
  }
  if (d.rate.trim()) {
    const rate = Number(d.rate);
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) return 'Rate must be a probability from 0 to 1';
    rule.rate = rate;
  }
  if (d.count.trim()) {
    const count = whole(d.count, 1, 1_000_000);
    if (count === null) return 'Count must be a whole number from 1 (blank: no limit)';
    rule.count = count;
  }
  switch (d.kind) {
    case 'status': {
      rule.effect = { status: d.status };
      if (d.status === 429 && d.retryAfter.trim()) {
        const after = whole(d.retryAfter, 0, 3600);
        if (after === null) return 'Retry-After must be whole seconds from 0 to 3600';
        rule.effect.retry_after_s = after;
      }
      break;
    }
    case 'latency': {
      const min = whole(d.latencyMin || d.latencyMax, 0, 60_000);
      const max = whole(d.latencyMax || d.latencyMin, 0, 60_000);
      if (min === null || max === null) return 'Latency must be whole milliseconds from 0 to 60000';
      if (min > max) return 'Latency: the minimum must not be greater than the maximum';
      rule.effect = { latency_ms: { min, max } };
      break;
    }
    case 'timeout':
      rule.effect = { timeout: true };
      break;
    case 'lost_response':
      rule.effect = { lost_response: true };
      break;
  }
  return rule;
}

function AddRuleForm() {
  const addFaultRule = useStore((s) => s.addFaultRule);
  const serverError = useStore((s) => s.faultsError);
  const [draft, setDraft] = useState(EMPTY);
  const [busy, run] = useBusy();
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const rule = ruleOf(draft);
  const problem = typeof rule === 'string' ? rule : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (typeof rule === 'string') return;
    if (await run(() => addFaultRule(rule, draft.seed))) setDraft(EMPTY);
  };

  return (
    <form className="form" onSubmit={submit} data-testid="fault-form">
      <div className="form form-inline">
        <Field label="Method">
          <Select
            value={draft.method}
            onChange={(v) => set('method')(v as Draft['method'])}
            testId="fault-method"
          >
            <option value="">any</option>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Path" grow>
          <TextInput
            value={draft.path}
            onChange={set('path')}
            placeholder={`${EXAMPLE_PATHS.faultedRoute} (blank: any)`}
            maxLength={512}
            testId="fault-path"
          />
        </Field>
        <Field label="Environment">
          <Select value={draft.env} onChange={(v) => set('env')(v as Draft['env'])} testId="fault-env">
            <option value="">both</option>
            <option value="test">test</option>
            <option value="production">production</option>
          </Select>
        </Field>
      </div>
      <div className="form form-inline">
        <Field label="Rate (0–1)">
          <TextInput
            value={draft.rate}
            onChange={set('rate')}
            inputMode="decimal"
            placeholder="1"
            testId="fault-rate"
          />
        </Field>
        <Field label="Count">
          <TextInput
            value={draft.count}
            onChange={set('count')}
            inputMode="numeric"
            placeholder="no limit"
            testId="fault-count"
          />
        </Field>
        <Field label="Name">
          <TextInput
            value={draft.id}
            onChange={set('id')}
            placeholder="rule-1"
            maxLength={64}
            testId="fault-id"
          />
        </Field>
      </div>
      <div className="form form-inline">
        <Field label="Effect">
          <Select value={draft.kind} onChange={(v) => set('kind')(v as EffectKind)} testId="fault-effect">
            <option value="status">Error status</option>
            <option value="latency">Latency</option>
            <option value="timeout">Timeout (no answer)</option>
            <option value="lost_response">Lost response (commits, no answer)</option>
          </Select>
        </Field>
        {draft.kind === 'status' && (
          <>
            <Field label="Status">
              <Select
                value={draft.status}
                onChange={(v) => set('status')(Number(v) as Status)}
                testId="fault-status"
              >
                {STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {STATUS_LABELS[status]}
                  </option>
                ))}
              </Select>
            </Field>
            {draft.status === 429 && (
              <Field label="Retry-After (s)">
                <TextInput
                  value={draft.retryAfter}
                  onChange={set('retryAfter')}
                  inputMode="numeric"
                  placeholder="1"
                  testId="fault-retry-after"
                />
              </Field>
            )}
          </>
        )}
        {draft.kind === 'latency' && (
          <>
            <Field label="Min (ms)">
              <TextInput
                value={draft.latencyMin}
                onChange={set('latencyMin')}
                inputMode="numeric"
                placeholder="200"
                testId="fault-latency-min"
              />
            </Field>
            <Field label="Max (ms)">
              <TextInput
                value={draft.latencyMax}
                onChange={set('latencyMax')}
                inputMode="numeric"
                placeholder="800"
                testId="fault-latency-max"
              />
            </Field>
          </>
        )}
      </div>
      <div className="form form-inline">
        <Field label="Seed" grow>
          <TextInput
            value={draft.seed}
            onChange={set('seed')}
            maxLength={64}
            placeholder="blank: the seed in force (or a new one)"
            testId="fault-seed"
          />
        </Field>
      </div>
      {problem && (
        <p className="field-error" role="alert" data-testid="fault-problem">
          {problem}
        </p>
      )}
      {!problem && serverError && (
        <p className="field-error" role="alert" data-testid="fault-error">
          {serverError}
        </p>
      )}
      <div className="button-group">
        <SubmitButton busy={busy} busyLabel="Adding…" disabled={problem !== null} testId="fault-add">
          Add rule
        </SubmitButton>
      </div>
    </form>
  );
}

function RuleRow({ rule }: { rule: FaultRule }) {
  const remove = useStore((s) => s.removeFaultRule);
  const [busy, run] = useBusy();
  const spent = rule.remaining === 0;
  return (
    <tr
      data-testid="fault-rule"
      data-rule={rule.id}
      data-spent={String(spent)}
      className={spent ? 'muted' : undefined}
    >
      <td className="mono strong" data-testid="fault-rule-id">
        {rule.id}
      </td>
      <td className="mono" data-testid="fault-rule-match">
        {describeFaultMatch(rule.match)}
      </td>
      <td className="num">{`${Math.round(rule.rate * 1000) / 10}%`}</td>
      <td className="num">{rule.count ?? '—'}</td>
      <td className="num" data-testid="fault-rule-remaining">
        {rule.remaining ?? '∞'}
      </td>
      <td className="num" data-testid="fault-rule-applied">
        {rule.applied}
      </td>
      <td data-testid="fault-rule-effect">{describeFaultEffect(rule.effect)}</td>
      <td className="actions">
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={busy}
          onClick={() => void run(() => remove(rule.id))}
          data-testid="fault-rule-remove"
        >
          Remove
        </button>
      </td>
    </tr>
  );
}

/**
 * The workspace's API faults: the rules its /v1 requests suffer now (the first that matches and
 * whose draw falls under its rate changes a request), the seed that makes the draws repeatable, a
 * form to add a rule, and "Clear all". The Requests page marks each request a rule changed.
 */
export function FaultsPage() {
  const faults = useStore((s) => s.faults);
  const load = useStore((s) => s.loadFaults);
  const clear = useStore((s) => s.clearFaults);
  const [clearing, runClear] = useBusy();
  useEffect(() => {
    void load();
  }, [load]);
  const rules = faults?.rules ?? [];
  return (
    <div className="stack">
      <Card
        title="Rules in force"
        subtitle={
          faults === null ? (
            'Loading…'
          ) : (
            <>
              Faults apply to this workspace’s /v1 requests only, never to the control API. Seed{' '}
              <code className="mono" data-testid="faults-seed">
                {faults.seed ?? 'none yet'}
              </code>
              : the same seed and the same requests give the same faults.
            </>
          )
        }
        actions={
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={clearing || rules.length === 0}
            onClick={() => void runClear(clear)}
            data-testid="faults-clear"
          >
            Clear all
          </button>
        }
        testId="faults"
      >
        {faults !== null && rules.length === 0 ? (
          <p className="empty empty-inline" data-testid="faults-empty">
            No rules: every /v1 request is answered normally.
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Rule</th>
                  <th>Match</th>
                  <th className="num">Rate</th>
                  <th className="num">Count</th>
                  <th className="num">Remaining</th>
                  <th className="num">Applied</th>
                  <th>Effect</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {rules.map((rule) => (
                  <RuleRow key={rule.id} rule={rule} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card
        title="Add a rule"
        subtitle="Blank fields match anything. Adding sets the whole set again: the rules above keep what they have left, and the sequence restarts from the seed."
        testId="faults-add"
      >
        <AddRuleForm />
      </Card>
    </div>
  );
}
