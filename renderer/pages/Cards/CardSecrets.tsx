import { useState } from 'react';
import type { CardSecrets as Secrets } from '../../api/card-secrets';
import type { PaymentCard } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';

/** 4242424242424242 → "4242 4242 4242 4242". */
const grouped = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * "Reveal" for the selected card: the browser makes the session key, the server answers PAN, CVC
 * and PIN encrypted under it, the browser decrypts (api/card-secrets.ts). Shown until another card
 * is selected or Hide; kept in this component only, never in the store.
 */
export function CardSecrets() {
  const card = useStore((s) => s.cardholderDetail?.cards.find((c) => c.id === s.selectedCardId) ?? null);
  // Keyed by card: selecting another card starts from hidden.
  return card ? <Reveal key={card.id} card={card} /> : null;
}

function Reveal({ card }: { card: PaymentCard }) {
  const revealCard = useStore((s) => s.revealCard);
  const [secrets, setSecrets] = useState<Secrets | null>(null);
  const [busy, run] = useBusy();
  const reveal = () =>
    run(async () => {
      const got = await revealCard(card);
      setSecrets(got);
      return got !== null;
    });

  return (
    <Card
      title={`Card secrets · •••• ${card.last4}`}
      subtitle="Card number, security code and PIN, sent encrypted end to end: only this page can read them."
      actions={
        secrets ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setSecrets(null)}
            data-testid="card-secrets-hide"
          >
            Hide
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy}
            onClick={() => void reveal()}
            data-testid="card-reveal"
          >
            {busy ? 'Decrypting…' : 'Reveal'}
          </button>
        )
      }
      testId="card-secrets"
    >
      {secrets ? (
        <dl className="facts facts-row">
          <div>
            <dt>Card number</dt>
            <dd className="mono" data-testid="card-secret-pan" data-value={secrets.pan}>
              {grouped(secrets.pan)} <CopyButton value={secrets.pan} label="Copy" />
            </dd>
          </div>
          <div>
            <dt>CVC</dt>
            <dd className="mono" data-testid="card-secret-cvc">
              {secrets.cvc}
            </dd>
          </div>
          <div>
            <dt>PIN</dt>
            <dd className="mono" data-testid="card-secret-pin">
              {secrets.pin}
            </dd>
          </div>
        </dl>
      ) : (
        <p className="muted small">
          <span className="mono">•••• •••• •••• {card.last4}</span> · CVC ••• · PIN ••••
        </p>
      )}
    </Card>
  );
}
