import { useStore } from '../store';

/** The header's presentation-mode switch (remembered in this browser). */
export function PresentSwitch() {
  const presenting = useStore((s) => s.presenting);
  const setPresenting = useStore((s) => s.setPresenting);
  return (
    <label className="present-switch" title="Hide keys, secrets and ids while you show the dashboard">
      <input
        type="checkbox"
        role="switch"
        aria-checked={presenting}
        checked={presenting}
        onChange={(e) => setPresenting(e.target.checked)}
        data-testid="present-switch"
      />
      <span className="present-switch-track" aria-hidden="true" />
      <span>Presentation mode</span>
    </label>
  );
}
