import { type FormEvent, useState } from 'react';
import { checkParity, type ParityDifferenceKind, type ParityReport } from '../../api/parity';
import { Card } from '../../components/Card';
import { Field, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';
import './parity.css';
import { ScenarioText, ScenarioUpload } from './ScenarioFields';

// The parity check is a chunk of its own (ScenariosPage loads it lazily), so its state lives here
// rather than in a store slice: nothing of it reaches the dashboard's first load.

/** Each kind's heading, in the order the report lists them. */
const KINDS: [ParityDifferenceKind, string][] = [
  ['status', 'Status codes'],
  ['missing', 'Fields the sandbox does not give'],
  ['extra', 'Fields only the sandbox gives'],
  ['type', 'Fields of another type or format'],
  ['enum', 'Enum values the sandbox never produces'],
  ['state', 'States reached differently'],
  ['value', 'Other values'],
  ['webhook_missing', 'Webhooks the sandbox does not send'],
  ['webhook_extra', 'Webhooks only the sandbox sends'],
  ['webhook_order', 'Webhooks out of order'],
  ['webhook_shape', 'Webhook payloads of another shape'],
  ['replay', 'Steps the sandbox could not replay'],
];

function Report({ report }: { report: ParityReport }) {
  const n = report.differences.length;
  return (
    <div className="stack" data-testid="parity-report" data-ok={report.ok}>
      <p>
        <span className={`pill ${report.ok ? 'pill-running' : 'pill-failed'}`} data-testid="parity-result">
          {report.ok ? 'Like the real service' : `${n} difference${n === 1 ? '' : 's'}`}
        </span>{' '}
        <span className="muted">
          {report.name}: {report.compared} of {report.steps} steps compared
          {report.ignored > 0 ? `, ${report.ignored} ignored` : ''}
        </span>
      </p>
      {KINDS.map(([kind, title]) => {
        const found = report.differences.filter((d) => d.kind === kind);
        if (found.length === 0) return null;
        return (
          <section key={kind} data-testid={`parity-kind-${kind}`}>
            <h3 className="parity-kind">
              {title} <span className="muted">({found.length})</span>
            </h3>
            <ul className="parity-differences">
              {found.map((d) => (
                <li key={`${d.step.index} ${d.path} ${d.message}`} data-testid="parity-difference">
                  <span className="muted">
                    Step {d.step.index} · line {d.step.line} · {d.step.label}
                  </span>
                  <br />
                  <code>{d.path}</code> {d.message}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

export function ParityCard() {
  const env = useStore((s) => s.env);
  const [text, setText] = useState('');
  const [ignore, setIgnore] = useState('');
  const [report, setReport] = useState<ParityReport | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, run] = useBusy();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const patterns = ignore
      .split(/[\s,]+/)
      .map((p) => p.trim())
      .filter((p) => p !== '');
    setError(undefined);
    void run(async () => {
      try {
        setReport(await checkParity(text, patterns, env));
        return true;
      } catch (caught) {
        setReport(undefined);
        setError((caught as Error).message);
        return false;
      }
    });
  };

  return (
    <Card
      title="Is the sandbox still like the real service?"
      subtitle="Paste or upload a session recorded against the real service (svc-sandbox record): it is replayed in a fresh workspace and every answer and webhook that differs is listed, by kind."
      testId="parity"
    >
      <form className="form" onSubmit={submit}>
        <div className="form form-inline">
          <ScenarioUpload label="Upload a session" onText={setText} testId="parity-file" />
          <Field label="Ignore (field paths)" grow>
            <TextInput
              value={ignore}
              onChange={setIgnore}
              placeholder="*.created_at, webhook:card.transaction"
              testId="parity-ignore"
            />
          </Field>
        </div>
        <ScenarioText
          label="Session (YAML or JSON)"
          value={text}
          onChange={setText}
          placeholder={
            'name: session\nsteps:\n  - merchant: acme\n  - call: GET /v1/checkouts\n    recorded: { status: 200, body: [] }'
          }
          testId="parity-text"
        />
        <div className="form-actions">
          <SubmitButton busy={busy} busyLabel="Replaying…" disabled={text.trim() === ''} testId="parity-run">
            Check parity
          </SubmitButton>
        </div>
      </form>
      {error && (
        <p className="field-error" role="alert" data-testid="parity-error">
          {error}
        </p>
      )}
      {report && <Report report={report} />}
    </Card>
  );
}
