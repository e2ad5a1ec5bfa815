import { type ChangeEvent, type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { EXAMPLE_PATHS } from '../../api/links';
import { Card } from '../../components/Card';
import { Field, Select, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';
import { type Download, scenarioFileName } from '../../store/scenarios';
import '../../components/recording-indicator.css';
import { ImportConfirm } from './ImportConfirm';
import { resourceLabels } from './labels';
import { ScenarioText, ScenarioUpload } from './ScenarioFields';
import { StepError } from './StepError';

// The parity check (a recorded session against this sandbox) is a chunk of its own, fetched when
// the page shows: it adds nothing to the dashboard's first load.
const ParityCard = lazy(async () => ({ default: (await import('./ParityCard')).ParityCard }));

/** Hands a file to the browser's downloads (a Blob URL on a temporary link). */
function saveFile({ name, blob }: Download): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function RecordCard() {
  const recording = useStore((s) => s.recording);
  const recorded = useStore((s) => s.recorded);
  const start = useStore((s) => s.startRecording);
  const stop = useStore((s) => s.stopRecording);
  const setScenarioText = useStore((s) => s.setScenarioText);
  const [name, setName] = useState('');
  const [busy, run] = useBusy();
  const active = recording?.recording === true;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => (active ? stop() : start(name))).then((ok) => {
      if (ok && !active) setName('');
    });
  };

  return (
    <Card
      title="Record"
      subtitle="Everything done while recording — clicks here, control-API calls, /v1 calls from your integration, in either environment — becomes a scenario file."
      testId="recording"
    >
      <form className="form form-inline recording-form" onSubmit={submit}>
        {active ? (
          <p className="recording-state" data-testid="recording-state">
            <span className="pill pill-running">Recording</span>
            <strong className="recording-state-name">{recording.name}</strong>
            <span className="muted">
              <span data-testid="recording-steps">{recording.steps}</span> step
              {recording.steps === 1 ? '' : 's'}
            </span>
          </p>
        ) : (
          <Field label="Scenario name" grow>
            <TextInput
              value={name}
              onChange={setName}
              placeholder="partial payment, then refund"
              maxLength={200}
              testId="recording-name"
            />
          </Field>
        )}
        <SubmitButton
          variant={active ? 'outline' : 'primary'}
          busy={busy}
          testId={active ? 'recording-stop' : 'recording-start'}
        >
          {active ? 'Stop recording' : 'Start recording'}
        </SubmitButton>
      </form>
      {active && <ExpectationForm />}
      {recorded && !active && (
        <div className="stack" data-testid="recorded">
          <p className="muted small">
            {recorded.name}: {recorded.steps} step{recorded.steps === 1 ? '' : 's'}
          </p>
          <pre className="code-block scenario-yaml" data-testid="recorded-yaml">
            {recorded.scenario}
          </pre>
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              onClick={() =>
                saveFile({
                  name: scenarioFileName(recorded.name),
                  blob: new Blob([recorded.scenario], { type: 'application/yaml' }),
                })
              }
              data-testid="recorded-download"
            >
              Download
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setScenarioText(recorded.scenario)}
              data-testid="recorded-to-runner"
            >
              Open in runner
            </button>
          </div>
        </div>
      )}
    </Card>
  );
}

