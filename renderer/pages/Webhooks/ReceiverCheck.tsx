import { type FormEvent, useState } from 'react';
import { Card } from '../../components/Card';
import { Field } from '../../components/Field';
import { useStore } from '../../store';

/**
 * "Check my receiver": the sandbox sends the developer's receiver a set of signed deliveries and
 * grades each answer (POST /sandbox/receiver-checks). The scorecard says, per case, what was sent,
 * what was expected and what came back.
 */
export function ReceiverCheck() {
  const result = useStore((s) => s.receiverCheck);
  const busy = useStore((s) => s.receiverCheckBusy);
  const run = useStore((s) => s.runReceiverCheck);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (url && secret) void run({ url, secret });
  };

  return (
    <Card
      title="Check my receiver"
      subtitle="Grades your webhook endpoint: signature over the raw bytes, wrong and missing signatures refused, duplicates, order, unknown types, a large payload, speed. It sends to your URL only; nothing is recorded here."
      testId="receiver-check"
    >
      <form className="form form-inline" onSubmit={submit}>
        <Field label="Receiver URL" grow>
          <input
            className="input"
            data-testid="receiver-check-url"
            placeholder="http://localhost:3000/webhooks"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </Field>
        <Field label="Signing secret">
          <input
            className="input input-medium"
            data-testid="receiver-check-secret"
            placeholder="whsec_…"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        </Field>
        <button
          type="submit"
          className="btn btn-primary"
          data-testid="receiver-check-run"
          disabled={busy || !url || !secret}
        >
          {busy ? 'Checking…' : 'Check'}
        </button>
      </form>
      {result && (
        <div className="stack" data-testid="receiver-check-result">
          <p>
            <strong data-testid="receiver-check-summary">
              {result.passed} passed, {result.failed} failed
            </strong>{' '}
            <span className="muted small">
              seed {result.seed} · delivery timeout {result.timeout_ms} ms
            </span>
          </p>
          {result.hints.length > 0 && (
            <ul className="stack small" data-testid="receiver-check-hints">
              {result.hints.map((hint) => (
                <li key={hint}>{hint}</li>
              ))}
            </ul>
          )}
          <table className="table">
            <thead>
              <tr>
                <th>Case</th>
                <th>Result</th>
                <th>Sent</th>
                <th>Expected</th>
                <th>Got</th>
              </tr>
            </thead>
            <tbody>
              {result.cases.map((c) => (
                <tr key={c.name} data-testid="receiver-check-case" data-name={c.name} data-ok={String(c.ok)}>
                  <td className="mono">{c.name}</td>
                  <td>
                    <span className={`badge badge-tone-${c.ok ? 'success' : 'danger'}`}>
                      {c.ok ? 'pass' : 'fail'}
                    </span>{' '}
                    <span className="muted small">{c.ms} ms</span>
                  </td>
                  <td className="small">{c.sent}</td>
                  <td className="small">{c.expected}</td>
                  <td className="small mono">{c.actual}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
