import { type FormEvent, useState } from 'react';
import type { EndpointHealth, WebhookEndpoint } from '../../api/types';
import { Card } from '../../components/Card';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { Field, TextInput } from '../../components/Field';
import { Private, useEventName, useShown, useWords } from '../../components/Private';
import { StatusBadge } from '../../components/StatusBadge';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { useInboxUrl } from '../../components/useInboxUrl';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { DEFAULT_INBOX } from '../../store/webhooks';
import { EndpointChaos } from './Chaos';
import { EventName } from './EventName';
import { defaultTestType, EVENT_TYPES, TEST_EVENT_TYPES, type TestEventType } from './events';
import { HealthBadge, ListenLabel, useEndpointHealth } from './Workbench';

/** The events an endpoint subscribes to: all (`*`, including types added later) or a chosen set. */
function EventPicker({
  all,
  setAll,
  events,
  toggle,
  testIdPrefix,
}: {
  all: boolean;
  setAll: (all: boolean) => void;
  events: string[];
  toggle: (event: string) => void;
  testIdPrefix: string;
}) {
  return (
    <fieldset className="event-picker">
      <legend className="field-label">Events</legend>
      <label className="checkbox checkbox-strong">
        <input
          type="checkbox"
          checked={all}
          onChange={(e) => setAll(e.target.checked)}
          data-testid={`${testIdPrefix}-all-events`}
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
                data-testid={`${testIdPrefix}-event-${event}`}
              />
              <EventName type={event} />
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

const toggled = (current: string[], event: string) =>
  current.includes(event) ? current.filter((e) => e !== event) : [...current, event];

function NewEndpointForm() {
  const createEndpoint = useStore((s) => s.createEndpoint);
  const builtIn = useInboxUrl(DEFAULT_INBOX);
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<string[]>([]);
  const [busy, run] = useBusy();
  const valid = url.trim() !== '' && (all || events.length > 0);

  const toggle = (event: string) => setEvents((current) => toggled(current, event));

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
          disabled={!builtIn}
          onClick={() => setUrl(builtIn ?? '')}
          title="Deliver to the sandbox's own receiver and watch messages arrive on the right"
          data-testid="endpoint-use-inbox"
        >
          Use built-in inbox
        </button>
      </div>
      <EventPicker all={all} setAll={setAll} events={events} toggle={toggle} testIdPrefix="endpoint" />
      <div>
        <SubmitButton busy={busy} busyLabel="Adding…" disabled={!valid} testId="endpoint-submit">
          Add endpoint
        </SubmitButton>
      </div>
    </form>
  );
}

/** Edits an endpoint in place: its URL and events (the secret stays; rotating is delete + add). */
function EditEndpointForm({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const updateEndpoint = useStore((s) => s.updateEndpoint);
  const [url, setUrl] = useState(endpoint.url);
  const [all, setAll] = useState(endpoint.events.includes('*'));
  const [events, setEvents] = useState<string[]>(endpoint.events.filter((e) => e !== '*'));
  const [busy, run] = useBusy();
  const valid = url.trim() !== '' && (all || events.length > 0);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    const ok = await run(() => updateEndpoint(endpoint, { url: url.trim(), events: all ? ['*'] : events }));
    if (ok) onDone();
  };

  return (
    <form className="form" onSubmit={submit} data-testid="endpoint-edit-form">
      <Field label="Endpoint URL" grow>
        <TextInput value={url} onChange={setUrl} maxLength={2048} required testId="endpoint-edit-url" />
      </Field>
      <EventPicker
        all={all}
        setAll={setAll}
        events={events}
        toggle={(event) => setEvents((current) => toggled(current, event))}
        testIdPrefix="endpoint-edit"
      />
      <div className="button-group">
        <SubmitButton busy={busy} busyLabel="Saving…" disabled={!valid} testId="endpoint-edit-save">
          Save
        </SubmitButton>
        <button type="button" className="btn btn-ghost" onClick={onDone} data-testid="endpoint-edit-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}

function EndpointRow({
  endpoint,
  health,
}: {
  endpoint: WebhookEndpoint;
  health: EndpointHealth | undefined;
}) {
  const deleteEndpoint = useStore((s) => s.deleteEndpoint);
  const updateEndpoint = useStore((s) => s.updateEndpoint);
  const sendTestEvent = useStore((s) => s.sendTestEvent);
  const [editing, setEditing] = useState(false);
  const [testing, runTest] = useBusy();
  const [testType, setTestType] = useState<TestEventType>(() => defaultTestType(endpoint.events));
  const [toggling, runToggle] = useBusy();
  const everything = endpoint.events.includes('*');
  const shown = useShown();
  const eventName = useEventName();
  if (editing) {
    return (
      <li className="key-item" data-testid="endpoint-row" data-endpoint-id={endpoint.id}>
        <div className="key-item-main">
          <EditEndpointForm endpoint={endpoint} onDone={() => setEditing(false)} />
        </div>
      </li>
    );
  }
  return (
    <li
      className={`key-item ${endpoint.disabled ? 'endpoint-disabled' : ''}`}
      data-testid="endpoint-row"
      data-endpoint-id={endpoint.id}
      data-disabled={endpoint.disabled}
    >
      <div className="key-item-main">
        <div className="key-item-title">
          <code className="mono endpoint-url" data-testid="endpoint-url" title={shown(endpoint.url)}>
            {shown(endpoint.url)}
          </code>
          {endpoint.disabled && (
            <StatusBadge status="disabled" tone="neutral" label="Disabled" testId="endpoint-disabled" />
          )}
          <ListenLabel endpoint={endpoint} />
        </div>
        <HealthBadge health={health} />
        <div className="token-chips">
          {everything ? (
            <span className="chip chip-accent">All events</span>
          ) : (
            endpoint.events.map((event) => (
              <span key={event} className="chip">
                <EventName type={event} />
              </span>
            ))
          )}
        </div>
        <Private>
          <div className="key-cell">
            <span className="muted small nowrap">Signing secret</span>
            <code className="mono key-value" data-testid="endpoint-secret">
              {endpoint.secret}
            </code>
            <CopyButton value={endpoint.secret} testId="endpoint-secret-copy" />
          </div>
        </Private>
        <Private>
          <EndpointChaos endpoint={endpoint} />
        </Private>
        <div className="endpoint-actions">
          <span className="test-event">
            <select
              className="input input-sm"
              aria-label="Test event type"
              value={testType}
              disabled={endpoint.disabled}
              onChange={(e) => setTestType(e.target.value as TestEventType)}
              data-testid="endpoint-test-type"
            >
              {TEST_EVENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {eventName(type)}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              disabled={testing || endpoint.disabled}
              title={endpoint.disabled ? 'Enable the endpoint to send it a test event' : undefined}
              onClick={() => void runTest(() => sendTestEvent(endpoint, testType))}
              data-testid="endpoint-send-test"
            >
              {testing ? 'Sending…' : 'Send test event'}
            </button>
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setEditing(true)}
            data-testid="endpoint-edit"
          >
            Edit
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={toggling}
            onClick={() => void runToggle(() => updateEndpoint(endpoint, { disabled: !endpoint.disabled }))}
            data-testid="endpoint-toggle"
          >
            {endpoint.disabled ? 'Enable' : 'Disable'}
          </button>
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
  const health = useEndpointHealth();
  const words = useWords();
  return (
    <Card
      title="Endpoints"
      subtitle={words(
        `Where ${env} events are sent, each signed with the endpoint’s own secret so the receiver can trust it.`,
        'The merchant’s own systems, told of every payment, refund and card payment as it happens.',
      )}
      testId="endpoints"
    >
      <NewEndpointForm />
      {loaded && endpoints.length === 0 ? (
        <p className="empty list-below-form">No endpoints in {env}: events are recorded but not sent.</p>
      ) : (
        <ul className="key-list" data-testid="endpoint-list">
          {(loaded ? endpoints : []).map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} health={health.get(endpoint.id)} />
          ))}
        </ul>
      )}
    </Card>
  );
}
