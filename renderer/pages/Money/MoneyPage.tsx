import { ScopeGate } from '../../components/ScopeGate';
import { useScopedLoad } from '../../components/useScopedLoad';
import { useStore } from '../../store';
import { Balances } from './Balances';
import { CreditForm, PayoutForm } from './Forms';
import { Ledger } from './Ledger';
import { StaticAddresses } from './StaticAddresses';

export function MoneyPage() {
  const loadMoney = useStore((s) => s.loadMoney);
  useScopedLoad(loadMoney);
  return (
    <ScopeGate>
      <div className="grid-overview">
        <div className="stack">
          <Balances />
          <StaticAddresses />
          <Ledger />
        </div>
        <div className="stack">
          <PayoutForm />
          <CreditForm />
        </div>
      </div>
    </ScopeGate>
  );
}
