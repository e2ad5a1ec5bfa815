import { type FormEvent, useState } from 'react';
import type { CardTransaction, PaymentCard } from '../../api/types';
import { Card } from '../../components/Card';
import { AmountInput, Field, Select, TextInput } from '../../components/Field';
import { StatusBadge } from '../../components/StatusBadge';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { declineInWords, formatAmount, formatTimestamp, humanize, parseAmount } from '../../lib/format';
import { useStore } from '../../store';
import type { CardMove, TransactionAction } from '../../store/cards';
import { TX_TONE } from './status';

function AuthorizeForm({ cardId }: { cardId: string }) {
  const authorizeCard = useStore((s) => s.authorizeCard);
  const [amount, setAmount] = useState('');
  const [merchant, setMerchant] = useState('');
  const [channel, setChannel] = useState<'online' | 'present'>('online');
  // The network's settlement, expected this long after on the sandbox clock; '' waits for a click.
  const [settleAfter, setSettleAfter] = useState('');
  const [busy, run] = useBusy();
  const minor = parseAmount(amount);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (minor === null) return;
    const ok = await run(() =>
      authorizeCard(cardId, {
        amount: minor,
        channel,
        ...(merchant.trim() ? { merchant_name: merchant.trim() } : {}),
        ...(settleAfter ? { settle_after_seconds: Number(settleAfter) } : {}),
      }),
    );
    if (ok) setAmount('');
  };

  return (
    <form className="form form-inline" onSubmit={submit} data-testid="authorize-form">
      <Field label="Amount (USDC)">
        <AmountInput
          compact
          value={amount}
          onChange={setAmount}
          placeholder="12.50"
          testId="authorize-amount-input"
        />
      </Field>
      <Field label="Merchant" grow>
        <TextInput
          value={merchant}
          onChange={setMerchant}
          placeholder="Blue Bottle Coffee"
          maxLength={200}
          testId="authorize-merchant-input"
        />
      </Field>
      <Field label="Channel">
        <Select
          value={channel}
          onChange={(v) => setChannel(v as 'online' | 'present')}
          testId="authorize-channel-select"
        >
          <option value="online">Online</option>
          <option value="present">In person</option>
        </Select>
      </Field>
      <Field label="Settles">
        <Select value={settleAfter} onChange={setSettleAfter} testId="authorize-settle-select">
          <option value="">When you settle it</option>
          <option value="3600">By itself in 1 hour</option>
          <option value="86400">By itself in 1 day</option>
          <option value="259200">By itself in 3 days</option>
        </Select>
      </Field>
      <SubmitButton busy={busy} busyLabel="Authorizing…" disabled={minor === null} testId="authorize-submit">
        Authorize
      </SubmitButton>
    </form>
  );
}

const MOVES: { kind: CardMove; label: string; physicalOnly: boolean }[] = [
  { kind: 'refunds', label: 'Merchant refund', physicalOnly: false },
  { kind: 'deposits', label: 'Deposit', physicalOnly: true },
  { kind: 'withdrawals', label: 'Withdrawal', physicalOnly: true },
];

/** Money moving on the card outside an authorization: completed at once. */
function MoveForm({ card }: { card: PaymentCard }) {
  const moveCardFunds = useStore((s) => s.moveCardFunds);
  const moves = MOVES.filter((m) => !m.physicalOnly || card.ctype === 'physical');
  const [kind, setKind] = useState<CardMove>('refunds');
  const [amount, setAmount] = useState('');
  const [busy, run] = useBusy();
  const minor = parseAmount(amount);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (minor !== null && (await run(() => moveCardFunds(card.id, kind, minor)))) setAmount('');
  };

  return (
    <form className="form form-inline move-form" onSubmit={submit} data-testid="card-move-form">
      <Field label="Other movement">
        <Select value={kind} onChange={(v) => setKind(v as CardMove)} testId="card-move-kind">
          {moves.map((m) => (
            <option key={m.kind} value={m.kind}>
              {m.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Amount (USDC)">
        <AmountInput
          compact
          value={amount}
          onChange={setAmount}
          placeholder="5.00"
          testId="card-move-amount"
        />
      </Field>
      <SubmitButton variant="secondary" busy={busy} disabled={minor === null} testId="card-move-submit">
        Send
      </SubmitButton>
    </form>
  );
}

const ACTIONS: { action: TransactionAction; label: string }[] = [
  { action: 'settle', label: 'Settle' },
  { action: 'decline', label: 'Decline' },
  { action: 'reverse', label: 'Reverse' },
];

const TYPE_LABEL: Record<CardTransaction['type'], string> = {
  card_payment: 'Card payment',
  card_refund: 'Merchant refund',
  card_deposit: 'Deposit',
  card_withdraw: 'Withdrawal',
};

function TransactionRow({ tx }: { tx: CardTransaction }) {
  const decideTransaction = useStore((s) => s.decideTransaction);
  const [busy, run] = useBusy();
  return (
    <tr data-testid="tx-row" data-tx-id={tx.id} data-status={tx.status} data-type={tx.type}>
      <td className="nowrap">{formatTimestamp(tx.created_at)}</td>
      <td>
        <span className="strong">{tx.merchant_name ?? TYPE_LABEL[tx.type]}</span>
        <div className="muted small">
          {humanize(tx.type)}
          {tx.channel ? ` · ${tx.channel === 'present' ? 'in person' : 'online'}` : ''}
        </div>
      </td>
      <td className={`num nowrap ${tx.amount < 0 ? 'delta-out' : 'delta-in'}`} data-testid="tx-amount">
        {tx.amount > 0 ? '+' : ''}
        {formatAmount(tx.amount)} {tx.currency}
      </td>
      <td>
        <StatusBadge status={tx.status} tone={TX_TONE[tx.status]} testId="tx-status" />
        {tx.decline_reason && (
          <div className="muted small" data-testid="tx-decline-reason" title={tx.decline_reason}>
            {declineInWords(tx.decline_reason)}
          </div>
        )}
      </td>
      <td className="actions">
        {tx.type === 'card_payment' && tx.status === 'requested' && (
          <span className="button-group">
            {ACTIONS.map(({ action, label }) => (
              <button
                key={action}
                type="button"
                className={`btn btn-sm ${action === 'settle' ? 'btn-secondary' : 'btn-ghost'}`}
                disabled={busy}
                onClick={() => void run(() => decideTransaction(tx, action))}
                data-testid={`tx-${action}`}
              >
                {label}
              </button>
            ))}
          </span>
        )}
      </td>
    </tr>
  );
}

/** The card network for the selected card: authorizations, then settle, decline or reverse each. */
export function CardNetwork() {
  const card = useStore((s) => s.cardholderDetail?.cards.find((c) => c.id === s.selectedCardId) ?? null);
  const transactions = useStore((s) => s.cardTransactions);
  if (!card) return null;
  return (
    <Card
      title={`Card network · •••• ${card.last4}`}
      subtitle="An authorization holds the funds (or is declined by the card rules) until it settles or is released."
      testId="card-network"
    >
      <AuthorizeForm cardId={card.id} />
      <MoveForm key={card.id} card={card} />
      {transactions.length === 0 ? (
        <p className="empty empty-inline list-below-form">No transactions on this card yet.</p>
      ) : (
        <div className="table-wrap table-below-form">
          <table className="table">
            <thead>
              <tr>
                <th>When</th>
                <th>Description</th>
                <th className="num">Amount</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {transactions.map((tx) => (
                <TransactionRow key={tx.id} tx={tx} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
