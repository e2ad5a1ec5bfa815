import type { SandboxEvent } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { Select } from '../../components/Field';
import { PagedList } from '../../components/PagedList';
import { ScopeGate } from '../../components/ScopeGate';
import { SearchBox } from '../../components/SearchBox';
import { useScopedLoad } from '../../components/useScopedLoad';
import { formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { type EventTypeFilter, eventsKey } from '../../store/events';
import { scopeKey } from '../../store/merchant-scope';
import { EVENT_TYPES } from '../Webhooks/events';

/** The payload as the event log stores it, indented: what webhooks carry as `data`. */
const pretty = (event: SandboxEvent) => JSON.stringify(event.data, null, 2);

function EventDetail({ event }: { event: SandboxEvent }) {
  const selectEvent = useStore((s) => s.selectEvent);
  const json = pretty(event);
  return (
    <Card
      title={<code className="mono">{event.type}</code>}
      subtitle={`${formatTimestamp(event.created_at)} · ${event.env}`}
      actions={
        <span className="button-group">
          <CopyButton value={json} label="Copy JSON" testId="event-copy-json" />
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => selectEvent(null)}
            data-testid="event-detail-close"
          >
            Close
          </button>
        </span>
      }
      testId="event-detail"
    >
      <dl className="facts">
        <div>
          <dt>Event id</dt>
          <dd className="mono" data-testid="event-detail-id">
            {event.id} <CopyButton value={event.id} label="Copy" />
          </dd>
        </div>
        <div>
          <dt>Resource</dt>
          <dd className="mono">{event.resource_id ?? '—'}</dd>
        </div>
      </dl>
      <h4 className="attempt-label">Payload (data)</h4>
      <pre className="code-block code-block-light event-json" data-testid="event-json">
        {json}
      </pre>
    </Card>
  );
}

/** The merchant's event log in this environment: what happened, in order, with each payload. */
export function EventsPage() {
  const loadEventLog = useStore((s) => s.loadEventLog);
  useScopedLoad(loadEventLog);
  const events = useStore((s) => s.eventLog);
  // Rows read for this scope stay on screen while another filter, search or page is read.
  const current = useStore((s) => s.eventLogFor?.startsWith(`${scopeKey(s)}|`) ?? false);
  const loaded = useStore(
    (s) => s.eventLogFor === eventsKey(scopeKey(s), s.eventTypeFilter, s.eventSearch, s.eventPaging),
  );
  const type = useStore((s) => s.eventTypeFilter);
  const search = useStore((s) => s.eventSearch);
  const paging = useStore((s) => s.eventPaging);
  const selected = useStore((s) => {
    const e = s.selectedEvent;
    return e && e.merchant_id === s.selectedMerchantId && e.env === s.env ? e : null;
  });
  const { setEventTypeFilter, searchEvents, eventsPage, selectEvent } = useStore.getState();
  const env = useStore((s) => s.env);

  return (
    <ScopeGate>
      <div className="grid-split">
        <PagedList
          title="Events"
          subtitle={`Every event recorded for this merchant in ${env}, newest first: what webhooks are made from.`}
          testId="event-log"
          toolbar={
            <>
              <Select
                value={type}
                onChange={(value) => void setEventTypeFilter(value as EventTypeFilter)}
                testId="event-type-filter"
              >
                <option value="all">All types</option>
                {EVENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </Select>
              <SearchBox
                value={search}
                onSearch={(text) => void searchEvents(text)}
                placeholder="Event or resource id"
                testId="event-search"
              />
            </>
          }
          items={events}
          current={current}
          loaded={loaded}
          empty={type === 'all' && !search ? `No events in ${env} yet.` : 'No event matches.'}
          emptyTestId="events-empty"
          row={(event) => (
            <button
              type="button"
              className={`row-item ${event.id === selected?.id ? 'selected' : ''}`}
              onClick={() => selectEvent(event)}
              data-testid="event-row"
              data-event-id={event.id}
              data-type={event.type}
            >
              <span className="row-item-text">
                <code className="row-item-title mono">{event.type}</code>
                <span className="row-item-sub">
                  <span className="mono">{event.resource_id ?? event.id}</span>
                </span>
              </span>
              <span className="row-item-side muted small nowrap">{formatTimestamp(event.created_at)}</span>
            </button>
          )}
          paging={paging}
          onPage={(direction) => void eventsPage(direction)}
          pagerTestId="event-pager"
        />
        {selected ? (
          <EventDetail event={selected} />
        ) : (
          <Card>
            <p className="empty">Select an event to read its payload.</p>
          </Card>
        )}
      </div>
    </ScopeGate>
  );
}
