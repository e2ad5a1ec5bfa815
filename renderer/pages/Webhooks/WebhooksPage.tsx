import { Private } from '../../components/Private';
import { ScopeGate } from '../../components/ScopeGate';
import { useScopedLoad } from '../../components/useScopedLoad';
import { useStore } from '../../store';
import { Deliveries } from './Deliveries';
import { Endpoints } from './Endpoints';
import { InboxCard } from './InboxCard';
import { ReceiverCheck } from './ReceiverCheck';
import './webhooks.css';

export function WebhooksPage() {
  const loadWebhooks = useStore((s) => s.loadWebhooks);
  useScopedLoad(loadWebhooks);
  return (
    <ScopeGate>
      <div className="stack">
        <div className="grid-split-even">
          <Endpoints />
          <InboxCard />
        </div>
        <Deliveries />
        {/* Grading a developer's own receiver (its URL, its signing secret): not for an audience. */}
        <Private>
          <ReceiverCheck />
        </Private>
      </div>
    </ScopeGate>
  );
}
