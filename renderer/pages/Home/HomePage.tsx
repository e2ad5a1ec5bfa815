import { lazy, Suspense, useMemo } from 'react';
import type { CheckoutStatus } from '../../api/types';
import { Card } from '../../components/Card';
import { ScopeGate } from '../../components/ScopeGate';
import { StatusBadge } from '../../components/StatusBadge';
import { useScopedLoad } from '../../components/useScopedLoad';
import { describeEvent } from '../../lib/activity';
import { formatMoney, formatTimestamp } from '../../lib/format';
import {
  CHART_DAYS,
  cardSpend,
  checkoutsByStatus,
  type DailySeries,
  paidVolume,
  totals,
  webhookHealth,
} from '../../lib/insights';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { CHECKOUT_TONE, checkoutLabel } from '../Checkouts/status';
import type { ChartSeries } from './Chart';
import { Stories } from './Stories';

// The chart library is a chunk of its own, fetched after the figures are on screen. If it cannot
// load (offline mid-update, or a browser locale its number format refuses, such as `en-US@posix`),
// the figures stay and the chart says so, rather than the whole page failing.
const Chart = lazy(async () => {
  try {
    return { default: (await import('./Chart')).Chart };
  } catch {
    return { default: ChartUnavailable };
  }
});

function ChartUnavailable({ testId }: { testId?: string }) {
  return (
    <p className="muted small" data-testid={testId}>
      The chart could not be shown in this browser.
    </p>
  );
}

const PALETTE = ['#4f46e5', '#0e9384', '#dc6803', '#7a5af8', '#e31b54'];
const MINOR = 1_000_000;

/** Minor units per day → chart series in major units, one per currency. */
function toSeries(series: DailySeries): ChartSeries[] {
  return Object.entries(series.byCurrency).map(([currency, values], i) => ({
    label: currency,
    values: values.map((v) => v / MINOR),
    color: PALETTE[i % PALETTE.length]!,
  }));
}

const chartValue = (value: number, currency: string) => formatMoney(Math.round(value * MINOR), currency);

function MoneyList({ sums, testId }: { sums: Record<string, number>; testId: string }) {
  const entries = Object.entries(sums).filter(([, v]) => v !== 0);
  if (entries.length === 0) return <span className="kpi-value muted">—</span>;
  return (
    <>
      {entries.map(([currency, amount]) => (
        <span className="kpi-value" key={currency} data-testid={testId}>
          {formatMoney(amount, currency)}
        </span>
      ))}
    </>
  );
}

function Balances() {
  const balances = useStore((s) => s.homeBalances);
  return (
    <section className="kpi kpi-balances" data-testid="home-balances">
      <h2 className="kpi-label">Balance</h2>
      {balances.length === 0 ? (
        <span className="kpi-value muted">0.00</span>
      ) : (
        balances.map((b) => (
          <div key={b.currency} className="kpi-line">
            <span className="kpi-value" data-testid="home-balance">
              {formatMoney(b.available, b.currency)}
            </span>
            {b.held > 0 && <span className="muted small">+ {formatMoney(b.held, b.currency)} on hold</span>}
          </div>
        ))
      )}
    </section>
  );
}

function ChartCard({
  title,
  subtitle,
  series,
  kind,
  testId,
  empty,
}: {
  title: string;
  subtitle: string;
  series: DailySeries;
  kind: 'area' | 'bars';
  testId: string;
  empty: string;
}) {
  const lines = useMemo(() => toSeries(series), [series]);
  return (
    <Card title={title} subtitle={subtitle} testId={testId} className="chart-card">
      {lines.length === 0 ? (
        <p className="empty empty-inline">{empty}</p>
      ) : (
        <Suspense fallback={<div className="chart chart-loading" />}>
          <Chart
            days={series.days}
            series={lines}
            kind={kind}
            format={chartValue}
            testId={`${testId}-chart`}
          />
        </Suspense>
      )}
    </Card>
  );
}

