import { Card } from '../../components/Card';
import { formatTime } from '../../lib/format';
import { useStore } from '../../store';

const SHOWN = 8;

/** The newest events from the server's stream, as they happen. */
export function LiveEvents() {
  const events = useStore((s) => s.liveEvents);
  const status = useStore((s) => s.liveStatus);
  const merchants = useStore((s) => s.merchants);
  const merchantName = (id: string) => merchants.find((m) => m.id === id)?.name ?? `${id.slice(0, 8)}…`;

  return (
    <Card
      title="Live events"
      subtitle="Every state change, as it happens (sandbox time, UTC)."
      actions={
        <span
          className={`pill ${status === 'open' ? 'pill-running' : 'pill-idle'}`}
          data-testid="live-status"
        >
          {status === 'open' ? 'Live' : status === 'connecting' ? 'Connecting' : 'Reconnecting'}
        </span>
      }
      testId="live-events"
    >
      {events.length === 0 ? (
        <p className="empty empty-inline">
          No events yet in this session. Create a checkout with an API key and it shows up here.
        </p>
      ) : (
        <ul className="event-list">
          {events.slice(0, SHOWN).map((event) => (
            <li key={event.id} className="event-item" data-testid="live-event" data-type={event.type}>
              <span className={`event-dot event-${event.type.split('.')[0]}`} aria-hidden="true" />
              <code className="mono event-type">{event.type}</code>
              <span className={`env-chip env-chip-${event.env}`}>{event.env}</span>
              <span className="event-merchant muted">{merchantName(event.merchant_id)}</span>
              <span className="event-time muted mono">{formatTime(Date.parse(event.created_at))}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
