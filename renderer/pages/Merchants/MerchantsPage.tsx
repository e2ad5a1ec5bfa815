import { Card } from '../../components/Card';
import { useStore } from '../../store';
import { CreateMerchantForm } from './CreateMerchantForm';
import { MerchantDetail } from './MerchantDetail';
import { MerchantList } from './MerchantList';

export function MerchantsPage() {
  const selected = useStore((s) => s.selectedMerchantId);
  return (
    <div className="grid-master-detail">
      <div className="stack">
        <Card title="New merchant" subtitle="Comes with an owner API key.">
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
            <p className="empty">Select or create a merchant to see its API keys.</p>
          </Card>
        )}
      </div>
    </div>
  );
}
