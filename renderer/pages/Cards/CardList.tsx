import type { CardProduct, PaymentCard } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { StatusBadge } from '../../components/StatusBadge';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';
import { CARD_TONE } from './status';

function CardActions({ card }: { card: PaymentCard }) {
  const cardAction = useStore((s) => s.cardAction);
  const [busy, run] = useBusy();
  if (card.status === 'canceled') return null;
  return (
    <span className="button-group">
      {card.status === 'notActivated' && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={busy}
          onClick={() => void run(() => cardAction(card, 'activate'))}
          data-testid="card-activate"
        >
          Activate
        </button>
      )}
      {card.status === 'active' && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={busy}
          onClick={() => void run(() => cardAction(card, 'lock'))}
          data-testid="card-lock"
        >
          Lock
        </button>
      )}
      {card.status === 'locked' && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={busy}
          onClick={() => void run(() => cardAction(card, 'unlock'))}
          data-testid="card-unlock"
        >
          Unlock
        </button>
      )}
      <ConfirmButton
        label="Cancel"
        confirmLabel="Cancel card"
        busyLabel="Cancelling…"
        onConfirm={() => cardAction(card, 'cancel')}
        testId="card-cancel"
      />
    </span>
  );
}

export function CardList({ cards, products }: { cards: PaymentCard[]; products: CardProduct[] }) {
  const selected = useStore((s) => s.selectedCardId);
  const selectCard = useStore((s) => s.selectCard);
  if (cards.length === 0) return <p className="empty list-below-form">No cards yet.</p>;
  return (
    <ul className="card-tiles" data-testid="card-list">
      {cards.map((card) => (
        <li
          key={card.id}
          className={`card-tile ${card.id === selected ? 'selected' : ''} ${card.status}`}
          data-testid="card-row"
          data-card-id={card.id}
          data-status={card.status}
        >
          <button type="button" className="card-tile-main" onClick={() => void selectCard(card.id)}>
            <span className={`card-face card-face-${card.ctype}`} aria-hidden="true">
              <span className="card-face-chip" />
            </span>
            <span className="card-tile-text">
              <span className="card-number mono" data-testid="card-last4">
                •••• {card.last4}
              </span>
              <span className="muted small">
                {products.find((p) => p.id === card.catalogue_id)?.name ?? card.ctype} · exp {card.exp_month}/
                {card.exp_year.slice(-2)}
              </span>
            </span>
          </button>
          <StatusBadge status={card.status} tone={CARD_TONE[card.status]} testId="card-status" />
          <CardActions card={card} />
        </li>
      ))}
    </ul>
  );
}
