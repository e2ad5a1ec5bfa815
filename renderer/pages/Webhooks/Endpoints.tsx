import { type FormEvent, useState } from 'react';
import type { WebhookEndpoint } from '../../api/types';
import { Card } from '../../components/Card';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { Field, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';
import { scopeKey } from '../../store/scope';
import { DEFAULT_INBOX } from '../../store/webhooks';
import { EVENT_TYPES } from './events';

function NewEndpointForm() {
  const createEndpoint = useStore((s) => s.createEndpoint);
  const testUrl = useStore((s) => s.urls?.test);
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<string[]>([]);
  const [busy, run] = useBusy();
  const valid = url.trim() !== '' && (all || events.length > 0);

  const toggle = (event: string) =>
    setEvents((current) =>
      current.includes(event) ? current.filter((e) => e !== event) : [...current, event],
    );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    const ok = await run(() => createEndpoint({ url: url.trim(), ...(all ? {} : { events }) }));
    if (ok) {
      setUrl('');
      setEvents([]);
      setAll(true);
    }
  };

  return (
    <form className="form" onSubmit={submit} data-testid="endpoint-form">
      <div className="form form-inline">
        <Field label="Endpoint URL" grow>
          <TextInput
            value={url}
            onChange={setUrl}
            placeholder="https://example.test/webhooks"
            maxLength={2048}
            required
            testId="endpoint-url-input"
          />
        </Field>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={!testUrl}
          onClick={() => setUrl(`${testUrl}/sandbox/inbox/${DEFAULT_INBOX}`)}
          title="Deliver to the sandbox's own receiver and watch messages arrive on the right"
          data-testid="endpoint-use-inbox"
        >
          Use built-in inbox
        </button>
      </div>
      <fieldset className="event-picker">
        <legend className="field-label">Events</legend>
        <label className="checkbox checkbox-strong">
          <input
            type="checkbox"
            checked={all}
            onChange={(e) => setAll(e.target.checked)}
            data-testid="endpoint-all-events"
          />
          All events, including ones added later
        </label>
        {!all && (
          <div className="event-grid">
            {EVENT_TYPES.map((event) => (
              <label key={event} className="checkbox">
                <input
                  type="checkbox"
                  checked={events.includes(event)}
                  onChange={() => toggle(event)}
                  data-testid={`endpoint-event-${event}`}
                />
                <code className="mono">{event}</code>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <div>
        <SubmitButton busy={busy} busyLabel="Adding…" disabled={!valid} testId="endpoint-submit">
          Add endpoint
        </SubmitButton>
      </div>
    </form>
  );
}

function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const deleteEndpoint = useStore((s) => s.deleteEndpoint);
  const everything = endpoint.events.includes('*');
  return (
    <li className="key-item" data-testid="endpoint-row" data-endpoint-id={endpoint.id}>
      <div className="key-item-main">
        <div className="key-item-title">
          <code className="mono endpoint-url" data-testid="endpoint-url" title={endpoint.url}>
            {endpoint.url}
          </code>
        </div>
        <div className="token-chips">
          {everything ? (
            <span className="chip chip-accent">All events</span>
          ) : (
            endpoint.events.map((event) => (
              <span key={event} className="chip mono">
                {event}
              </span>
            ))
          )}
        </div>
        <div className="key-cell">
          <span className="muted small nowrap">Signing secret</span>
          <code className="mono key-value" data-testid="endpoint-secret">
            {endpoint.secret}
          </code>
          <CopyButton value={endpoint.secret} testId="endpoint-secret-copy" />
        </div>
      </div>
      <div className="key-item-side">
        <ConfirmButton
          label="Delete"
          confirmLabel="Delete now"
          busyLabel="Deleting…"
          onConfirm={() => deleteEndpoint(endpoint)}
          testId="endpoint-delete"
        />
      </div>
    </li>
  );
}

export function Endpoints() {
  const endpoints = useStore((s) => s.endpoints);
  const loaded = useStore((s) => s.webhooksScope !== null && s.webhooksScope === scopeKey(s));
  const env = useStore((s) => s.env);
  return (
    <Card
      title="Endpoints"
      subtitle={`Where ${env} events are POSTed, signed with the endpoint’s whsec_ secret.`}
      testId="endpoints"
    >
      <NewEndpointForm />
      {loaded && endpoints.length === 0 ? (
        <p className="empty list-below-form">No endpoints in {env}: events are recorded but not sent.</p>
      ) : (
        <ul className="key-list" data-testid="endpoint-list">
          {(loaded ? endpoints : []).map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      )}
    </Card>
  );
}
