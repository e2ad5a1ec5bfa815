import { Fragment, useState } from 'react';
import type { Delivery, DeliveryAttempt, DeliveryStatus } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { Select } from '../../components/Field';
import { FilterTabs } from '../../components/FilterTabs';
import { Pager } from '../../components/Pager';
import { Private, useAnswerName, useEventName, usePresenting, useWords } from '../../components/Private';
import { StatusBadge, type Tone } from '../../components/StatusBadge';
import { useBusy } from '../../components/useBusy';
import { formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { type DeliveryEventFilter, type DeliveryFilter, deliveriesKey } from '../../store/webhooks';
import { ChaosBadges } from './Chaos';
import { curlCommand } from './curl';
import { EventName } from './EventName';
import { EVENT_TYPES, prettyBody } from './events';
import { bodyInWords } from './in-words';
import { DeliveryTarget, ResendControl } from './Workbench';

const TONE: Record<DeliveryStatus, Tone> = { pending: 'warning', delivered: 'success', failed: 'danger' };
const FILTERS: DeliveryFilter[] = ['all', 'pending', 'delivered', 'failed'];

/**
 * What an attempt got back: its HTTP status or network error for a developer; "Accepted",
 * "Refused" or "No answer" while presenting (an error names hosts and ports).
 */
function useOutcome(): (attempt: DeliveryAttempt | undefined) => string {
  const presenting = usePresenting();
  const answer = useAnswerName();
  return (attempt) =>
    !attempt
      ? '—'
      : attempt.response_status !== null
        ? answer(attempt.response_status)
        : presenting
          ? 'No answer'
          : (attempt.error ?? 'no answer');
}

function Headers({ headers }: { headers: Record<string, string> }) {
  return (
    <pre className="code-block code-block-light">
      {Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')}
    </pre>
  );
}

function Attempt({ delivery, attempt }: { delivery: Delivery; attempt: DeliveryAttempt }) {
  const presenting = usePresenting();
  const outcome = useOutcome();
  const ok =
    attempt.response_status !== null && attempt.response_status >= 200 && attempt.response_status < 300;
  return (
    <li className="attempt" data-testid="delivery-attempt" data-number={attempt.number}>
      <div className="attempt-head">
        <span className="strong">Attempt {attempt.number}</span>
        <span className="muted">{formatTimestamp(attempt.at)}</span>
        <span
          className={`attempt-outcome ${ok ? 'ok' : 'bad'}`}
          data-testid="attempt-response-status"
          data-response-status={attempt.response_status ?? ''}
        >
          {outcome(attempt)}
        </span>
        <span className="muted" data-testid="attempt-duration">
          {attempt.duration_ms} ms
        </span>
        <Private>
          <ChaosBadges effects={attempt.chaos} />
          <CopyButton
            value={curlCommand(delivery, attempt)}
            label="Copy as curl"
            testId="attempt-copy-curl"
          />
        </Private>
      </div>
      {attempt.error && !presenting && (
        <p className="attempt-error" data-testid="attempt-error">
          {attempt.error}
        </p>
      )}
      {presenting ? (
        // What was sent, as the merchant would say it: the bodies and headers are the developer's.
        <p className="attempt-words" data-testid="attempt-words">
          {bodyInWords(attempt.request_body) ?? 'A message that is not an event.'}
        </p>
      ) : (
        <AttemptBodies attempt={attempt} />
      )}
    </li>
  );
}

/**
 * The request's headers and body, the response's body: exactly what went over the wire, for a
 * developer only (the headers carry the signature, the bodies ids).
 */
function AttemptBodies({ attempt }: { attempt: DeliveryAttempt }) {
  return (
    <div className="attempt-grid">
      <div>
        <h4 className="attempt-label">Request headers</h4>
        <Headers headers={attempt.request_headers} />
        <h4 className="attempt-label">Request body</h4>
        <pre className="code-block code-block-light" data-testid="attempt-request-body">
          {prettyBody(attempt.request_body)}
        </pre>
      </div>
      <div>
        <h4 className="attempt-label">
          Response {attempt.response_status !== null ? `(HTTP ${attempt.response_status})` : ''}
        </h4>
        <pre className="code-block code-block-light" data-testid="attempt-response-body">
          {attempt.response_body ? prettyBody(attempt.response_body) : '(no body)'}
        </pre>
      </div>
    </div>
  );
}

/**
 * A timestamp that may wrap between its day and its time ("27 Nov 2026," / "20:06 UTC"), never
 * inside either: two such columns on one line each would push the row's actions out of the card.
 */
function Stamp({ at }: { at: string }) {
  const text = formatTimestamp(at);
  const cut = text.indexOf(', ');
  if (cut < 0) return <>{text}</>;
  return (
    <>
      <span className="nowrap">{text.slice(0, cut + 1)}</span>{' '}
      <span className="nowrap">{text.slice(cut + 2)}</span>
    </>
  );
}

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const retryDelivery = useStore((s) => s.retryDelivery);
  const [open, setOpen] = useState(false);
  const [busy, run] = useBusy();
  const outcome = useOutcome();
  const last = delivery.attempts[delivery.attempts.length - 1];
  return (
    <Fragment>
      <tr
        className={open ? 'row-open' : ''}
        data-testid="delivery-row"
        data-delivery-id={delivery.id}
        data-event={delivery.event}
        data-status={delivery.status}
      >
        <td className="muted" data-testid="delivery-time" title={delivery.created_at}>
          <Stamp at={delivery.created_at} />
        </td>
        <td>
          <EventName type={delivery.event} strong />
          <DeliveryTarget delivery={delivery} />
        </td>
        <td>
          <StatusBadge status={delivery.status} tone={TONE[delivery.status]} testId="delivery-status" />
        </td>
        <td className="num" data-testid="delivery-attempt-count">
          {delivery.attempt_count}
        </td>
        <td className="delivery-answer">{outcome(last)}</td>
        <td className="muted">{delivery.next_attempt_at ? <Stamp at={delivery.next_attempt_at} /> : '—'}</td>
        <td className="actions">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            data-testid="delivery-toggle"
          >
            {open ? 'Hide' : 'Attempts'}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy}
            onClick={() => void run(() => retryDelivery(delivery))}
            data-testid="delivery-retry"
          >
            {busy ? 'Sending…' : 'Retry'}
          </button>
          <ResendControl delivery={delivery} />
        </td>
      </tr>
      {open && (
        <tr className="row-expanded">
          <td colSpan={7}>
            {delivery.attempts.length === 0 ? (
              <p className="muted">Not attempted yet.</p>
            ) : (
              <ol className="attempts" data-testid="delivery-attempts">
                {delivery.attempts.map((attempt) => (
                  <Attempt key={attempt.number} delivery={delivery} attempt={attempt} />
                ))}
              </ol>
            )}
          </td>
        </tr>
      )}
    </Fragment>
  );
}

