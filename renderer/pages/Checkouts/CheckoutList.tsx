import { Card } from '../../components/Card';
import { formatMoney, formatTimestamp } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { useStore } from '../../store';
import { scopeKey } from '../../store/scope';
import { CHECKOUT_TONE } from './status';

export function CheckoutList() {
  const checkouts = useStore((s) => s.checkouts);
  const loaded = useStore((s) => s.checkoutsScope !== null && s.checkoutsScope === scopeKey(s));
  const selected = useStore((s) => s.selectedCheckoutId);
  const selectCheckout = useStore((s) => s.selectCheckout);
  const env = useStore((s) => s.env);

  return (
    <Card
      title="Checkouts"
      subtitle={loaded ? `${checkouts.length} in ${env}, newest first.` : 'Loading…'}
      className="card-flush"
      testId="checkout-list"
    >
      {loaded && checkouts.length === 0 ? (
        <p className="empty" data-testid="checkouts-empty">
          No checkouts in {env} yet.
        </p>
      ) : (
        <ul className="row-list">
          {(loaded ? checkouts : []).map((checkout) => (
            <li key={checkout.id}>
              <button
                type="button"
                className={`row-item ${checkout.id === selected ? 'selected' : ''}`}
                onClick={() => void selectCheckout(checkout.id)}
                data-testid="checkout-row"
                data-checkout-id={checkout.id}
                data-status={checkout.status}
              >
                <span className="row-item-text">
                  <span className="row-item-title">{checkout.title}</span>
                  <span className="row-item-sub">
                    <span className="mono">{checkout.id.slice(0, 8)}</span> ·{' '}
                    {formatTimestamp(checkout.created_at)}
                  </span>
                </span>
                <span className="row-item-side">
                  <span className="amount">{formatMoney(checkout.amount, checkout.currency)}</span>
                  <StatusBadge status={checkout.status} tone={CHECKOUT_TONE[checkout.status]} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
