import {
  type CSSProperties,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useSandboxNow } from '../../components/useSandboxNow';
import { formatTime } from '../../lib/format';
import { useStore } from '../../store';
import { currentWorkspace } from '../../store/workspaces';
import type { FormState } from './WorkspacePanel';
import './workspace-switcher.css';

const loadPanel = () => import('./WorkspacePanel');
const WorkspacePanel = lazy(loadPanel);

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
        // Fetch the panel's chunk as the pointer or the focus arrives, before the click.
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
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
          <Suspense
            fallback={
              <p className="ws-section muted small" data-testid="workspace-panel-loading">
                Loading…
              </p>
            }
          >
            <WorkspacePanel form={form} setForm={setForm} onDone={() => setOpen(false)} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
