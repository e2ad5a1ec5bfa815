import { Card } from '../../components/Card';
import { formatAmount } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';

export function Balances() {
  const balances = useStore((s) => s.balances);
  const loaded = useStore((s) => s.moneyScope !== null && s.moneyScope === scopeKey(s));
  const env = useStore((s) => s.env);
  return (
    <Card
      title="Balances"
      subtitle="Available to pay out or fund cards; pending is detected on-chain and not yet settled."
      testId="balances"
    >
      {!loaded ? (
        <p className="empty empty-inline">Loading…</p>
      ) : balances.length === 0 ? (
        <p className="empty empty-inline" data-testid="balances-empty">
          No money in {env} yet: take a checkout payment, send to a static address or credit the merchant.
        </p>
      ) : (
        <ul className="balance-grid">
          {balances.map((b) => (
            <li key={b.currency} className="balance-tile" data-testid="balance" data-currency={b.currency}>
              <span className="balance-currency">{b.currency}</span>
              <span className="balance-available" data-testid="balance-available" data-amount={b.available}>
                {formatAmount(b.available)}
              </span>
              <span className="muted small" data-testid="balance-pending" data-amount={b.held}>
                {b.held ? `+ ${formatAmount(b.held)} pending settlement` : 'Nothing pending'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
