import { type FormEvent, useState } from 'react';
import { Field } from '../../components/Field';
import { useSandboxNow } from '../../components/useSandboxNow';
import { formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { currentWorkspace } from '../../store/workspaces';

/** What a new workspace is forked from: a workspace as it is now, or one of its checkpoints. */
export interface ForkSource {
  workspace_id: string;
  checkpoint?: string;
}

// The contract's rules (server/contract/workspaces.ts), checked here first so the message is the field's.
const CHECKPOINT_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is "no control characters"
const WORKSPACE_NAME = /^[^\u0000-\u001f]{1,64}$/;

interface ConfirmProps {
  label: string;
  /** Says what is lost: the question the user answers. */
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  testId: string;
  tone?: 'danger' | 'primary';
}

/** An action that replaces or removes something asks once more, inline, naming what goes. */
export function InlineConfirm({
  label,
  question,
  confirmLabel,
  onConfirm,
  testId,
  tone = 'danger',
}: ConfirmProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className={`btn btn-sm ${tone === 'danger' ? 'btn-danger-ghost' : 'btn-ghost'}`}
        onClick={() => setAsking(true)}
        data-testid={testId}
      >
        {label}
      </button>
    );
  }
  return (
    <div className="ws-confirm" role="alertdialog" aria-label={question} data-testid={`${testId}-question`}>
      <p>{question}</p>
      <span className="confirm">
        <button
          type="button"
          className={`btn btn-sm ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await onConfirm();
            setBusy(false);
            setAsking(false);
          }}
          data-testid={`${testId}-confirm`}
        >
          {busy ? `${confirmLabel}…` : confirmLabel}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => setAsking(false)}
          data-testid={`${testId}-cancel`}
        >
          Keep
        </button>
      </span>
    </div>
  );
}

/** `datetime-local` text (read as UTC) as an ISO timestamp, or null when it is not a time. */
function utcFromInput(value: string): string | null {
  const ms = Date.parse(`${value.length === 16 ? `${value}:00` : value}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const sourceKey = (from: ForkSource | null) =>
  from ? `${from.workspace_id}${from.checkpoint === undefined ? '' : `\n${from.checkpoint}`}` : '';

/** "Start from" a bundle file (an export, `.svcbundle`) rather than a workspace: not an id. */
const BUNDLE = 'bundle';

function sourceOf(key: string): ForkSource | null {
  if (key === '' || key === BUNDLE) return null;
  const [workspaceId = '', checkpoint] = key.split('\n');
  return checkpoint === undefined ? { workspace_id: workspaceId } : { workspace_id: workspaceId, checkpoint };
}

/**
 * Creates a workspace: empty (a name, a seed for its ids and keys, its clock), forked from a
 * workspace now or from a checkpoint of the one on screen, or filled from a bundle file (an
 * export). It is opened once made.
 */
export function NewWorkspaceForm({
  from,
  onDone,
}: {
  from: ForkSource | null;
  onDone: (made: boolean) => void;
}) {
  const workspaces = useStore((s) => s.workspaces);
  const checkpoints = useStore((s) => s.checkpoints);
  const active = useStore(currentWorkspace);
  const createWorkspace = useStore((s) => s.createWorkspace);
  const [source, setSource] = useState(sourceKey(from));
  const [name, setName] = useState('');
  const [seed, setSeed] = useState('');
  const [frozen, setFrozen] = useState(false);
  const [start, setStart] = useState('');
  const [temporary, setTemporary] = useState(false);
  const [bundle, setBundle] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fork = sourceOf(source);
  const fromBundle = source === BUNDLE;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (trimmed !== '' && !WORKSPACE_NAME.test(trimmed)) {
      setError('A name is 1 to 64 characters, without control characters.');
      return;
    }
    if (fromBundle && !bundle) {
      setError('Choose the bundle file to fill the workspace with.');
      return;
    }
    const startAt = start === '' ? null : utcFromInput(start);
    if (!fork && !fromBundle && start !== '' && startAt === null) {
      setError('The start time is not a date and time.');
      return;
    }
    setError(null);
    setBusy(true);
    const made = await createWorkspace(
      {
        ...(trimmed ? { name: trimmed } : {}),
        ...(temporary ? { ephemeral: true } : {}),
        ...(fork ? { from: fork } : {}),
        // A bundle brings its own clock and ids.
        ...(fork || fromBundle
          ? {}
          : {
              ...(seed.trim() ? { seed: seed.trim() } : {}),
              ...(frozen || startAt ? { clock: { ...(startAt ? { start: startAt } : {}), frozen } } : {}),
            }),
      },
      fromBundle && bundle ? bundle : undefined,
    );
    setBusy(false);
    if (made) onDone(true);
  };

  return (
    <form className="ws-section form" onSubmit={submit} data-testid="workspace-form">
      <h2 className="ws-heading">
        {fork ? 'Fork a workspace' : fromBundle ? 'A workspace from a bundle' : 'New workspace'}
      </h2>
      <div className="ws-form-grid">
        <Field label="Name">
          <input
            className="input"
            value={name}
            maxLength={64}
            placeholder="Optional"
            onChange={(e) => setName(e.target.value)}
            data-testid="workspace-name-input"
          />
        </Field>
        <Field label="Start from">
          <select
            className="input"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            data-testid="workspace-source-select"
          >
            <option value="">Nothing: an empty workspace</option>
            {workspaces.map((w) => (
              <option key={w.id} value={sourceKey({ workspace_id: w.id })}>
                A copy of “{w.name}” now
              </option>
            ))}
            {active &&
              checkpoints.map((c) => (
                <option key={c.name} value={sourceKey({ workspace_id: active.id, checkpoint: c.name })}>
                  “{active.name}” at checkpoint “{c.name}”
                </option>
              ))}
            <option value={BUNDLE}>A bundle file (an export)</option>
          </select>
        </Field>
        {fromBundle && (
          <Field label="Bundle file">
            <input
              className="input ws-file"
              type="file"
              accept=".svcbundle,application/octet-stream"
              onChange={(e) => setBundle(e.target.files?.[0] ?? null)}
              data-testid="workspace-bundle-input"
            />
          </Field>
        )}
        {!fork && !fromBundle && (
          <>
            <Field label="Seed">
              <input
                className="input"
                value={seed}
                maxLength={200}
                placeholder="Optional: repeatable ids and keys"
                onChange={(e) => setSeed(e.target.value)}
                data-testid="workspace-seed-input"
              />
            </Field>
            <Field label="Clock starts at (UTC)">
              <input
                className="input"
                type="datetime-local"
                step={1}
                value={start}
                onChange={(e) => setStart(e.target.value)}
                data-testid="workspace-start-input"
              />
            </Field>
          </>
        )}
      </div>
      <div className="ws-checks">
        {!fork && !fromBundle && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={frozen}
              onChange={(e) => setFrozen(e.target.checked)}
              data-testid="workspace-frozen-input"
            />
            Frozen clock: time moves only when advanced
          </label>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={temporary}
            onChange={(e) => setTemporary(e.target.checked)}
            data-testid="workspace-temporary-input"
          />
          Temporary: gone when the sandbox stops
        </label>
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid="workspace-form-error">
          {error}
        </p>
      )}
      <div className="ws-form-actions">
        <button
          type="submit"
          className="btn btn-primary btn-sm"
          disabled={busy}
          data-testid="workspace-create"
        >
          {busy ? 'Creating…' : fork ? 'Fork and open' : fromBundle ? 'Import and open' : 'Create and open'}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

const kilobytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1048576).toFixed(1)} MB`;

/** The checkpoints of the workspace on screen: save one, restore one (asks first), fork or delete one. */
export function CheckpointsSection({ onFork }: { onFork: (from: ForkSource) => void }) {
  const workspace = useStore(currentWorkspace);
  const checkpoints = useStore((s) => s.checkpoints);
  const save = useStore((s) => s.saveCheckpoint);
  const restore = useStore((s) => s.restoreCheckpoint);
  const remove = useStore((s) => s.deleteCheckpoint);
  const now = useSandboxNow();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = workspace ? `“${workspace.name}”` : 'this workspace';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!CHECKPOINT_NAME.test(trimmed)) {
      setError(
        'A checkpoint name is 1 to 64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.',
      );
      return;
    }
    setError(null);
    setBusy(true);
    if (await save(trimmed)) setName('');
    setBusy(false);
  };

  return (
    <section className="ws-section" aria-label="Checkpoints" data-testid="checkpoints">
      <h2 className="ws-heading">Checkpoints of {label}</h2>
      <form className="ws-save" onSubmit={submit}>
        <input
          className="input"
          value={name}
          maxLength={64}
          placeholder="Name this moment, e.g. paid before refund"
          aria-label="Checkpoint name"
          onChange={(e) => setName(e.target.value)}
          data-testid="checkpoint-name-input"
        />
        <button
          type="submit"
          className="btn btn-secondary btn-sm"
          disabled={busy}
          data-testid="checkpoint-save"
        >
          Save checkpoint
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert" data-testid="checkpoint-error">
          {error}
        </p>
      )}
      {checkpoints.length === 0 ? (
        <p className="muted small">
          None yet. A checkpoint keeps the data, clock and settings of this moment, to come back to or fork
          from.
        </p>
      ) : (
        <ul className="ws-list" data-testid="checkpoint-list">
          {checkpoints.map((c) => (
            <li key={c.name} className="ws-row" data-testid="checkpoint-row" data-name={c.name}>
              <span className="ws-pick ws-static">
                <span className="ws-name">{c.name}</span>
                <span className="ws-meta muted small">
                  <span>Sandbox time {formatTimestamp(c.at)}</span>
                  <span>{kilobytes(c.size_bytes)}</span>
                </span>
              </span>
              <span className="ws-row-actions">
                <InlineConfirm
                  label="Restore"
                  tone="primary"
                  question={`Replace everything in ${label} now (its data, settings and clock${now === null ? '' : `, at ${formatTimestamp(new Date(now).toISOString())}`}) with checkpoint “${c.name}” from ${formatTimestamp(c.at)}? Anything not saved in a checkpoint is lost.`}
                  confirmLabel="Restore"
                  onConfirm={() => restore(c.name)}
                  testId="checkpoint-restore"
                />
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => workspace && onFork({ workspace_id: workspace.id, checkpoint: c.name })}
                  data-testid="checkpoint-fork"
                >
                  Fork
                </button>
                <InlineConfirm
                  label="Delete"
                  question={`Delete checkpoint “${c.name}”? The workspace itself stays as it is.`}
                  confirmLabel="Delete"
                  onConfirm={() => remove(c.name)}
                  testId="checkpoint-delete"
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
