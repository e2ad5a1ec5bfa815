import { Card } from '../../components/Card';
import { Private, useWords } from '../../components/Private';
import { ScopeGate } from '../../components/ScopeGate';
import { useScopedLoad } from '../../components/useScopedLoad';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { CardholderDetail } from './CardholderDetail';
import { CardholderList, NewCardholderForm } from './Cardholders';
import { PublicKeyCard } from './PublicKeyCard';
import './cards.css';

export function CardsPage() {
  const loadCards = useStore((s) => s.loadCards);
  useScopedLoad(loadCards);
  const selected = useStore((s) => (s.cardholdersScope === scopeKey(s) ? s.selectedCardholderId : null));
  const env = useStore((s) => s.env);
  const words = useWords();
  return (
    <ScopeGate>
      <div className="stack">
        <div className="grid-master-detail">
          <div className="stack">
            <Card
              title="New cardholder"
              subtitle={words(
                `Created in ${env} as the merchant’s owner (POST /v1/cardholders).`,
                'A team member who gets company cards, once their identity is checked.',
              )}
            >
              <NewCardholderForm />
            </Card>
            <CardholderList />
          </div>
          <div>
            {selected ? (
              <CardholderDetail holderId={selected} />
            ) : (
              <Card>
                <p className="empty">Select or create a cardholder to verify them and issue cards.</p>
              </Card>
            )}
          </div>
        </div>
        <Private>
          <PublicKeyCard />
        </Private>
      </div>
    </ScopeGate>
  );
}
