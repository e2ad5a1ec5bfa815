import type { Clock } from '../clock.js';
import type { InboxRepo } from '../db/inbox.js';
import type { WebhooksRepo } from '../db/webhooks.js';
import { readHeaders } from './envelope.js';
import { verify } from './signing.js';

export interface InboxMessage {
  id: number;
  received_at: string;
  headers: Record<string, string>;
  body: string;
  /** Whether X-SVC-Signature matched the endpoint's secret; null when the delivery is unknown. */
  signature_valid: boolean | null;
  response_status: number;
}

export interface Inbox {
  name: string;
  response_status: number;
  messages: InboxMessage[];
}

/**
 * A built-in webhook receiver, so a demo or a first try needs no server of the user's own. It
 * answers with the status set for it (default 200) to rehearse failures, and keeps what arrived.
 */
export class InboxService {
  constructor(private readonly deps: { repo: InboxRepo; webhooks: WebhooksRepo; clock: Clock }) {}

  receive(name: string, headers: Record<string, string>, body: string): number {
    this.deps.repo.ensure({ name, response_status: 200, created_at: this.deps.clock.nowIso() });
    const inbox = this.deps.repo.find(name)!;
    const { deliveryId, signature } = readHeaders(headers);
    const delivery = deliveryId ? this.deps.webhooks.findDelivery(deliveryId) : undefined;
    const endpoint = delivery ? this.deps.webhooks.findEndpoint(delivery.endpoint_id) : undefined;
    const valid = endpoint ? verify(endpoint.secret, body, signature) : null;
    this.deps.repo.insertMessage({
      inbox: name,
      received_at: this.deps.clock.nowIso(),
      headers: JSON.stringify(headers),
      body,
      signature_valid: valid === null ? null : valid ? 1 : 0,
      response_status: inbox.response_status,
    });
    return inbox.response_status;
  }

  configure(name: string, responseStatus: number): Inbox {
    this.deps.repo.upsert({ name, response_status: responseStatus, created_at: this.deps.clock.nowIso() });
    return this.get(name);
  }

  get(name: string, limit = 100): Inbox {
    const inbox = this.deps.repo.find(name);
    return {
      name,
      response_status: inbox?.response_status ?? 200,
      messages: this.deps.repo.messages(name, limit).map((m) => ({
        id: m.id,
        received_at: m.received_at,
        headers: JSON.parse(m.headers) as Record<string, string>,
        body: m.body,
        signature_valid: m.signature_valid === null ? null : m.signature_valid === 1,
        response_status: m.response_status,
      })),
    };
  }

  list(): { name: string; response_status: number }[] {
    return this.deps.repo.all().map(({ name, response_status }) => ({ name, response_status }));
  }

  clear(name: string): void {
    this.deps.repo.clear(name);
  }
}
