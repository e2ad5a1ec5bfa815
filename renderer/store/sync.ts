import type { DeliveryNotice, SandboxEvent } from '../api/types';
import { currentScope } from './scope';
import type { Slice } from './types';

/** The pages whose data follows the live stream (ids as in pages/index.ts). */
type LivePage =
  | 'checkouts'
  | 'webhooks'
  | 'money'
  | 'cards'
  | 'resellers'
  | 'customers'
  | 'invoices'
  | 'events';

export interface SyncSlice {
  /** The page on screen: live events re-read only its data. */
  openPage: string | null;
  setOpenPage: (id: string) => void;
  /** Reads the open page's data again (focus regained, stream reconnected). */
  refreshOpenPage: () => Promise<void>;
  /** A recorded event arrived on the stream. */
  onLiveEvent: (event: SandboxEvent) => void;
  /** A webhook delivery attempt arrived on the stream. */
  onLiveDelivery: (delivery: DeliveryNotice) => void;
}

/** Which pages show what an event type changes (by its prefix: checkout.paid → checkout). */
const AFFECTS: Record<string, LivePage[]> = {
  checkout: ['checkouts', 'money', 'customers', 'invoices'],
  invoice: ['checkouts', 'invoices', 'customers'],
  deposit: ['money'],
  payout: ['money'],
  card: ['cards'],
};

/**
 * Keeps the open page in step with the server's event stream: an event of the shown merchant and
 * environment re-reads what it can have changed. No polling: between events nothing is read.
 */
export const createSyncSlice: Slice<SyncSlice> = (set, get) => {
  const reload = (page: string | null): Promise<void> => {
    const state = get();
    if (page === 'checkouts') return state.loadCheckouts();
    if (page === 'webhooks') return state.loadWebhooks();
    if (page === 'money') return state.loadMoney();
    if (page === 'cards') return state.loadCards();
    if (page === 'resellers') return state.loadResellers();
    if (page === 'requests') return state.loadRequests();
    if (page === 'customers') return state.loadCustomers();
    if (page === 'invoices') return state.loadInvoices();
    if (page === 'events') return state.loadEventLog();
    return Promise.resolve();
  };

  return {
    openPage: null,
    setOpenPage: (id) => set({ openPage: id }),
    refreshOpenPage: () => reload(get().openPage),

    onLiveEvent: (event) => {
      const state = get();
      const scope = currentScope(state);
      if (!scope || event.env !== scope.env) return;
      const page = state.openPage as LivePage | null;
      if (page === 'resellers') {
        // Fees come from the checkouts of the merchants this one resells (and on-behalf checkouts
        // are theirs): one of their checkout events can move the income or the shown checkout.
        const resold =
          event.merchant_id === scope.merchantId ||
          state.outgoing.some((connection) => connection.merchant_id === event.merchant_id);
        if (resold && event.type.startsWith('checkout.')) void reload(page);
        return;
      }
      if (event.merchant_id !== scope.merchantId) return;
      // Every event of the scope is a new row of the event log.
      if (page === 'events') {
        void reload(page);
        return;
      }
      if (page === 'webhooks') {
        // An event fans out into deliveries (pending until their first attempt).
        void state.loadDeliveries();
        return;
      }
      if (page && AFFECTS[event.type.split('.')[0] ?? '']?.includes(page)) void reload(page);
    },

    onLiveDelivery: (delivery) => {
      const state = get();
      if (state.openPage !== 'webhooks') return;
      // The inbox may have received it whichever merchant sent it; deliveries are per scope.
      void state.loadInbox();
      const scope = currentScope(state);
      if (scope && delivery.merchant_id === scope.merchantId && delivery.env === scope.env) {
        void state.loadDeliveries();
      }
    },
  };
};
