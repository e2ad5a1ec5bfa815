import { useEffect, useState } from 'react';
import type { Delivery, EndpointHealth, WebhookEndpoint } from '../../api/types';
import { listEndpointHealth, resendDelivery } from '../../api/workbench';
import { Breakable } from '../../components/Breakable';
import { useAnswerName, useEventName, usePresenting, useShown } from '../../components/Private';
import { StatusBadge, type Tone } from '../../components/StatusBadge';
import { useBusy } from '../../components/useBusy';
import { formatTimestamp, shorten } from '../../lib/format';
import { useStore } from '../../store';
import { currentScope } from '../../store/merchant-scope';
import { attempt } from '../../store/notices';
import './workbench.css';

// The webhook workbench on the Webhooks page: listen's endpoints marked as such, each endpoint's
// health (computed by the sandbox), and resending a delivery to another endpoint.

/**
 * The health of the current merchant's endpoints, by endpoint id: read again whenever the page's
 * endpoints or deliveries are (a new attempt changes both lists' reads).
 */
export function useEndpointHealth(): Map<string, EndpointHealth> {
  const scope = useStore((s) => currentScope(s)?.key ?? null);
  const endpoints = useStore((s) => s.endpoints);
  const deliveries = useStore((s) => s.deliveries);
  const [health, setHealth] = useState<{ scope: string | null; byId: Map<string, EndpointHealth> }>({
    scope: null,
    byId: new Map(),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the lists are what trigger a new read
  useEffect(() => {
    const current = currentScope(useStore.getState());
    if (!current) return;
    let live = true;
    listEndpointHealth(current.merchantId, current.env).then(
      (list) => {
        if (live) setHealth({ scope: current.key, byId: new Map(list.map((h) => [h.endpoint_id, h])) });
      },
      // A failed read leaves the badges as they were: the lists beside them say what went wrong.
      () => {},
    );
    return () => {
      live = false;
    };
  }, [scope, endpoints, deliveries]);
  return health.scope === scope ? health.byId : new Map();
}

const HEALTH: Record<EndpointHealth['state'], { tone: Tone; label: string }> = {
  idle: { tone: 'neutral', label: 'No deliveries yet' },
  healthy: { tone: 'success', label: 'Healthy' },
  failing: { tone: 'warning', label: 'Failing' },
  down: { tone: 'danger', label: 'Down' },
};

/** An endpoint's health: a badge, and the numbers behind it. */
export function HealthBadge({ health }: { health: EndpointHealth | undefined }) {
  if (!health) return null;
  const { tone, label } = HEALTH[health.state];
  const facts = [
    health.last_success_at ? `last success ${formatTimestamp(health.last_success_at)}` : 'no success yet',
    health.failure_streak > 0
      ? `${health.failure_streak} failed attempt${health.failure_streak === 1 ? '' : 's'} in a row`
      : undefined,
    health.given_up > 0
      ? `${health.given_up} deliver${health.given_up === 1 ? 'y' : 'ies'} given up`
      : undefined,
    health.pending > 0 ? `${health.pending} awaiting retry` : undefined,
  ].filter((f): f is string => f !== undefined);
  return (
    <div
      className="endpoint-health"
      data-testid="endpoint-health"
      data-state={health.state}
      data-failure-streak={health.failure_streak}
      data-given-up={health.given_up}
    >
      <StatusBadge status={health.state} tone={tone} label={label} testId="endpoint-health-badge" />
      {health.state !== 'idle' && (
        <span className="muted small" data-testid="endpoint-health-facts">
          {facts.join(' · ')}
        </span>
      )}
    </div>
  );
}

/** listen's endpoints: temporary (removed when listen stops), delivering to listen, which forwards. */
export function ListenLabel({ endpoint }: { endpoint: WebhookEndpoint }) {
  const shown = useShown();
  if (endpoint.forward_to === null) return null;
  return (
    <span className="listen-label" data-testid="endpoint-temporary">
      <StatusBadge status="temporary" tone="accent" label="temporary (listen)" />
      <span className="muted small">
        forwards to{' '}
        <code className="mono" data-testid="endpoint-forward-to">
          {shown(endpoint.forward_to)}
        </code>
      </span>
    </span>
  );
}

/** Where a delivery went: listen's forward-to URL for listen's endpoints, else the endpoint's URL. */
export function DeliveryTarget({ delivery }: { delivery: Delivery }) {
  const forwardTo = useStore(
    (s) => s.endpoints.find((e) => e.id === delivery.endpoint_id)?.forward_to ?? null,
  );
  // Presentation mode hides the ids in it (a listen URL carries the merchant's).
  const shown = useShown();
  const url = shown(forwardTo ?? delivery.url);
  return (
    <div className="muted small mono delivery-target" title={url} data-testid="delivery-target">
      <Breakable text={shorten(url, 18)} />
      {forwardTo !== null && ' (via listen)'}
    </div>
  );
}

/** "Resend to…": this delivery's payload, as a new delivery to one of the merchant's endpoints. */
export function ResendControl({ delivery }: { delivery: Delivery }) {
  const all = useStore((s) => s.endpoints);
  const endpoints = all.filter((e) => !e.disabled);
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState('');
  const [busy, run] = useBusy();
  const shown = useShown();
  const presenting = usePresenting();
  const eventName = useEventName();
  const answer = useAnswerName();
  // While presenting an address reads in words ("built-in inbox “northwind”"), whole.
  const where = (endpoint: WebhookEndpoint, keep: number) =>
    presenting
      ? shown(endpoint.forward_to ?? endpoint.url)
      : shorten(endpoint.forward_to ?? endpoint.url, keep);
  const chosen =
    endpoints.find((e) => e.id === target) ??
    endpoints.find((e) => e.id !== delivery.endpoint_id) ??
    endpoints[0];
  if (!open) {
    return (
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={endpoints.length === 0}
        title={endpoints.length === 0 ? 'No enabled endpoint to resend to' : undefined}
        onClick={() => setOpen(true)}
        data-testid="delivery-resend"
      >
        Resend to…
      </button>
    );
  }
  const send = () =>
    run(() =>
      attempt(useStore.getState, async () => {
        if (!chosen) return;
        const after = await resendDelivery(delivery.id, chosen.id);
        const last = after.attempts[after.attempts.length - 1];
        useStore
          .getState()
          .notify(
            after.status === 'delivered' ? 'success' : 'error',
            `Resent ${eventName(delivery.event)} to ${shown(chosen.forward_to ?? chosen.url)}: ${
              last?.response_status
                ? answer(last.response_status)
                : presenting
                  ? 'no answer'
                  : (last?.error ?? 'no answer')
            } (${after.status}).`,
          );
        setOpen(false);
        await useStore.getState().loadDeliveries();
      }),
    );
  return (
    <span className="resend-control" data-testid="delivery-resend-form">
      <select
        className="input input-sm"
        aria-label="Resend to endpoint"
        value={chosen?.id ?? ''}
        onChange={(e) => setTarget(e.target.value)}
        data-testid="delivery-resend-target"
      >
        {endpoints.map((endpoint) => (
          <option key={endpoint.id} value={endpoint.id}>
            {where(endpoint, 24)}
            {endpoint.id === delivery.endpoint_id ? ' (this one)' : ''}
            {endpoint.forward_to !== null ? ' (listen)' : ''}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={busy || !chosen}
        onClick={() => void send()}
        data-testid="delivery-resend-send"
      >
        {busy ? 'Sending…' : 'Send'}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={() => setOpen(false)}
        data-testid="delivery-resend-cancel"
      >
        Cancel
      </button>
    </span>
  );
}
