import { type FormEvent, useState, useSyncExternalStore } from 'react';
import {
  hasControlToken,
  isControlTokenRequired,
  saveControlToken,
  subscribeControlToken,
} from '../api/control-token';

/**
 * Shown over the dashboard once a control call is refused for want of the control token: asks for
 * it once, keeps it in a same-site cookie and reloads, so every call and the event stream carry it.
 */
export function ControlTokenGate() {
  const required = useSyncExternalStore(subscribeControlToken, isControlTokenRequired);
  const [token, setToken] = useState('');
  if (!required) return null;
  const rejected = hasControlToken();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token === '') return;
    saveControlToken(token);
    window.location.reload();
  };
  return (
    <div className="control-token-gate" role="dialog" aria-modal="true" aria-labelledby="control-token-title">
      <form className="card control-token-card" onSubmit={submit} data-testid="control-token-gate">
        <div className="card-body">
          <h2 className="card-title" id="control-token-title">
            Control token
          </h2>
          <p>
            This sandbox was started with a control token (<code>--control-token</code> or{' '}
            <code>SVC_SANDBOX_CONTROL_TOKEN</code>). Enter it to use the dashboard; this browser keeps it.
          </p>
          {rejected && (
            <p className="control-token-error" data-testid="control-token-rejected">
              The token this browser sent was not accepted.
            </p>
          )}
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            data-testid="control-token-input"
            aria-label="Control token"
          />
          <button className="btn btn-primary" type="submit" data-testid="control-token-save">
            Use this token
          </button>
        </div>
      </form>
    </div>
  );
}
