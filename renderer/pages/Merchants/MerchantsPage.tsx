import { Card } from '../../components/Card';
import { useWords } from '../../components/Private';
import { useStore } from '../../store';
import { CreateMerchantForm } from './CreateMerchantForm';
import { MerchantDetail } from './MerchantDetail';
import { MerchantList } from './MerchantList';

export function MerchantsPage() {
  const selected = useStore((s) => s.selectedMerchantId);
  const words = useWords();
  return (
    <div className="grid-master-detail">
      <div className="stack">
        <Card
          title="New merchant"
          subtitle={words('Comes with an owner API key.', 'A business of its own, with its own payments.')}
        >
          <CreateMerchantForm />
        </Card>
        <Card title="Merchants" className="card-flush">
          <MerchantList />
        </Card>
      </div>
      <div>
        {selected ? (
          <MerchantDetail merchantId={selected} />
        ) : (
          <Card>
            <p className="empty">
              {words(
                'Select or create a merchant to see its API keys.',
                'Select a merchant to see its details.',
              )}
            </p>
          </Card>
        )}
      </div>
    </div>
  );
}
