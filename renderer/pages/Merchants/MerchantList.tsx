import { Private } from '../../components/Private';
import { useStore } from '../../store';

export function MerchantList() {
  const merchants = useStore((s) => s.merchants);
  const loaded = useStore((s) => s.merchantsLoaded);
  const selected = useStore((s) => s.selectedMerchantId);
  const selectMerchant = useStore((s) => s.selectMerchant);

  if (loaded && merchants.length === 0) {
    return (
      <p className="empty" data-testid="merchants-empty">
        No merchants yet. Create one to get an owner API key.
      </p>
    );
  }
  return (
    <ul className="merchant-list" data-testid="merchant-list">
      {merchants.map((merchant) => (
        <li key={merchant.id}>
          <button
            type="button"
            className={`merchant-item ${merchant.id === selected ? 'selected' : ''}`}
            onClick={() => void selectMerchant(merchant.id)}
            data-testid="merchant-item"
            data-merchant-id={merchant.id}
          >
            <span className="avatar" aria-hidden="true">
              {merchant.name.trim().charAt(0).toUpperCase() || '?'}
            </span>
            <span className="merchant-item-text">
              <span className="merchant-item-name">{merchant.name}</span>
              <span className="merchant-item-sub">
                {merchant.country ?? ''}
                <Private>
                  {merchant.country ? ' · ' : ''}
                  <span className="mono">{merchant.id.slice(0, 8)}</span>
                </Private>
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
