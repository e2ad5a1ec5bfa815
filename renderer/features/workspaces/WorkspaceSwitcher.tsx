import { type CSSProperties, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Workspace } from '../../api/types';
import { Private } from '../../components/Private';
import { useSandboxNow } from '../../components/useSandboxNow';
import { formatDate, formatTime } from '../../lib/format';
import { useStore } from '../../store';
import { currentWorkspace } from '../../store/workspaces';
import { CheckpointsSection, type ForkSource, InlineConfirm, NewWorkspaceForm } from './WorkspaceForms';
import './workspace-switcher.css';

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

type FormState = 'new' | ForkSource | null;

const PANEL_WIDTH = 560;
const MARGIN = 12;

/**
 * The header's workspace switcher: the workspace on screen and its clock; opened, every workspace
 * with its clock (pick one to switch: every page is read again from it), create or fork one, delete
 * one, and save, restore or delete the checkpoints of the one on screen.
 */
export function WorkspaceSwitcher() {
  const workspace = useStore(currentWorkspace);
  const now = useSandboxNow();
  const frozen = useStore((s) => s.clock?.frozen ?? false);
  const loadWorkspaces = useStore((s) => s.loadWorkspaces);
  const loadCheckpoints = useStore((s) => s.loadCheckpoints);
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<CSSProperties>({});
  /** The create form, when shown: empty, or forking a workspace (now, or one of its checkpoints). */
  const [form, setForm] = useState<FormState>(null);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => {
    setOpen(false);
    trigger.current?.focus();
  }, []);

  // Under the trigger, inside the window whatever its width (a fixed box: the header wraps on
  // narrow windows and the trigger can be anywhere in it).
  const measure = useCallback(() => {
    const rect = trigger.current?.getBoundingClientRect();
    if (!rect) return;
    const viewport = document.documentElement.clientWidth;
    const width = Math.min(PANEL_WIDTH, viewport - 2 * MARGIN);
    const left = Math.max(MARGIN, Math.min(rect.left, viewport - width - MARGIN));
    const top = rect.bottom + 6;
    setPlace({ left, top, width, maxHeight: window.innerHeight - top - MARGIN });
  }, []);

  useLayoutEffect(() => {
    if (!open) {
      setForm(null);
      return;
    }
    // Little room below (a phone, where the header sits under the navigation): bring the trigger
    // to the top of the window first, so the panel has the height of the window to show itself.
    const rect = trigger.current?.getBoundingClientRect();
    if (rect && window.innerHeight - rect.bottom < window.innerHeight * 0.6 && rect.top > MARGIN) {
      trigger.current?.scrollIntoView({ block: 'start' });
    }
    measure();
    // Keyboard users land on the workspace on screen; Escape brings them back to the trigger.
    root.current
      ?.querySelector<HTMLButtonElement>('.ws-pick[aria-current="true"]')
      ?.focus({ preventScroll: true });
  }, [open, measure]);

  useEffect(() => {
    if (!open) return;
    void loadWorkspaces();
    void loadCheckpoints();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    const onPointer = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer);
    window.addEventListener('resize', measure);
    // The page scrolls under a fixed panel: it follows its trigger.
    window.addEventListener('scroll', measure, true);
    return () => {
      window.removeEventListener('scroll', measure, true);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('resize', measure);
    };
  }, [open, close, measure, loadWorkspaces, loadCheckpoints]);

  return (
    <div className="scope-field ws-switcher" ref={root}>
      <span className="scope-label">Workspace</span>
      <button
        ref={trigger}
        type="button"
        className="input ws-trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="workspace-switcher"
      >
        <span className="ws-trigger-name" data-testid="workspace-current">
          {workspace?.name ?? 'Default'}
        </span>
        <span className="ws-trigger-clock" data-testid="workspace-current-clock">
          {now === null ? '—' : formatTime(now)}
          {frozen && (
            <span className="ws-frozen-mark" title="Frozen clock">
              {' '}
              · frozen
            </span>
          )}
        </span>
        <span className="ws-caret" aria-hidden="true" />
      </button>
      {open && (
        <div
          className="ws-panel"
          role="dialog"
          aria-label="Workspaces"
          style={place}
          data-testid="workspace-panel"
        >
          <WorkspaceList onSwitched={() => setOpen(false)} onFork={setForm} />
          <WorkspaceActions form={form} setForm={setForm} onCreated={() => setOpen(false)} />
        </div>
      )}
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
