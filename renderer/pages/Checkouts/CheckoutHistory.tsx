import type { CheckoutPayment, RefundRecord } from '../../api/types';
import { Card } from '../../components/Card';
import { chainName, formatAmount, formatTime, formatTimestamp, shorten } from '../../lib/format';

/** Transfers the checkout did not count, in words: recorded by the chain, credited to no one. */
const UNCOUNTED: Record<CheckoutPayment['outcome'], string | null> = {
  received: null,
  late: 'Late: arrived after the checkout closed; not credited',
  unsupported_chain: 'Unsupported chain: the checkout does not offer it; never detected, not credited',
};

export function CheckoutPayments({ payments, currency }: { payments: CheckoutPayment[]; currency: string }) {
  return (
    <Card
      title="Payments"
      subtitle="Transfers to this checkout, oldest first; late ones and ones on a chain it does not offer are not credited."
      testId="checkout-payments"
    >
      {payments.length === 0 ? (
        <p className="empty empty-inline">Nothing received yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Time (UTC)</th>
                <th>Via</th>
                <th className="num">Amount</th>
                <th>Payer</th>
                <th>Transaction</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id} data-testid="checkout-payment">
                  <td className="nowrap mono" title={formatTimestamp(p.created_at)}>
                    {formatTime(Date.parse(p.created_at))}
                  </td>
                  <td className="nowrap">{p.chain ? `${p.token} · ${chainName(p.chain)}` : p.method}</td>
                  <td className="num nowrap">
                    {formatAmount(p.amount)} {currency}
                    {UNCOUNTED[p.outcome] ? (
                      <>
                        {' '}
                        <span
                          className="badge"
                          title={UNCOUNTED[p.outcome] ?? ''}
                          data-testid="payment-uncounted"
                        >
                          {p.outcome === 'late' ? 'late' : 'unsupported chain'}
                        </span>
                      </>
                    ) : null}
                  </td>
                  <td className="mono nowrap" title={p.payer_address ?? ''}>
                    {p.payer_address ? shorten(p.payer_address) : '—'}
                  </td>
                  <td className="mono nowrap" title={p.txid ?? ''}>
                    {p.txid ? shorten(p.txid) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

export function CheckoutRefunds({ refunds, currency }: { refunds: RefundRecord[]; currency: string }) {
  if (refunds.length === 0) return <p className="empty empty-inline refunds-empty">No refunds.</p>;
  return (
    <div className="table-wrap table-below-form">
      <table className="table">
        <thead>
          <tr>
            <th>Refunded</th>
            <th className="num">Amount</th>
            <th className="num">Customer gets</th>
            <th className="num">Merchant pays</th>
          </tr>
        </thead>
        <tbody>
          {refunds.map((r) => (
            <tr key={r.id} data-testid="checkout-refund">
              <td>
                <div className="nowrap">{formatTimestamp(r.created_at)}</div>
                <div className="muted small">
                  {r.reason ?? 'No reason given'} · network fee paid by{' '}
                  {r.gas_fee_payer === 'merchant' ? 'the merchant' : 'the customer'}
                </div>
              </td>
              <td className="num nowrap">
                {formatAmount(r.amount)} {currency}
              </td>
              <td className="num nowrap">
                {formatAmount(r.customer_amount)} {currency}
              </td>
              <td className="num nowrap">
                {formatAmount(r.merchant_debit)} {currency}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
