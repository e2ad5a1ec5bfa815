import { useEffect } from 'react';
import { useStore } from '../store';
import './recording-indicator.css';

/**
 * Shown on every page while a recording runs (started here, from another window, or by a script
 * through the control API): its name, the steps so far (live from the stream) and Stop. Mounted
 * once by App; it also opens the stream's recording and scenario messages into the store.
 */
export function RecordingIndicator() {
  const connect = useStore((s) => s.connectScenarioStream);
  const recording = useStore((s) => s.recording);
  const stop = useStore((s) => s.stopRecording);
  useEffect(() => connect(), [connect]);
  if (!recording?.recording) return null;
  return (
    <div className="recording-indicator" role="status" data-testid="recording-indicator">
      <span className="recording-dot" aria-hidden="true" />
      <span className="recording-indicator-text" title={recording.name}>
        Recording <strong>{recording.name}</strong> ·{' '}
        <span data-testid="recording-indicator-steps">{recording.steps}</span> step
        {recording.steps === 1 ? '' : 's'}
      </span>
      <a href="#/scenarios" className="recording-link">
        Open
      </a>
      <button
        type="button"
        className="btn btn-sm btn-danger"
        onClick={() => {
          window.location.hash = '#/scenarios';
          void stop();
        }}
        data-testid="recording-indicator-stop"
      >
        Stop
      </button>
    </div>
  );
}
