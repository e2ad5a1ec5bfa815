import type { KybStatus } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { Fact } from '../../components/DetailHead';
import { KeyIcon } from '../../components/icons';
import { Private } from '../../components/Private';
import type { Tone } from '../../components/StatusBadge';
import { describeStatus, formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { ApiKeysList } from './ApiKeysList';
import { CreateKeyForm } from './CreateKeyForm';

/** KYB statuses shown with the shared badge tones. */
const KYB_TONE: Record<KybStatus, Tone> = {
  draft: 'neutral',
  approved: 'success',
  pending: 'warning',
  rejected: 'danger',
};

export function MerchantDetail({ merchantId }: { merchantId: string }) {
  const merchant = useStore((s) => s.merchants.find((m) => m.id === merchantId));
  const keys = useStore((s) => s.keysByMerchant[merchantId]);
  if (!merchant) return null;
  const active = keys?.filter((k) => !k.revoked_at).length ?? 0;

  return (
    <div className="stack" data-testid="merchant-detail" data-merchant-id={merchant.id}>
      <Card>
        <div className="merchant-head">
          <span className="avatar avatar-lg" aria-hidden="true">
            {merchant.name.trim().charAt(0).toUpperCase() || '?'}
          </span>
          <div className="merchant-head-text">
            <h2 className="merchant-name" data-testid="merchant-name">
              {merchant.name}
            </h2>
            <Private>
              <div className="merchant-id">
                <code className="mono" data-testid="merchant-id">
                  {merchant.id}
                </code>
                <CopyButton value={merchant.id} label="Copy id" />
              </div>
            </Private>
          </div>
          <span
            className={`badge badge-lg badge-tone-${KYB_TONE[merchant.kyb_status]}`}
            title="KYB status"
            data-testid="merchant-kyb"
            data-status={merchant.kyb_status}
          >
            KYB {describeStatus(merchant.kyb_status)}
          </span>
        </div>
        <dl className="facts facts-row">
          <Fact label="Legal name">{merchant.legal_name ?? '—'}</Fact>
          <Fact label="Country">{merchant.country ?? '—'}</Fact>
          <Fact label="Platform rate">
            {merchant.platform_rate === null ? 'Sandbox default' : `${merchant.platform_rate} bps`}
          </Fact>
          <Fact label="Created">{formatTimestamp(merchant.created_at)}</Fact>
        </dl>
      </Card>
      {/* How an integration signs in: developer material, so not there at all while presenting. */}
      <Private>
        <Card
          title={
            <span className="title-with-icon">
              <KeyIcon /> API keys
            </span>
          }
          subtitle={`${active} active. Send one as “Authorization: Bearer <key>” to either address; sandbox keys stay viewable.`}
          testId="api-keys"
        >
          <CreateKeyForm merchantId={merchant.id} />
          {keys ? <ApiKeysList keys={keys} /> : <p className="empty">Loading keys…</p>}
        </Card>
      </Private>
    </div>
  );
}
