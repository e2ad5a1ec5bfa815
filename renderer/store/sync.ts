import type { Change, ChangeKind, ChangeNotice } from '../api/types';
import { currentScope, type MerchantScope } from './merchant-scope';
import type { Slice, Store } from './types';

/** A page whose data follows the live stream: the areas it shows, and how to read them again. */
interface LivePage {
  kinds: ChangeKind[];
  load: (state: Store) => Promise<unknown>;
  /** The page shows more merchants than the selected one (a reseller's connected merchants). */
  merchants?: (state: Store, scope: MerchantScope) => string[];
}

/**
 * Which page shows what (ids as in pages/index.ts). A new live page is one entry here: a change
 * notice of one of its areas, in its merchant and environment, reads it again.
 */
export const LIVE_PAGES: Record<string, LivePage> = {
  // The home page sums up money, checkouts, cards and webhooks; its feed is the event log.
  home: {
    kinds: ['checkout', 'refund', 'funds', 'ledger', 'card', 'delivery', 'event', 'clock'],
    load: (s) => s.loadHome(),
  },
  checkouts: { kinds: ['checkout', 'invoice', 'refund', 'customer'], load: (s) => s.loadCheckouts() },
  webhooks: { kinds: ['webhook', 'delivery', 'inbox'], load: (s) => s.loadWebhooks() },
  money: {
    kinds: ['funds', 'ledger', 'checkout', 'refund', 'address'],
    load: (s) => s.loadMoney(),
  },
  cards: { kinds: ['card', 'keys', 'settings', 'funds', 'ledger'], load: (s) => s.loadCards() },
  resellers: {
    kinds: ['reseller', 'checkout', 'ledger', 'merchant'],
    load: (s) => s.loadResellers(),
    // Fees come from the checkouts of the merchants this one resells.
    merchants: (s, scope) => [scope.merchantId, ...s.outgoing.map((c) => c.merchant_id)],
  },
  // The request log streams its own entries (`event: request`); it is read here on focus and reset.
  requests: { kinds: [], load: (s) => s.loadRequests() },
  customers: { kinds: ['customer', 'invoice', 'checkout'], load: (s) => s.loadCustomers() },
  invoices: { kinds: ['invoice', 'checkout', 'customer'], load: (s) => s.loadInvoices() },
  // Every recorded event of the scope is a new row of the event log.
  events: { kinds: ['event'], load: (s) => s.loadEventLog() },
  // The whole workspace's counts: any merchant's status move or event changes them.
  coverage: {
    kinds: ['checkout', 'invoice', 'card', 'reseller', 'funds', 'delivery', 'event'],
    load: (s) => s.loadCoverage(),
    merchants: (s) => s.merchants.map((m) => m.id),
  },
  // Faults are read on opening, on focus and after a reset; a request a fault changed re-reads them (store/live.ts).
  faults: { kinds: [], load: (s) => s.loadFaults() },
};

export interface SyncSlice {
  /** The page on screen: live changes re-read only its data. */
  openPage: string | null;
  setOpenPage: (id: string) => void;
  /** Reads the open page's data again (focus regained, stream reconnected). */
  refreshOpenPage: () => Promise<void>;
  /** Everything the dashboard shows, read again (on start, on focus, after a reset). */
  refreshAll: () => Promise<void>;
  /** Drops everything read from a workspace that was reset (merchant, selections, events). */
  forgetWorkspace: () => void;
  /** Counts the resets seen: a call that began before one and fails after it is about a workspace that is gone. */
  workspaceEpoch: number;
  /** A change notice arrived on the stream: re-reads what is on screen and changed. */
  onLiveChange: (notice: ChangeNotice) => void;
}

/** A change in this scope: one that names no merchant or environment may be anyone's. */
const inScope = (change: Change, scope: MerchantScope, merchants: string[]) =>
  (change.env === undefined || change.env === scope.env) &&
  (change.merchant_id === undefined || change.merchant_id === null || merchants.includes(change.merchant_id));

/**
 * Keeps the screen in step with the server: every committed write, whatever made it (this window,
 * a script, a scheduled job, a hosted page), arrives as a change notice, and what is on screen and
 * changed is read again. No polling: between notices nothing is read.
 */
export const createSyncSlice: Slice<SyncSlice> = (set, get) => {
  const reload = async (page: string | null): Promise<void> => {
    const live = page ? LIVE_PAGES[page] : undefined;
    if (live) await live.load(get());
  };

  return {
    openPage: null,
    setOpenPage: (id) => set({ openPage: id }),
    refreshOpenPage: () => reload(get().openPage),

    refreshAll: async () => {
      const state = get();
      await Promise.all([state.loadHealth(), state.loadMerchants(), state.loadClock(), state.loadSettings()]);
      await reload(get().openPage);
    },

    workspaceEpoch: 0,
    forgetWorkspace: () =>
      set({
        workspaceEpoch: get().workspaceEpoch + 1,
        selectedMerchantId: null,
        merchants: [],
        keysByMerchant: {},
        liveEvents: [],
        checkouts: [],
        checkoutsScope: null,
        selectedCheckoutId: null,
        checkoutDetail: null,
        faults: null,
      }),

    onLiveChange: ({ changes }) => {
      const state = get();
      const kinds = new Set(changes.map((change) => change.kind));
      if (kinds.has('workspace')) {
        // A reset: the selected merchant and everything read for it are gone.
        state.forgetWorkspace();
        void get().refreshAll();
        return;
      }
      if (kinds.has('merchant') || kinds.has('api_key')) void state.loadMerchants();
      if (kinds.has('clock')) void state.loadClock();
      if (kinds.has('settings')) void state.loadSettings();
      // Fault rules set elsewhere (the CLI, a test's helper, a scenario) are the workspace's, not a
      // merchant's: read again whether or not a merchant is in scope.
      if (state.openPage === 'faults' && changes.some((c) => c.kind === 'settings' && c.id === 'api_faults'))
        void state.loadFaults();
      const page = state.openPage ? LIVE_PAGES[state.openPage] : undefined;
      const scope = currentScope(state);
      if (!page || !scope) return;
      const merchants = page.merchants?.(state, scope) ?? [scope.merchantId];
      if (changes.some((change) => page.kinds.includes(change.kind) && inScope(change, scope, merchants))) {
        void page.load(state);
      }
    },
  };
};