/** "Expect this checkout to be partial": an expectation from a resource's current state. */
function ExpectationForm() {
  const resources = useStore((s) => s.recording?.resources ?? []);
  const lastExpectation = useStore((s) => s.lastExpectation);
  const addExpectation = useStore((s) => s.addExpectation);
  const [picked, setPicked] = useState('');
  const [path, setPath] = useState('');
  const [fields, setFields] = useState('');
  const [busy, run] = useBusy();
  const selected = picked || resources.at(-1)?.path || '';
  const labels = resourceLabels(resources);
  // A typed path wins over the menu.
  const chosen = path.trim() || selected;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = fields
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    void run(() => addExpectation(chosen, list));
  };

  return (
    <form className="form expectation-form" onSubmit={submit} data-testid="expectation-form">
      <div className="form form-inline">
        <Field label="Expect the current state of" grow>
          <Select value={selected} onChange={setPicked} testId="expect-resource">
            {resources.length === 0 && <option value="">(nothing created yet)</option>}
            {resources.map((r) => (
              <option key={r.id} value={r.path} title={`\${${r.name}.id} · ${r.path}`}>
                {labels.get(r.path)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="or any path" grow>
          <TextInput
            value={path}
            onChange={setPath}
            placeholder={EXAMPLE_PATHS.resource}
            testId="expect-path"
          />
        </Field>
        <Field label="Fields (default: status)">
          <TextInput
            value={fields}
            onChange={setFields}
            placeholder="status, paid_amount"
            testId="expect-fields"
          />
        </Field>
        <SubmitButton variant="secondary" busy={busy} disabled={chosen === ''} testId="expect-add">
          Add expectation
        </SubmitButton>
      </div>
      {lastExpectation && (
        <pre className="code-block expect-last" data-testid="expect-last">
          {lastExpectation}
        </pre>
      )}
    </form>
  );
}

/** A step's mark: a tick or a cross (drawn, so no font has to carry the glyph). */
function Tick({ ok }: { ok: boolean }) {
  return (
    <svg
      className="scenario-tick"
      viewBox="0 0 16 16"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
      strokeLinecap="round"
      strokeLinejoin="round"
      role="img"
      aria-label={ok ? 'passed' : 'failed'}
    >
      {ok ? <path d="M3 8.5l3.2 3.2L13 4.8" /> : <path d="M4 4l8 8M12 4l-8 8" />}
    </svg>
  );
}

function RunCard() {
  const env = useStore((s) => s.env);
  const text = useStore((s) => s.scenarioText);
  const setText = useStore((s) => s.setScenarioText);
  const library = useStore((s) => s.scenarioLibrary);
  const loadLibrary = useStore((s) => s.loadScenarioLibrary);
  const pickLibraryScenario = useStore((s) => s.pickLibraryScenario);
  const runScenario = useStore((s) => s.runScenarioText);
  const running = useStore((s) => s.scenarioRunning);
  const steps = useStore((s) => s.runSteps);
  const result = useStore((s) => s.runResult);
  const [runEnv, setRunEnv] = useState(env);
  const [picked, setPicked] = useState('');

  useEffect(() => {
    void loadLibrary();
  }, [loadLibrary]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void runScenario(runEnv);
  };

  return (
    <Card
      title="Run a scenario"
      subtitle="Paste one, upload a file or pick one from the library; it runs against this sandbox, step by step."
      testId="scenario-runner"
    >
      <form className="form" onSubmit={submit}>
        <div className="form form-inline">
          <Field label="From the library">
            <Select
              value={picked}
              onChange={(name) => {
                setPicked(name);
                if (name) void pickLibraryScenario(name);
              }}
              disabled={!library || library.length === 0}
              testId="scenario-library"
            >
              <option value="">{library && library.length > 0 ? 'Choose…' : '(no library)'}</option>
              {(library ?? []).map((item) => (
                <option key={item.name} value={item.name} title={item.description}>
                  {item.name}
                </option>
              ))}
            </Select>
          </Field>
          <ScenarioUpload label="Upload a file" onText={setText} testId="scenario-file" />
          <Field label="Environment">
            <Select value={runEnv} onChange={(v) => setRunEnv(v as typeof env)} testId="scenario-env">
              <option value="test">test</option>
              <option value="production">production</option>
            </Select>
          </Field>
        </div>
        <ScenarioText
          label="Scenario (YAML or JSON)"
          value={text}
          onChange={setText}
          placeholder={'name: my scenario\nsteps:\n  - merchant: acme\n  - clock: { advance: 1h }'}
          testId="scenario-text"
        />
        <div className="form-actions">
          <SubmitButton
            busy={running}
            busyLabel="Running…"
            disabled={text.trim() === ''}
            testId="scenario-run"
          >
            Run
          </SubmitButton>
          {result && (
            <span
              className={`pill ${result.ok ? 'pill-running' : 'pill-failed'}`}
              data-testid="scenario-result"
              data-ok={result.ok}
            >
              {result.ok ? 'Passed' : 'Failed'}: {result.name}
            </span>
          )}
        </div>
      </form>
      {steps.length > 0 && (
        <ol className="scenario-steps" data-testid="scenario-steps">
          {steps.map((step) => (
            <li
              key={step.index}
              className={step.ok ? 'scenario-step-ok' : 'scenario-step-failed'}
              data-testid={`scenario-step-${step.index}`}
              data-ok={step.ok}
            >
              <Tick ok={step.ok} />
              <div className="scenario-step-text">
                <span className="scenario-step-label">
                  {step.label} <span className="muted small">line {step.line}</span>
                </span>
                {step.error && <StepError message={step.error} />}
              </div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function BundleCard() {
  const exportWorkspace = useStore((s) => s.exportWorkspace);
  const importWorkspace = useStore((s) => s.importWorkspace);
  const [busy, run] = useBusy();
  // The file chosen, waiting for the user to confirm the replacement (ImportConfirm).
  const [chosen, setChosen] = useState<File | null>(null);

  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) setChosen(file);
  };

  return (
    <Card
      title="Workspace bundle"
      subtitle="The whole workspace in one file — merchants, objects, the clock and the delivery history — to attach to a ticket and import elsewhere. Importing replaces this workspace."
      testId="bundle"
    >
      <div className="form form-inline">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const download = await exportWorkspace();
              if (download) saveFile(download);
              return download !== null;
            })
          }
          data-testid="bundle-export"
        >
          Export
        </button>
        <Field label="Import a bundle">
          <input
            className="input"
            type="file"
            disabled={busy}
            onChange={upload}
            data-testid="bundle-import"
          />
        </Field>
      </div>
      {chosen && (
        <ImportConfirm
          file={chosen}
          busy={busy}
          onCancel={() => setChosen(null)}
          onConfirm={() =>
            void run(async () => {
              const ok = await importWorkspace(chosen);
              setChosen(null);
              return ok;
            })
          }
        />
      )}
    </Card>
  );
}

export function ScenariosPage() {
  return (
    <div className="stack">
      <RecordCard />
      <RunCard />
      <Suspense fallback={null}>
        <ParityCard />
      </Suspense>
      <BundleCard />
    </div>
  );
}
