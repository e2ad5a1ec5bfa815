import { type FormEvent, useEffect, useState } from 'react';
import type { InboxMessage } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { Field, Select } from '../../components/Field';
import { InboxIcon } from '../../components/icons';
import { useShown } from '../../components/Private';
import { useBusy } from '../../components/useBusy';
import { useInboxUrl } from '../../components/useInboxUrl';
import { formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { eventOfBody, prettyBody } from './events';

const ANSWERS = [200, 204, 400, 404, 500, 503];

function Signature({ valid }: { valid: InboxMessage['signature_valid'] }) {
  const label = valid === null ? 'Unknown sender' : valid ? 'Signature valid' : 'Signature invalid';
  return (
    <span
      className={`badge badge-tone-${valid === null ? 'neutral' : valid ? 'success' : 'danger'}`}
      data-testid="inbox-signature"
      data-valid={valid === null ? 'unknown' : String(valid)}
    >
      {label}
    </span>
  );
}

function Message({ message }: { message: InboxMessage }) {
  const [open, setOpen] = useState(false);
  const shown = useShown();
  const event = eventOfBody(message.body);
  return (
    <li className="inbox-message" data-testid="inbox-message" data-event={event ?? ''}>
      <button
        type="button"
        className="inbox-message-head"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <code className="mono strong">{event ?? '(not JSON)'}</code>
        <Signature valid={message.signature_valid} />
        <span className="muted small">answered {message.response_status}</span>
        <span className="muted small inbox-time">{formatTimestamp(message.received_at)}</span>
      </button>
      {open && <pre className="code-block code-block-light">{shown(prettyBody(message.body))}</pre>}
    </li>
  );
}

export function InboxCard() {
  const inbox = useStore((s) => s.inbox);
  const name = useStore((s) => s.inboxName);
  const setInboxName = useStore((s) => s.setInboxName);
  const setInboxResponse = useStore((s) => s.setInboxResponse);
  const url = useInboxUrl(name) ?? '';
  const [draft, setDraft] = useState(name);
  const [busy, run] = useBusy();
  const shown = useShown();
  useEffect(() => setDraft(name), [name]);

  const show = (e: FormEvent) => {
    e.preventDefault();
    if (/^[A-Za-z0-9_-]{1,64}$/.test(draft) && draft !== name) void setInboxName(draft);
  };

  return (
    <Card
      title={
        <span className="title-with-icon">
          <InboxIcon /> Built-in inbox
        </span>
      }
      subtitle="A receiver inside the sandbox: it checks each signature and answers with the status you pick."
      testId="inbox"
    >
      <div className="form">
        <div className="key-cell">
          <code className="mono key-value" data-testid="inbox-url">
            {shown(url)}
          </code>
          <CopyButton value={url} />
        </div>
        <div className="form form-inline">
          <form className="form form-inline" onSubmit={show}>
            <Field label="Inbox name">
              <input
                className="input input-medium"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                pattern="[A-Za-z0-9_\-]{1,64}"
                data-testid="inbox-name-input"
              />
            </Field>
            <button type="submit" className="btn btn-secondary" disabled={draft === name}>
              Show
            </button>
          </form>
          <Field label="Answer with">
            <Select
              value={inbox?.response_status ?? 200}
              disabled={busy || !inbox}
              onChange={(v) => void run(() => setInboxResponse(Number(v)))}
              testId="inbox-response-select"
            >
              {ANSWERS.map((status) => (
                <option key={status} value={status}>
                  HTTP {status}
                  {status >= 400 ? ' (fail)' : ''}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </div>
      {!inbox ? (
        <p className="empty empty-inline list-below-form">Loading…</p>
      ) : inbox.messages.length === 0 ? (
        <p className="empty empty-inline list-below-form" data-testid="inbox-empty">
          Nothing received yet.
        </p>
      ) : (
        <ul className="inbox-list" data-testid="inbox-messages">
          {inbox.messages.map((message) => (
            <Message key={message.id} message={message} />
          ))}
        </ul>
      )}
    </Card>
  );
}
