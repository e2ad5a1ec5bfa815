import { ScopeGate } from '../../components/ScopeGate';
import { useScopedLoad } from '../../components/useScopedLoad';
import { useStore } from '../../store';
import { IncomingConnections, OutgoingConnections } from './Connections';
import { IncomeCard } from './IncomeCard';
import { OnBehalfForm } from './OnBehalfForm';
import { ProvisionForm } from './ProvisionForm';

export function ResellersPage() {
  const loadResellers = useStore((s) => s.loadResellers);
  useScopedLoad(loadResellers);
  return (
    <ScopeGate>
      <div className="grid-overview">
        <div className="stack">
          <OutgoingConnections />
          <IncomingConnections />
          <ProvisionForm />
        </div>
        <div className="stack">
          <IncomeCard />
          <OnBehalfForm />
        </div>
      </div>
    </ScopeGate>
  );
}
