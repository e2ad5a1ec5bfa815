import { Card } from '../../components/Card';
import { ScopeGate } from '../../components/ScopeGate';
import { useScopedLoad } from '../../components/useScopedLoad';
import { useStore } from '../../store';
import { scopeKey } from '../../store/scope';
import { CheckoutDetail } from './CheckoutDetail';
import { CheckoutList } from './CheckoutList';
import { NewCheckoutForm } from './NewCheckoutForm';

export function CheckoutsPage() {
  const loadCheckouts = useStore((s) => s.loadCheckouts);
  useScopedLoad(loadCheckouts);
  // Right after a switch of merchant or environment, the previous scope's checkout is not shown.
  const selected = useStore((s) => (s.checkoutsScope === scopeKey(s) ? s.selectedCheckoutId : null));
  const env = useStore((s) => s.env);

  return (
    <ScopeGate>
      <div className="grid-split">
        <div className="stack">
          <Card
            title="New checkout"
            subtitle={`Created in ${env} as the merchant’s owner, with the body and answer of POST /v1/checkouts.`}
          >
            <NewCheckoutForm />
          </Card>
          <CheckoutList />
        </div>
        {selected ? (
          <CheckoutDetail checkoutId={selected} />
        ) : (
          <Card>
            <p className="empty">Select or create a checkout to pay it, settle it or refund it.</p>
          </Card>
        )}
      </div>
    </ScopeGate>
  );
}