function CheckoutStatuses() {
  const checkouts = useStore((s) => s.homeCheckouts);
  const rows = useMemo(() => checkoutsByStatus(checkouts), [checkouts]);
  const most = rows[0]?.count ?? 1;
  return (
    <Card
      title="Checkouts by status"
      subtitle={`${checkouts.length} checkout${checkouts.length === 1 ? '' : 's'} in all`}
      actions={
        <a className="btn btn-secondary btn-sm" href="#/checkouts">
          Open checkouts
        </a>
      }
      testId="home-statuses"
    >
      {rows.length === 0 ? (
        <p className="empty empty-inline">No checkouts yet.</p>
      ) : (
        <ul className="status-bars">
          {rows.map(({ status, count }) => (
            <li key={status} className="status-bar" data-testid="home-status" data-status={status}>
              <StatusBadge
                status={status}
                tone={CHECKOUT_TONE[status as CheckoutStatus] ?? 'neutral'}
                label={checkoutLabel(status)}
              />
              <span className="status-bar-track" aria-hidden="true">
                <span
                  className={`status-bar-fill tone-${CHECKOUT_TONE[status as CheckoutStatus] ?? 'neutral'}`}
                  style={{ width: `${Math.max(4, (count / most) * 100)}%` }}
                />
              </span>
              <span className="status-bar-count">{count}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function WebhookHealthCard() {
  const deliveries = useStore((s) => s.homeDeliveries);
  const health = useMemo(() => webhookHealth(deliveries), [deliveries]);
  const { rate } = health;
  return (
    <Card
      title="Webhook health"
      subtitle="Notifications sent to the merchant’s servers"
      actions={
        <a className="btn btn-secondary btn-sm" href="#/webhooks">
          Open webhooks
        </a>
      }
      testId="home-webhooks"
    >
      {deliveries.length === 0 ? (
        <p className="empty empty-inline">No notifications sent yet.</p>
      ) : (
        <div className="health">
          <div className="health-rate">
            <span className="kpi-value" data-testid="home-webhook-rate">
              {rate === null ? '—' : `${rate}%`}
            </span>
            <span className="muted small">delivered</span>
          </div>
          <dl className="health-facts">
            <div>
              <dt>Delivered</dt>
              <dd>{health.delivered}</dd>
            </div>
            <div>
              <dt>First try</dt>
              <dd>{health.firstTry}</dd>
            </div>
            <div>
              <dt>Retrying</dt>
              <dd className={health.retrying ? 'text-warning' : ''} data-testid="home-webhook-retrying">
                {health.retrying}
              </dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd className={health.failed ? 'text-danger' : ''} data-testid="home-webhook-failed">
                {health.failed}
              </dd>
            </div>
          </dl>
        </div>
      )}
    </Card>
  );
}

function Activity() {
  const events = useStore((s) => s.homeActivity);
  const more = useStore((s) => s.homeActivityMore);
  const moreActivity = useStore((s) => s.moreActivity);
  return (
    <Card title="Recent activity" subtitle="Everything that happened, newest first" testId="home-activity">
      {events.length === 0 ? (
        <p className="empty empty-inline">Nothing has happened yet.</p>
      ) : (
        <>
          <ul className="activity">
            {events.map((event) => {
              const line = describeEvent(event);
              return (
                <li
                  key={event.id}
                  className="activity-item"
                  data-testid="home-activity-item"
                  data-type={event.type}
                >
                  <span className={`activity-dot activity-${line.tone}`} aria-hidden="true" />
                  <span className="activity-text">
                    <span className="activity-headline">{line.headline}</span>
                    {line.detail && <span className="muted"> · {line.detail}</span>}
                  </span>
                  {line.amount && <span className="activity-amount">{line.amount}</span>}
                  <span className="activity-time muted small">{formatTimestamp(event.created_at)}</span>
                </li>
              );
            })}
          </ul>
          {more && (
            <button
              type="button"
              className="btn btn-secondary btn-sm activity-more"
              onClick={() => void moreActivity()}
              data-testid="home-activity-more"
            >
              Show earlier activity
            </button>
          )}
        </>
      )}
    </Card>
  );
}

function Dashboard() {
  const checkouts = useStore((s) => s.homeCheckouts);
  const cards = useStore((s) => s.homeCards);
  const now = useStore((s) => s.homeNow);
  const volume = useMemo(() => paidVolume(checkouts, now ?? 0), [checkouts, now]);
  const spend = useMemo(() => cardSpend(cards, now ?? 0), [cards, now]);
  const received = useMemo(() => totals(volume), [volume]);
  const spent = useMemo(() => totals(spend), [spend]);
  const paidCount = checkouts.filter((c) => c.paid_at).length;
  return (
    <div className="home">
      <Stories />
      <div className="kpis">
        <Balances />
        <section className="kpi" data-testid="home-received">
          <h2 className="kpi-label">Received · last {CHART_DAYS} days</h2>
          <MoneyList sums={received} testId="home-received-value" />
          <span className="muted small">
            {paidCount} paid checkout{paidCount === 1 ? '' : 's'}
          </span>
        </section>
        <section className="kpi" data-testid="home-card-spend">
          <h2 className="kpi-label">Card spend · last {CHART_DAYS} days</h2>
          <MoneyList sums={spent} testId="home-card-spend-value" />
          <span className="muted small">{cards.filter((c) => c.status === 'declined').length} declined</span>
        </section>
      </div>
      <div className="home-grid">
        <ChartCard
          title="Money received"
          subtitle={`Paid checkouts per day, last ${CHART_DAYS} days (UTC)`}
          series={volume}
          kind="area"
          testId="home-volume"
          empty="No payments in the last 30 days."
        />
        <CheckoutStatuses />
        <ChartCard
          title="Card spend"
          subtitle={`Card payments per day, last ${CHART_DAYS} days (UTC)`}
          series={spend}
          kind="bars"
          testId="home-spend"
          empty="No card payments in the last 30 days."
        />
        <WebhookHealthCard />
      </div>
      <Activity />
    </div>
  );
}

/** The merchant at a glance: money, charts, checkouts, cards, webhooks and what happened. */
export function HomePage() {
  const loadHome = useStore((s) => s.loadHome);
  useScopedLoad(loadHome);
  const ready = useStore((s) => s.homeScope !== null && s.homeScope === scopeKey(s));
  return (
    <ScopeGate>
      {ready ? (
        <Dashboard />
      ) : (
        <p className="muted" data-testid="home-loading">
          Loading…
        </p>
      )}
    </ScopeGate>
  );
}
