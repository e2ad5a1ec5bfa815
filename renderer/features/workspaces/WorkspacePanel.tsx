import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Workspace } from '../../api/types';
import { Private } from '../../components/Private';
import { useSandboxNow } from '../../components/useSandboxNow';
import { formatDate, formatTime } from '../../lib/format';
import { useStore } from '../../store';
import { CheckpointsSection, type ForkSource, InlineConfirm, NewWorkspaceForm } from './WorkspaceForms';
import './workspace-panel.css';

/** The create form, when shown: empty, or forking a workspace (now, or one of its checkpoints). */
export type FormState = 'new' | ForkSource | null;

/** Ticks once a second while `on`: the open panel's clocks run like the sidebar's. */
function useTick(on: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [on]);
}

/** A listed workspace's sandbox time now: as read, plus the real time since while its clock runs. */
function clockOf(workspace: Workspace, readAt: number): number {
  const base = Date.parse(workspace.clock.now);
  return workspace.clock.frozen ? base : base + (Date.now() - readAt);
}

interface PanelProps {
  form: FormState;
  setForm: (form: FormState) => void;
  /** a workspace was picked, or made and opened: the panel closes */
  onDone: () => void;
}

/**
 * What the open switcher shows: every workspace with its clock, the create and fork form, and the
 * checkpoints of the one on screen. Its own chunk: the dashboard's first load carries only the
 * trigger, and the panel is fetched when first pointed at or opened.
 */
export default function WorkspacePanel({ form, setForm, onDone }: PanelProps) {
  const own = useRef<HTMLDivElement>(null);
  // Keyboard users land on the workspace on screen; Escape (the switcher) brings them back to the
  // trigger.
  useLayoutEffect(() => {
    own.current
      ?.querySelector<HTMLButtonElement>('.ws-pick[aria-current="true"]')
      ?.focus({ preventScroll: true });
  }, []);
  return (
    <div ref={own} className="ws-panel-body">
      <WorkspaceList onSwitched={onDone} onFork={setForm} />
      <WorkspaceActions form={form} setForm={setForm} onCreated={onDone} />
    </div>
  );
}

function WorkspaceList({
  onSwitched,
  onFork,
}: {
  onSwitched: () => void;
  onFork: (from: ForkSource) => void;
}) {
  const workspaces = useStore((s) => s.workspaces);
  const readAt = useStore((s) => s.workspacesReadAt);
  const activeId = useStore((s) => s.workspaceId);
  const openWorkspace = useStore((s) => s.openWorkspace);
  const deleteWorkspace = useStore((s) => s.deleteWorkspace);
  // The one on screen shows the live clock (advanced here since the list was read).
  const liveNow = useSandboxNow();
  const liveFrozen = useStore((s) => s.clock?.frozen ?? false);
  useTick(true);

  return (
    <section className="ws-section" aria-label="Workspaces">
      <h2 className="ws-heading">Workspaces</h2>
      <ul className="ws-list" data-testid="workspace-list">
        {workspaces.map((w) => {
          const active = w.id === activeId;
          const ms = active && liveNow !== null ? liveNow : clockOf(w, readAt);
          const frozen = active ? liveFrozen : w.clock.frozen;
          return (
            <li
              key={w.id}
              className={`ws-row ${active ? 'active' : ''}`}
              data-testid="workspace-row"
              data-name={w.name}
            >
              <button
                type="button"
                className="ws-pick"
                aria-current={active ? 'true' : undefined}
                onClick={async () => {
                  if (await openWorkspace(w.id)) onSwitched();
                }}
                data-testid="workspace-open"
              >
                <span className="ws-name">
                  {w.name}
                  {w.default && w.name.toLowerCase() !== 'default' && (
                    <span className="badge ws-badge">Default</span>
                  )}
                  {w.ephemeral && <span className="badge ws-badge">Temporary</span>}
                </span>
                <span className="ws-meta">
                  <span className="ws-clock" data-testid="workspace-clock">
                    {formatDate(ms)} · {formatTime(ms)} UTC
                  </span>
                  <span className={`pill ${frozen ? 'pill-frozen' : 'pill-running'}`}>
                    {frozen ? 'Frozen' : 'Running'}
                  </span>
                  <span className="muted small">
                    {w.checkpoints} checkpoint{w.checkpoints === 1 ? '' : 's'}
                  </span>
                  {w.from && (
                    <span className="muted small" data-testid="workspace-origin">
                      fork of “
                      {workspaces.find((o) => o.id === w.from?.workspace_id)?.name ?? 'a deleted workspace'}”
                      {w.from.checkpoint ? ` at “${w.from.checkpoint}”` : ''}
                    </span>
                  )}
                </span>
                {!w.default && (
                  <Private>
                    <code className="ws-id mono">{w.id}</code>
                  </Private>
                )}
              </button>
              <span className="ws-row-actions">
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => onFork({ workspace_id: w.id })}
                  title={`A new workspace holding a copy of “${w.name}” as it is now`}
                  data-testid="workspace-fork"
                >
                  Fork
                </button>
                {!w.default && (
                  <InlineConfirm
                    label="Delete"
                    question={`Delete “${w.name}” with all its data and ${w.checkpoints} checkpoint${w.checkpoints === 1 ? '' : 's'}?`}
                    confirmLabel="Delete"
                    onConfirm={() => deleteWorkspace(w.id)}
                    testId="workspace-delete"
                  />
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

interface ActionsProps {
  form: FormState;
  setForm: (form: FormState) => void;
  /** a workspace was made and opened: the panel closes, as after picking one */
  onCreated: () => void;
}

function WorkspaceActions({ form, setForm, onCreated }: ActionsProps) {
  return (
    <>
      {form ? (
        <NewWorkspaceForm
          key={form === 'new' ? 'new' : `${form.workspace_id}/${form.checkpoint ?? ''}`}
          from={form === 'new' ? null : form}
          onDone={(made) => {
            setForm(null);
            if (made) onCreated();
          }}
        />
      ) : (
        <div className="ws-section ws-new">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setForm('new')}
            data-testid="workspace-new"
          >
            New workspace
          </button>
        </div>
      )}
      <CheckpointsSection onFork={(source: ForkSource) => setForm(source)} />
    </>
  );
}
