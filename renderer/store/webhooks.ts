import * as api from '../api/sandbox';
import type { CreateEndpointBody, Delivery, DeliveryStatus, Inbox, WebhookEndpoint } from '../api/types';
import { attempt } from './notices';
import { currentScope, serialized, stillCurrent } from './scope';
import type { Slice } from './types';

export type DeliveryFilter = DeliveryStatus | 'all';

/** The built-in receiver the dashboard offers by default (`/sandbox/inbox/demo`). */
export const DEFAULT_INBOX = 'demo';

export interface WebhooksSlice {
  endpoints: WebhookEndpoint[];
  deliveries: Delivery[];
  /** The scope and filter (`merchant/env/status`) the deliveries were read for. */
  deliveriesFor: string | null;
  /** The scope endpoints and deliveries were read for. */
  webhooksScope: string | null;
  deliveryFilter: DeliveryFilter;
  inboxName: string;
  inbox: Inbox | null;
  loadWebhooks: () => Promise<void>;
  loadDeliveries: () => Promise<void>;
  loadInbox: () => Promise<void>;
  setDeliveryFilter: (filter: DeliveryFilter) => Promise<void>;
  setInboxName: (name: string) => Promise<void>;
  createEndpoint: (input: CreateEndpointBody) => Promise<boolean>;
  deleteEndpoint: (endpoint: WebhookEndpoint) => Promise<boolean>;
  retryDelivery: (delivery: Delivery) => Promise<boolean>;
  setInboxResponse: (status: number) => Promise<boolean>;
}

export const createWebhooksSlice: Slice<WebhooksSlice> = (set, get) => {
  const loadDeliveries = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    const filter = get().deliveryFilter;
    await attempt(get, async () => {
      const deliveries = await api.listDeliveries(
        scope.merchantId,
        scope.env,
        filter === 'all' ? undefined : filter,
      );
      if (stillCurrent(get, scope) && get().deliveryFilter === filter) {
        set({ deliveries, deliveriesFor: `${scope.key}/${filter}` });
      }
    });
  });

  const loadInbox = serialized(async () => {
    const name = get().inboxName;
    await attempt(get, async () => {
      const inbox = await api.getInbox(name);
      if (get().inboxName === name) set({ inbox });
    });
  });

  const loadEndpoints = async () => {
    const scope = currentScope(get());
    if (!scope) return;
    await attempt(get, async () => {
      const endpoints = await api.listEndpoints(scope.merchantId, scope.env);
      if (stillCurrent(get, scope)) set({ endpoints, webhooksScope: scope.key });
    });
  };

  return {
    endpoints: [],
    deliveries: [],
    deliveriesFor: null,
    webhooksScope: null,
    deliveryFilter: 'all',
    inboxName: DEFAULT_INBOX,
    inbox: null,

    loadWebhooks: async () => {
      await Promise.all([loadEndpoints(), loadDeliveries(), loadInbox()]);
    },
    loadDeliveries,
    loadInbox,

    setDeliveryFilter: async (filter) => {
      set({ deliveryFilter: filter });
      await loadDeliveries();
    },

    setInboxName: async (name) => {
      set({ inboxName: name, inbox: null });
      await loadInbox();
    },

    createEndpoint: (input) =>
      attempt(get, async () => {
        const scope = currentScope(get());
        if (!scope) throw new Error('Select a merchant first.');
        const endpoint = await api.createEndpoint(scope.merchantId, scope.env, input);
        // Sending to the built-in inbox? Show that inbox, so the deliveries can be seen arriving.
        const inbox = /\/sandbox\/inbox\/([A-Za-z0-9_-]{1,64})$/.exec(endpoint.url)?.[1];
        if (inbox && inbox !== get().inboxName) void get().setInboxName(inbox);
        get().notify('success', `Webhook endpoint added: ${endpoint.url}`);
        await loadEndpoints();
      }),

    deleteEndpoint: (endpoint) =>
      attempt(get, async () => {
        await api.deleteEndpoint(endpoint.id);
        get().notify('success', `Webhook endpoint removed: ${endpoint.url}`);
        await loadEndpoints();
      }),

    retryDelivery: (delivery) =>
      attempt(get, async () => {
        const after = await api.retryDelivery(delivery.id);
        const last = after.attempts[after.attempts.length - 1];
        get().notify(
          after.status === 'delivered' ? 'success' : 'error',
          `Retry of ${delivery.event}: ${
            last?.response_status ? `HTTP ${last.response_status}` : (last?.error ?? 'no answer')
          } (${after.status}).`,
        );
        await Promise.all([loadDeliveries(), loadInbox()]);
      }),

    setInboxResponse: (status) =>
      attempt(get, async () => {
        const inbox = await api.configureInbox(get().inboxName, status);
        set({ inbox });
        get().notify('success', `Inbox “${inbox.name}” now answers HTTP ${status}.`);
      }),
  };
};
