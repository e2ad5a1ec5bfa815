import { Card } from '../../components/Card';
import { useWords } from '../../components/Private';
import { ScopeGate } from '../../components/ScopeGate';
import { useScopedLoad } from '../../components/useScopedLoad';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { CheckoutDetail } from './CheckoutDetail';
import { CheckoutList } from './CheckoutList';
import { NewCheckoutForm } from './NewCheckoutForm';

export function CheckoutsPage() {
  const loadCheckouts = useStore((s) => s.loadCheckouts);
  useScopedLoad(loadCheckouts);
  // Right after a switch of merchant or environment, the previous scope's checkout is not shown.
  const selected = useStore((s) => (s.checkoutsScope === scopeKey(s) ? s.selectedCheckoutId : null));
  const env = useStore((s) => s.env);
  const words = useWords();

  return (
    <ScopeGate>
      <div className="grid-split">
        <div className="stack">
          <Card
            title="New checkout"
            subtitle={words(
              `Created in ${env} as the merchant’s owner, with the body and answer of POST /v1/checkouts.`,
              'Ask a customer to pay: they get a payment page with the amount and where to send it.',
            )}
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
