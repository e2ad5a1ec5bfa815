import * as api from '../api/sandbox';
import type {
  CreateEndpointBody,
  Delivery,
  DeliveryStatus,
  EventType,
  Inbox,
  UpdateEndpointBody,
  WebhookEndpoint,
} from '../api/types';
import { inboxNameOf } from '../lib/workspaces';
import { currentScope, serialized, stillCurrent } from './merchant-scope';
import { attempt } from './notices';
import { FIRST_PAGE, newer, older, type Paging, pageOf, pageQuery } from './paging';
import type { Slice } from './types';

export type DeliveryFilter = DeliveryStatus | 'all';
export type DeliveryEventFilter = EventType | 'all';

/** The built-in receiver the dashboard offers by default (the `demo` inbox of sandboxReceiveInboxWebhook). */
export const DEFAULT_INBOX = 'demo';

export interface WebhooksSlice {
  endpoints: WebhookEndpoint[];
  deliveries: Delivery[];
  /** The scope, filters and page (`deliveriesKey`) the deliveries were read for. */
  deliveriesFor: string | null;
  /** The scope endpoints and deliveries were read for. */
  webhooksScope: string | null;
  deliveryFilter: DeliveryFilter;
  deliveryEventFilter: DeliveryEventFilter;
  deliveryPaging: Paging;
  inboxName: string;
  /** The inbox shown was picked by hand (or by adding an endpoint): loading endpoints keeps it. */
  inboxByHand: boolean;
  inbox: Inbox | null;
  loadWebhooks: () => Promise<void>;
  loadDeliveries: () => Promise<void>;
  loadInbox: () => Promise<void>;
  setDeliveryFilter: (filter: DeliveryFilter) => Promise<void>;
  setDeliveryEventFilter: (event: DeliveryEventFilter) => Promise<void>;
  deliveriesPage: (direction: 'older' | 'newer') => Promise<void>;
  updateEndpoint: (endpoint: WebhookEndpoint, input: UpdateEndpointBody) => Promise<boolean>;
  sendTestEvent: (endpoint: WebhookEndpoint, event?: EventType) => Promise<boolean>;
  /** Shows another built-in inbox; `byHand: false` is the dashboard's own pick (the merchant's). */
  setInboxName: (name: string, byHand?: boolean) => Promise<void>;
  createEndpoint: (input: CreateEndpointBody) => Promise<boolean>;
  deleteEndpoint: (endpoint: WebhookEndpoint) => Promise<boolean>;
  retryDelivery: (delivery: Delivery) => Promise<boolean>;
  setInboxResponse: (status: number) => Promise<boolean>;
}

/** The name of the built-in inbox a URL sends to (`…/sandbox/inbox/<name>`), if it is one. */

/** What a read of the deliveries is for: an answer for anything else is dropped. */
export const deliveriesKey = (
  scopeKey: string | null,
  s: Pick<WebhooksSlice, 'deliveryFilter' | 'deliveryEventFilter' | 'deliveryPaging'>,
) => `${scopeKey}/${s.deliveryFilter}/${s.deliveryEventFilter}/${s.deliveryPaging.cursors.join(',')}`;

export const createWebhooksSlice: Slice<WebhooksSlice> = (set, get) => {
  const loadDeliveries = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    const { deliveryFilter: status, deliveryEventFilter: event, deliveryPaging: paging } = get();
    const key = deliveriesKey(scope.key, get());
    await attempt(get, async () => {
      const answer = await api.listDeliveries(scope.merchantId, scope.env, {
        ...pageQuery(paging),
        status: status === 'all' ? undefined : status,
        event: event === 'all' ? undefined : event,
      });
      if (stillCurrent(get, scope) && deliveriesKey(scope.key, get()) === key) {
        const { rows, hasMore } = pageOf(answer);
        set({ deliveries: rows, deliveriesFor: key, deliveryPaging: { ...paging, hasMore } });
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
      if (!stillCurrent(get, scope)) return;
      set({ endpoints, webhooksScope: scope.key });
      // Open on the inbox this merchant's endpoints send to (the one with its deliveries in it),
      // unless one was picked by hand.
      const own = endpoints
        .filter((e) => !e.disabled)
        .map((e) => inboxNameOf(e.url))
        .find((name) => name !== undefined);
      if (own && !get().inboxByHand && own !== get().inboxName) await get().setInboxName(own, false);
    });
  };

  return {
    endpoints: [],
    deliveries: [],
    deliveriesFor: null,
    webhooksScope: null,
    deliveryFilter: 'all',
    deliveryEventFilter: 'all',
    deliveryPaging: FIRST_PAGE,
    inboxName: DEFAULT_INBOX,
    inboxByHand: false,
    inbox: null,

    loadWebhooks: async () => {
      await Promise.all([loadEndpoints(), loadDeliveries(), loadInbox()]);
    },
    loadDeliveries,
    loadInbox,

    setDeliveryFilter: async (filter) => {
      set({ deliveryFilter: filter, deliveryPaging: FIRST_PAGE });
      await loadDeliveries();
    },

    setDeliveryEventFilter: async (event) => {
      set({ deliveryEventFilter: event, deliveryPaging: FIRST_PAGE });
      await loadDeliveries();
    },

    deliveriesPage: async (direction) => {
      const { deliveries, deliveryPaging: paging } = get();
      const last = deliveries[deliveries.length - 1];
      if (direction === 'older' && !last) return;
      set({ deliveryPaging: direction === 'older' && last ? older(paging, last.id) : newer(paging) });
      await loadDeliveries();
    },

    updateEndpoint: (endpoint, input) =>
      attempt(get, async () => {
        const updated = await api.updateEndpoint(endpoint.id, input);
        get().notify(
          'success',
          input.disabled === undefined
            ? `Webhook endpoint saved: ${updated.url}`
            : `Webhook endpoint ${updated.disabled ? 'disabled: it gets no new deliveries' : 'enabled'}.`,
        );
        await loadEndpoints();
      }),

    sendTestEvent: (endpoint, event) =>
      attempt(get, async () => {
        const delivery = await api.sendTestEvent(endpoint.id, event === undefined ? {} : { event });
        const last = delivery.attempts[delivery.attempts.length - 1];
        get().notify(
          delivery.status === 'delivered' ? 'success' : 'error',
          `Test ${delivery.event} sent to ${endpoint.url}: ${
            last?.response_status ? `HTTP ${last.response_status}` : (last?.error ?? 'no answer')
          } (${delivery.status}).`,
        );
        await Promise.all([loadDeliveries(), loadInbox()]);
      }),

    setInboxName: async (name, byHand = true) => {
      set({ inboxName: name, inboxByHand: byHand || get().inboxByHand, inbox: null });
      await loadInbox();
    },

    createEndpoint: (input) =>
      attempt(get, async () => {
        const scope = currentScope(get());
        if (!scope) throw new Error('Select a merchant first.');
        const endpoint = await api.createEndpoint(scope.merchantId, scope.env, input);
        // Sending to the built-in inbox? Show that inbox, so the deliveries can be seen arriving.
        const inbox = inboxNameOf(endpoint.url);
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
