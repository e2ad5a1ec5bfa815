import { Fragment, useState } from 'react';
import type { LedgerTransaction } from '../../api/types';
import { Card } from '../../components/Card';
import { useWords } from '../../components/Private';
import { formatAmount, formatTimestamp, statusLabel } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';

/** The net change of one of the merchant's accounts in a transaction, per currency. */
function net(tx: LedgerTransaction, account: string): { currency: string; amount: number }[] {
  const sums = new Map<string, number>();
  for (const e of tx.entries)
    if (e.account === account) sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
  return [...sums].map(([currency, amount]) => ({ currency, amount }));
}

function Delta({ parts }: { parts: { currency: string; amount: number }[] }) {
  if (parts.length === 0) return <span className="muted">—</span>;
  return (
    <>
      {parts.map(({ currency, amount }) => (
        <div key={currency} className={amount < 0 ? 'delta-out' : 'delta-in'}>
          {amount > 0 ? '+' : ''}
          {formatAmount(amount)} {currency}
        </div>
      ))}
    </>
  );
}

/** What moved the money, as the merchant says it (the ledger's own kind is in `data-kind`). */
const KIND_WORDS: Record<string, string> = {
  'checkout.payment': 'Payment received, not yet settled',
  'checkout.settlement': 'Payment settled',
  'checkout.refund': 'Refund to a customer',
  'checkout.cancel': 'Checkout cancelled',
  'fees.release': 'Fees released',
  deposit: 'Deposit',
  payout: 'Payout',
  credit: 'Money added',
  'card.fund': 'Money moved to cards',
  'card.recall': 'Money back from cards',
};
const kindInWords = (kind: string) => KIND_WORDS[kind] ?? statusLabel(kind);

/** Accounts as the ledger names them, shortened for people: merchant:<id>:available → merchant available. */
const accountLabel = (account: string, merchantId: string) =>
  account
    .replace(`:${merchantId}:`, ' ')
    .replace(/:[0-9a-f-]{36}:/, ' ')
    .replace(/_/g, ' ');

export function Ledger() {
  const ledger = useStore((s) => (s.moneyScope === scopeKey(s) ? s.ledger : null));
  const merchantId = useStore((s) => s.selectedMerchantId) ?? '';
  const [open, setOpen] = useState<string | null>(null);
  const words = useWords();
  const available = `merchant:${merchantId}:available`;
  const pending = `merchant:${merchantId}:pending`;

  return (
    <Card
      title="Ledger"
      subtitle={words(
        'Double-entry transactions touching the merchant’s balances, newest first.',
        'Every movement of the merchant’s money, newest first.',
      )}
      testId="ledger"
    >
      {ledger === null ? (
        <p className="empty empty-inline">Loading…</p>
      ) : ledger.length === 0 ? (
        <p className="empty empty-inline">No transactions yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>When</th>
                <th>Kind</th>
                <th className="num">Available</th>
                <th className="num">Pending</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {ledger.map((tx) => (
                <Fragment key={tx.id}>
                  <tr data-testid="ledger-row" data-kind={tx.kind}>
                    <td className="nowrap">{formatTimestamp(tx.created_at)}</td>
                    <td>
                      <span className="strong ledger-kind">{kindInWords(tx.kind)}</span>
                      {tx.memo && <div className="muted small">{tx.memo}</div>}
                    </td>
                    <td className="num nowrap">
                      <Delta parts={net(tx, available)} />
                    </td>
                    <td className="num nowrap">
                      <Delta parts={net(tx, pending)} />
                    </td>
                    <td className="actions">
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        aria-expanded={open === tx.id}
                        onClick={() => setOpen(open === tx.id ? null : tx.id)}
                      >
                        {open === tx.id ? 'Hide' : 'Entries'}
                      </button>
                    </td>
                  </tr>
                  {open === tx.id && (
                    <tr className="row-expanded">
                      <td colSpan={5}>
                        <ul className="entries">
                          {tx.entries.map((e, i) => (
                            // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; their order is fixed
                            <li key={i}>
                              <span className="mono">{accountLabel(e.account, merchantId)}</span>
                              <span className={`mono ${e.amount < 0 ? 'delta-out' : 'delta-in'}`}>
                                {e.amount > 0 ? '+' : ''}
                                {formatAmount(e.amount)} {e.currency}
                              </span>
                            </li>
                          ))}
                        </ul>
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
