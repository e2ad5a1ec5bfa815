import type { Clock } from '../clock.js';
import type { Env } from '../contract/common.js';
import type { Delivery, EndpointHealth, EndpointHealthState } from '../contract/webhooks.js';
import type { KvRepo } from '../db/kv.js';
import type { DeliveryRow, EndpointRow, WebhooksRepo } from '../db/webhooks.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../errors.js';
import type { Ids } from '../ids.js';
import type { WebhookDispatcher } from './dispatcher.js';
import { envelopeBody, type OutgoingDelivery } from './envelope.js';
import { presentDelivery } from './service.js';

export interface WorkbenchDeps {
  repo: WebhooksRepo;
  kv: Pick<KvRepo, 'get' | 'set'>;
  clock: Clock;
  ids: Ids;
  dispatcher: Pick<WebhookDispatcher, 'retry'>;
  atomically: <T>(fn: () => T) => T;
}

/** Where the listen secret is kept: with the workspace's settings, so a reset keeps it too. */
const LISTEN_SECRET_KEY = 'listen_secret';

/**
 * The webhook workbench: what the developer tools around endpoints read and do, beside the
 * endpoints themselves (./service.ts): listen's stable secret, each endpoint's health, and a
 * delivery resent to another endpoint.
 */
export class WebhookWorkbench {
  constructor(private readonly deps: WorkbenchDeps) {}

  /**
   * The one signing secret `svc-sandbox listen` gives every endpoint it makes: made on first use and
   * kept in the workspace (like `stripe listen`'s, it stays the same across runs), so a receiver
   * configured once keeps verifying after listen restarts.
   */
  listenSecret(): string {
    const stored = this.deps.kv.get<string>(LISTEN_SECRET_KEY);
    if (stored !== undefined) return stored;
    const secret = `whsec_${this.deps.ids.token(32)}`;
    this.deps.atomically(() => this.deps.kv.set(LISTEN_SECRET_KEY, secret));
    return secret;
  }

  /** The health of each endpoint of a merchant in one environment, in the list's order. */
  healthOfMerchant(endpoints: readonly Pick<EndpointRow, 'id' | 'merchant_id' | 'env'>[]): EndpointHealth[] {
    return endpoints.map((endpoint) => this.healthOf(endpoint));
  }

  health(id: string): EndpointHealth {
    const endpoint = this.deps.repo.findEndpoint(id);
    if (!endpoint) throw new NotFoundError('Webhook endpoint', id);
    return this.healthOf(endpoint);
  }

  endpointsOf(merchantId: string, env: Env): EndpointRow[] {
    return this.deps.repo.endpointsOf(merchantId, env);
  }

  private healthOf(endpoint: Pick<EndpointRow, 'id' | 'merchant_id' | 'env'>): EndpointHealth {
    const row = this.deps.repo.healthOf(endpoint);
    const state: EndpointHealthState =
      row.last_success_at === null && row.last_failure_at === null
        ? 'idle'
        : row.failure_streak === 0
          ? 'healthy'
          : row.given_up_in_streak > 0
            ? 'down'
            : 'failing';
    return {
      endpoint_id: endpoint.id,
      state,
      last_success_at: row.last_success_at,
      last_failure_at: row.last_failure_at,
      failure_streak: row.failure_streak,
      given_up: row.given_up,
      pending: row.pending,
      delivered: row.delivered,
    };
  }

  /**
   * Resend: delivery `id`'s payload as a new delivery to `endpointId` (same merchant and
   * environment), sent by the dispatcher like any other (listed, retried on failure). Resolves
   * after its first attempt.
   */
  async resend(id: string, endpointId: string): Promise<Delivery> {
    const source = this.deps.repo.findDelivery(id);
    if (!source) throw new NotFoundError('Delivery', id);
    const endpoint = this.deps.repo.findEndpoint(endpointId);
    if (!endpoint) throw new ValidationError('endpoint_id', `no such webhook endpoint: ${endpointId}`);
    if (endpoint.merchant_id !== source.merchant_id || endpoint.env !== source.env) {
      throw new ValidationError(
        'endpoint_id',
        `endpoint ${endpointId} is not one of merchant ${source.merchant_id}'s ${source.env} endpoints`,
      );
    }
    if (endpoint.disabled === 1) {
      throw new BusinessRuleError(`Webhook endpoint ${endpointId} is disabled: enable it to resend to it`);
    }
    const data = source.data ?? dataOfBody(source.verbatim_body);
    if (data === null) throw new BusinessRuleError(`Delivery ${id} has no payload left to resend`);
    const deliveryId = this.deps.ids.uuid();
    const now = this.deps.clock.nowIso();
    const row: DeliveryRow & OutgoingDelivery = {
      id: deliveryId,
      event_id: source.event_id,
      endpoint_id: endpoint.id,
      merchant_id: endpoint.merchant_id,
      env: endpoint.env,
      event: source.event,
      url: endpoint.url,
      // its own copy: the payload outlives a change of its event's row
      data,
      body: envelopeBody(deliveryId, source.event, data),
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: this.deps.clock.now(),
      created_at: now,
      updated_at: now,
    };
    this.deps.atomically(() => this.deps.repo.insertDelivery(row));
    const after = await this.deps.dispatcher.retry(row);
    return presentDelivery(after, this.deps.repo.attemptsOf(deliveryId));
  }
}

/** The `data` of a body kept whole by an older version, as JSON text (null when it has none). */
function dataOfBody(body: string | null): string | null {
  if (body === null) return null;
  try {
    const data = (JSON.parse(body) as { data?: unknown } | null)?.data;
    return data === undefined ? null : JSON.stringify(data);
  } catch {
    return null;
  }
}