export function Deliveries() {
  const filter = useStore((s) => s.deliveryFilter);
  const eventFilter = useStore((s) => s.deliveryEventFilter);
  const loaded = useStore((s) => s.deliveriesFor === deliveriesKey(scopeKey(s), s));
  const deliveries = useStore((s) => s.deliveries);
  const paging = useStore((s) => s.deliveryPaging);
  const { setDeliveryFilter: setFilter, setDeliveryEventFilter, deliveriesPage } = useStore.getState();
  const words = useWords();
  const eventName = useEventName();
  return (
    <Card
      title="Deliveries"
      subtitle={words(
        'Every event sent to an endpoint: same delivery id across retries (5 min, 30 min, 2 h, 5 h on the sandbox clock).',
        'Every notification sent to the merchant’s systems, tried again 5 min, 30 min, 2 h and 5 h later until it is accepted.',
      )}
      actions={
        <span className="list-toolbar list-toolbar-inline">
          <Select
            value={eventFilter}
            onChange={(value) => void setDeliveryEventFilter(value as DeliveryEventFilter)}
            testId="delivery-event-filter"
          >
            <option value="all">All events</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {eventName(t)}
              </option>
            ))}
          </Select>
          <FilterTabs
            options={FILTERS}
            value={filter}
            onChange={(f) => void setFilter(f)}
            testIdPrefix="delivery-filter"
            label={(f) => (f === 'all' ? 'All' : f.charAt(0).toUpperCase() + f.slice(1))}
          />
        </span>
      }
      testId="deliveries"
    >
      {!loaded ? (
        <p className="empty empty-inline">Loading…</p>
      ) : deliveries.length === 0 ? (
        <p className="empty empty-inline" data-testid="deliveries-empty">
          {filter === 'all' && eventFilter === 'all'
            ? 'No deliveries yet. Add an endpoint, then make something happen.'
            : `No ${filter === 'all' ? '' : `${filter} `}deliveries${eventFilter === 'all' ? '' : ` of ${eventName(eventFilter)}`}.`}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Time</th>
                <th>Event</th>
                <th>Status</th>
                <th className="num">Attempts</th>
                <th>Last answer</th>
                <th>Next attempt</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <DeliveryRow key={delivery.id} delivery={delivery} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        paging={paging}
        count={deliveries.length}
        onNewer={() => void deliveriesPage('newer')}
        onOlder={() => void deliveriesPage('older')}
        testId="delivery-pager"
      />
    </Card>
  );
}
