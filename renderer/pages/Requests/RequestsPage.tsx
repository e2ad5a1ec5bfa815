import type { RequestLogEntry } from '../../api/types';
import { Card } from '../../components/Card';
import { FilterTabs } from '../../components/FilterTabs';
import { ScopeGate } from '../../components/ScopeGate';
import { StatusBadge, type Tone } from '../../components/StatusBadge';
import { useScopedLoad } from '../../components/useScopedLoad';
import { describeFaultMark } from '../../lib/faults';
import { formatDuration, formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import type { RequestFilter } from '../../store/requests';
import { prettyBody } from '../Webhooks/events';

const FILTERS: RequestFilter[] = ['all', '2xx', '4xx', '5xx', 'unauthenticated'];
const LABELS: Record<RequestFilter, string> = {
  all: 'All',
  '2xx': '2xx',
  '4xx': '4xx',
  '5xx': '5xx',
  unauthenticated: 'Unauthenticated',
};

/** The mark of a request a fault changed: the rule's name and what it did. */
function FaultBadge({ mark }: { mark: NonNullable<RequestLogEntry['fault']> }) {
  return (
    <span
      className="badge badge-tone-accent nowrap request-fault"
      title={`API fault: rule ${mark.rule} (Faults page)`}
      data-testid="request-fault"
      data-rule={mark.rule}
      data-effect={mark.effect}
    >
      fault {mark.rule}: {describeFaultMark(mark)}
    </span>
  );
}

const tone = (status: number): Tone => (status < 300 ? 'success' : status < 500 ? 'warning' : 'danger');

function Detail({ entry }: { entry: RequestLogEntry }) {
  const selectRequest = useStore((s) => s.selectRequest);
  return (
    <Card
      title={`${entry.method} ${entry.route ?? entry.path}`}
      subtitle={`${formatTimestamp(entry.created_at)} · ${formatDuration(entry.duration_ms)} · ${entry.api_key === null ? 'no key sent' : `key ${entry.api_key}`}`}
      actions={
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => selectRequest(null)}
          data-testid="request-detail-close"
        >
          Close
        </button>
      }
      testId="request-detail"
    >
      <p className="muted small mono" data-testid="request-detail-path">
        {entry.path}
      </p>
      <p className="muted small mono">request id {entry.id}</p>
      {entry.fault && (
        <p className="small" data-testid="request-detail-fault">
          Changed by an API fault: <FaultBadge mark={entry.fault} />
        </p>
      )}
      <div className="attempt-grid">
        <div>
          <h4 className="attempt-label">Request body</h4>
          <pre className="code-block code-block-light" data-testid="request-detail-request-body">
            {entry.request_body === null ? '(no body)' : prettyBody(entry.request_body)}
          </pre>
        </div>
        <div>
          <h4 className="attempt-label">Response (HTTP {entry.status})</h4>
          <pre className="code-block code-block-light" data-testid="request-detail-response-body">
            {entry.response_body === null ? '(no body)' : prettyBody(entry.response_body)}
          </pre>
        </div>
      </div>
    </Card>
  );
}

/**
 * Every /v1 request of the merchant in this environment, live (the request log); or, under
 * "Unauthenticated", this environment's requests whose key matched no merchant — a missing, mistyped
 * or revoked key answers 401 and belongs to no merchant, so it would otherwise show nowhere.
 */
export function RequestsPage() {
  const loadRequests = useStore((s) => s.loadRequests);
  useScopedLoad(loadRequests);
  const filter = useStore((s) => s.requestFilter);
  const loaded = useStore((s) => s.requestsFor === `${scopeKey(s)}/${s.requestFilter}`);
  const requests = useStore((s) => s.requests);
  const setFilter = useStore((s) => s.setRequestFilter);
  const selectedId = useStore((s) => s.selectedRequestId);
  const selectRequest = useStore((s) => s.selectRequest);
  const selected = loaded ? requests.find((e) => e.id === selectedId) : undefined;
  const unauthenticated = filter === 'unauthenticated';
  return (
    <ScopeGate>
      <div className="stack">
        <Card
          title={unauthenticated ? 'Unauthenticated requests' : 'Requests'}
          subtitle={
            unauthenticated
              ? 'Every /v1 call in this environment whose key matched no merchant (missing, mistyped, revoked or from the other environment): each answered 401. The key column shows what was sent, masked.'
              : 'Every /v1 call of this merchant in this environment, newest first, as it happens. Keys are masked; card secrets, PINs and passwords are never kept. A call whose key matched no merchant is under Unauthenticated.'
          }
          actions={
            <FilterTabs
              options={FILTERS}
              value={filter}
              onChange={(f) => void setFilter(f)}
              testIdPrefix="request-filter"
              label={(f) => LABELS[f]}
            />
          }
          testId="requests"
        >
          {!loaded ? (
            <p className="empty empty-inline">Loading…</p>
          ) : requests.length === 0 ? (
            <p className="empty empty-inline" data-testid="requests-empty">
              {filter === 'all'
                ? 'No requests yet. Call the API with one of this merchant’s keys (a call with a missing or wrong key is under Unauthenticated).'
                : unauthenticated
                  ? 'No unauthenticated requests in this environment: every key sent matched a merchant.'
                  : `No ${filter} requests.`}
            </p>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th>Method</th>
                    <th>Path</th>
                    <th>Status</th>
                    {unauthenticated && <th>Key sent</th>}
                    <th className="num">Duration</th>
                    <th>Time</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {requests.map((entry) => (
                    <tr
                      key={entry.id}
                      className={entry.id === selectedId ? 'row-open' : ''}
                      data-testid="request-row"
                      data-request-id={entry.id}
                      data-status={entry.status}
                      data-fault={entry.fault?.rule}
                    >
                      <td>
                        <code className="mono strong" data-testid="request-method">
                          {entry.method}
                        </code>
                      </td>
                      <td className="mono" title={entry.route ?? ''} data-testid="request-path">
                        {entry.path}
                      </td>
                      <td>
                        <StatusBadge
                          status={String(entry.status)}
                          label={String(entry.status)}
                          tone={tone(entry.status)}
                          testId="request-status"
                        />
                        {entry.fault && <FaultBadge mark={entry.fault} />}
                      </td>
                      {unauthenticated && (
                        <td className="mono nowrap" data-testid="request-key">
                          {entry.api_key ?? 'none'}
                        </td>
                      )}
                      <td className="num nowrap" data-testid="request-duration">
                        {formatDuration(entry.duration_ms)}
                      </td>
                      <td className="nowrap muted">{formatTimestamp(entry.created_at)}</td>
                      <td className="actions">
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm"
                          aria-expanded={entry.id === selectedId}
                          onClick={() => selectRequest(entry.id === selectedId ? null : entry.id)}
                          data-testid="request-open"
                        >
                          {entry.id === selectedId ? 'Hide' : 'Details'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
        {selected && <Detail entry={selected} />}
      </div>
    </ScopeGate>
  );
}
