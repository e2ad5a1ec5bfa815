import { Card } from '../../components/Card';
import { useBusy } from '../../components/useBusy';
import { formatAmount } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';

/**
 * The reseller's fees per currency: earned (released after the 7-day hold) and pending (settled
 * checkouts whose hold runs). The release makes no event, so the card has its own refresh.
 */
export function IncomeCard() {
  const income = useStore((s) => (s.resellersScope === scopeKey(s) ? s.resellerIncome : null));
  const loadResellers = useStore((s) => s.loadResellers);
  const env = useStore((s) => s.env);
  const [busy, run] = useBusy();

  return (
    <Card
      title="Reseller fee income"
      subtitle="Fees from checkouts made for connected merchants, held 7 days after payment, then earned."
      actions={
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await loadResellers();
              return true;
            })
          }
          data-testid="income-refresh"
        >
          {busy ? 'Refreshing…' : 'Refresh'}
        </button>
      }
      testId="reseller-income"
    >
      {income === null ? (
        <p className="empty empty-inline">Loading…</p>
      ) : income.length === 0 ? (
        <p className="empty empty-inline" data-testid="income-empty">
          No reseller fees in {env} yet: they come from paid checkouts made on a merchant’s behalf.
        </p>
      ) : (
        <ul className="balance-grid">
          {income.map((row) => (
            <li key={row.currency} className="balance-tile" data-testid="income" data-currency={row.currency}>
              <span className="balance-currency">{row.currency} EARNED</span>
              <span className="balance-available" data-testid="income-earned" data-amount={row.earned}>
                {formatAmount(row.earned)}
              </span>
              <span className="muted small" data-testid="income-pending" data-amount={row.pending}>
                {row.pending ? `+ ${formatAmount(row.pending)} pending (7-day hold)` : 'Nothing pending'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
