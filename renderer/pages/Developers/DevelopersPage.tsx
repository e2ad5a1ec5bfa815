import { API_REFERENCE_PATH, OPENAPI_DOCUMENT_PATH } from '../../api/links';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { useSandboxNow } from '../../components/useSandboxNow';
import { formatDate, formatOffset, formatTime } from '../../lib/format';
import { useStore } from '../../store';
import { LiveEvents } from './LiveEvents';

const ADDRESSES = [
  {
    id: 'test',
    label: 'Test API',
    hint: 'Point your integration here. Resources are created in the test environment.',
  },
  {
    id: 'production',
    label: 'Production API',
    hint: 'Simulated production: its own resources and RSA key pair. Provisioning works only here.',
  },
  { id: 'dashboard', label: 'Dashboard', hint: 'This dashboard, in any browser on this machine.' },
] as const;

function Addresses() {
  const urls = useStore((s) => s.urls);
  return (
    <Card
      title="Server addresses"
      subtitle="Both addresses serve the whole /v1 API. Merchants, users and API keys are shared."
      testId="addresses"
    >
      <ul className="address-list">
        {ADDRESSES.map(({ id, label, hint }) => (
          <li key={id} className="address-row">
            <div className="address-meta">
              <span className={`env-tag env-${id}`}>{label}</span>
              <span className="muted small">{hint}</span>
            </div>
            <div className="address-value">
              <code className="mono" data-testid={`url-${id}`}>
                {urls ? urls[id] : '…'}
              </code>
              {urls && <CopyButton value={urls[id]} testId={`url-${id}-copy`} />}
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ClockSummary() {
  const now = useSandboxNow();
  const clock = useStore((s) => s.clock);
  return (
    <Card
      title="Sandbox clock"
      actions={
        <a className="btn btn-secondary btn-sm" href="#/clock">
          Open clock
        </a>
      }
    >
      <div className="clock-summary">
        <div className="clock-summary-time mono">{now === null ? '—' : formatTime(now)}</div>
        <div className="muted">{now === null ? '' : `${formatDate(now)} · UTC`}</div>
        {clock && (
          <div className="clock-summary-state">
            <span className={`pill ${clock.frozen ? 'pill-frozen' : 'pill-running'}`}>
              {clock.frozen ? 'Frozen' : 'Running'}
            </span>
            <span className="muted small">{formatOffset(clock.offset_ms)}</span>
          </div>
        )}
      </div>
    </Card>
  );
}

function QuickStart() {
  const urls = useStore((s) => s.urls);
  const merchants = useStore((s) => s.merchants);
  const selected = useStore((s) => s.selectedMerchantId);
  const keys = useStore((s) => (selected ? s.keysByMerchant[selected] : undefined));
  const key = keys?.find((k) => !k.revoked_at);
  const base = urls?.test ?? 'http://127.0.0.1:4010';
  const command = `curl ${base}/v1/checkouts \\\n  -H "Authorization: Bearer ${key?.key ?? 'svcb_…'}"`;
  return (
    <Card
      title="Quick start"
      subtitle={
        key
          ? `Using the “${key.name}” key of ${merchants.find((m) => m.id === selected)?.name ?? 'the selected merchant'}.`
          : 'Create a merchant to get an owner API key.'
      }
      actions={
        key ? (
          <CopyButton value={command.replace(/\\\n\s+/g, '')} label="Copy command" />
        ) : (
          <a className="btn btn-primary btn-sm" href="#/merchants">
            Create a merchant
          </a>
        )
      }
    >
      <pre className="code-block">{command}</pre>
    </Card>
  );
}

function Workspace() {
  const merchants = useStore((s) => s.merchants);
  const urls = useStore((s) => s.urls);
  return (
    <Card title="Workspace">
      <dl className="facts">
        <div>
          <dt>Merchants</dt>
          <dd data-testid="stat-merchants">
            <a href="#/merchants">{merchants.length}</a>
          </dd>
        </div>
        <div>
          <dt>API reference</dt>
          <dd className="link-list">
            {urls ? (
              <>
                <a
                  href={`${urls.test}${API_REFERENCE_PATH}`}
                  target="_blank"
                  rel="noreferrer"
                  data-testid="api-reference"
                >
                  Read the API reference
                </a>
                <a href={`${urls.test}${OPENAPI_DOCUMENT_PATH}`} target="_blank" rel="noreferrer">
                  OpenAPI document (JSON)
                </a>
              </>
            ) : (
              '…'
            )}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

/** What a developer needs: where the sandbox listens, a first call, the API reference, the clock and the live stream. */
export function DevelopersPage() {
  return (
    <div className="grid-overview">
      <div className="stack">
        <Addresses />
        <QuickStart />
        <LiveEvents />
      </div>
      <div className="stack">
        <ClockSummary />
        <Workspace />
      </div>
    </div>
  );
}
