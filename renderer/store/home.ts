import * as api from '../api/sandbox';
import type { Balance, CheckoutItem, Delivery, SandboxEvent } from '../api/types';
import { type CardActivity, cardTransactions } from '../lib/insights';
import { currentScope, serialized, stillCurrent } from './merchant-scope';
import { attempt } from './notices';
import type { Slice } from './types';

/** Rows read for the charts: the latest this many of each list (the API's page maximum). */
const WINDOW = 1000;
/** Activity rows per read of the feed ("Show more" reads the next page). */
const FEED_PAGE = 12;

export interface HomeSlice {
  homeBalances: Balance[];
  homeCheckouts: CheckoutItem[];
  homeCards: CardActivity[];
  homeDeliveries: Delivery[];
  /** The recorded event log, newest first: history, not only what happened since the page opened. */
  homeActivity: SandboxEvent[];
  homeActivityMore: boolean;
  /** The sandbox time the home data was read at (ms): the charts end on that day. */
  homeNow: number | null;
  /** The scope the home data was read for. */
  homeScope: string | null;
  loadHome: () => Promise<void>;
  moreActivity: () => Promise<void>;
}

export const createHomeSlice: Slice<HomeSlice> = (set, get) => {
  const load = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    await attempt(get, async () => {
      const { merchantId, env } = scope;
      const [balances, checkouts, cardEvents, deliveries, activity, clock] = await Promise.all([
        api.listBalances(merchantId, env),
        api.listCheckouts(merchantId, env, { limit: WINDOW }),
        api.listEvents(merchantId, env, { limit: WINDOW, type: 'card.transaction' }),
        api.listDeliveries(merchantId, env, { limit: WINDOW }),
        api.listEvents(merchantId, env, { limit: FEED_PAGE + 1 }),
        api.getClock(),
      ]);
      if (!stillCurrent(get, scope)) return;
      // A reload keeps the feed as long as the user made it.
      const shown = Math.max(FEED_PAGE, get().homeScope === scope.key ? get().homeActivity.length : 0);
      const feed = shown > FEED_PAGE ? await api.listEvents(merchantId, env, { limit: shown + 1 }) : activity;
      if (!stillCurrent(get, scope)) return;
      set({
        homeBalances: balances,
        homeCheckouts: checkouts,
        homeCards: cardTransactions(cardEvents),
        homeDeliveries: deliveries,
        homeActivity: feed.slice(0, shown),
        homeActivityMore: feed.length > shown,
        homeNow: Date.parse(clock.now),
        homeScope: scope.key,
      });
    });
  });

  return {
    homeBalances: [],
    homeCheckouts: [],
    homeCards: [],
    homeDeliveries: [],
    homeActivity: [],
    homeActivityMore: false,
    homeNow: null,
    homeScope: null,
    loadHome: load,
    moreActivity: async () => {
      const scope = currentScope(get());
      const last = get().homeActivity.at(-1);
      if (!scope || !last || get().homeScope !== scope.key) return;
      await attempt(get, async () => {
        const page = await api.listEvents(scope.merchantId, scope.env, {
          limit: FEED_PAGE + 1,
          starting_after: last.id,
        });
        if (!stillCurrent(get, scope)) return;
        set((state) => ({
          homeActivity: [...state.homeActivity, ...page.slice(0, FEED_PAGE)],
          homeActivityMore: page.length > FEED_PAGE,
        }));
      });
    },
  };
};
