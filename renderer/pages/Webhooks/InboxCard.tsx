import { type FormEvent, useEffect, useState } from 'react';
import type { InboxMessage } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { Field, Select } from '../../components/Field';
import { InboxIcon } from '../../components/icons';
import { Private, useAnswerName, usePresenting, useShown, useWords } from '../../components/Private';
import { useBusy } from '../../components/useBusy';
import { useInboxUrl } from '../../components/useInboxUrl';
import { formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { EventName } from './EventName';
import { eventOfBody, prettyBody } from './events';
import { bodyInWords } from './in-words';

const ANSWERS = [200, 204, 400, 404, 500, 503];

/** What each answer means to the merchant's system, for an audience that reads no status codes. */
const ANSWER_WORDS: Record<number, string> = {
  200: 'Accept',
  204: 'Accept, with no reply',
  400: 'Refuse as not understood',
  404: 'Refuse as unknown',
  500: 'Fail with an error',
  503: 'Fail as unavailable',
};

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
  const presenting = usePresenting();
  const answer = useAnswerName();
  const event = eventOfBody(message.body);
  return (
    <li className="inbox-message" data-testid="inbox-message" data-event={event ?? ''}>
      <button
        type="button"
        className="inbox-message-head"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {event ? <EventName type={event} strong /> : <code className="mono strong">(not JSON)</code>}
        {/* Whether the signature checked out is for the developer wiring the receiver. */}
        <Private>
          <Signature valid={message.signature_valid} />
        </Private>
        <span className="muted small">
          {presenting ? answer(message.response_status) : `answered ${message.response_status}`}
        </span>
        <span className="muted small inbox-time">{formatTimestamp(message.received_at)}</span>
      </button>
      {open &&
        (presenting ? (
          <p className="inbox-message-words" data-testid="inbox-message-words">
            {bodyInWords(message.body) ?? 'A message that is not an event.'}
          </p>
        ) : (
          <pre className="code-block code-block-light">{shown(prettyBody(message.body))}</pre>
        ))}
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
  const words = useWords();
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
      subtitle={words(
        'A receiver inside the sandbox: it checks each signature and answers with the status you pick.',
        'A stand-in for the merchant’s own system: watch each notification arrive, and choose how it answers.',
      )}
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
                  {words(`HTTP ${status}${status >= 400 ? ' (fail)' : ''}`, ANSWER_WORDS[status] ?? '')}
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
