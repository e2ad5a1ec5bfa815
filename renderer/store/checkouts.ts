import * as api from '../api/sandbox';
import type {
  CheckoutDetail,
  CheckoutItem,
  CheckoutStatus,
  RefundInput,
  SimulatePaymentInput,
} from '../api/types';
import { chainName, describeStatus, formatAmount } from '../lib/format';
import { sandboxNow } from './clock';
import { currentScope, serialized, stillCurrent } from './merchant-scope';
import { attempt } from './notices';
import { FIRST_PAGE, newer, older, type Paging, pageOf, pageQuery } from './paging';
import type { Slice } from './types';

export type CheckoutAction = 'complete' | 'expire' | 'cancel';

export interface NewCheckout {
  title: string;
  /** 6dp minor units. */
  amount: number;
  /** Expiry, in hours from sandbox now. */
  hours: number;
}

export type CheckoutFilter = CheckoutStatus | 'all';

export interface CheckoutsSlice {
  /** One page of the selected merchant's checkouts in the selected environment, newest first. */
  checkouts: CheckoutItem[];
  /** The scope (`merchant/env`) `checkouts` was read for; null before the first read. */
  checkoutsScope: string | null;
  /** The list's status filter, search (id, title or reference) and page. */
  checkoutFilter: CheckoutFilter;
  checkoutSearch: string;
  checkoutPaging: Paging;
  selectedCheckoutId: string | null;
  /** The scope a checkout was explicitly opened in (it stays open off the page shown). */
  checkoutOpenedIn: string | null;
  checkoutDetail: CheckoutDetail | null;
  loadCheckouts: () => Promise<void>;
  selectCheckout: (id: string) => Promise<void>;
  setCheckoutFilter: (filter: CheckoutFilter) => Promise<void>;
  searchCheckouts: (text: string) => Promise<void>;
  checkoutsPage: (direction: 'older' | 'newer') => Promise<void>;
  createCheckout: (input: NewCheckout) => Promise<boolean>;
  payCheckout: (id: string, input: SimulatePaymentInput) => Promise<boolean>;
  checkoutAction: (id: string, action: CheckoutAction) => Promise<boolean>;
  refundCheckout: (id: string, input: RefundInput) => Promise<boolean>;
}

const DONE: Record<CheckoutAction, string> = {
  complete: 'Checkout settled: completed, funds credited to the merchant.',
  expire: 'Checkout expired.',
  cancel: 'Checkout cancelled.',
};

export const createCheckoutsSlice: Slice<CheckoutsSlice> = (set, get) => {
  const readDetail = async (id: string) => {
    const detail = await api.getCheckout(id);
    if (get().selectedCheckoutId === id) set({ checkoutDetail: detail });
  };

  const listKey = () => {
    const s = get();
    return `${s.checkoutFilter}|${s.checkoutSearch}|${s.checkoutPaging.cursors.join(',')}`;
  };

  // The list, then the selected checkout (the newest when none is selected yet; one opened on
  // purpose stays open even when the filter or page does not show it).
  const load = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    const key = listKey();
    const { checkoutFilter: filter, checkoutSearch: search, checkoutPaging: paging } = get();
    await attempt(get, async () => {
      const answer = await api.listCheckouts(scope.merchantId, scope.env, {
        ...pageQuery(paging),
        status: filter === 'all' ? undefined : filter,
        q: search.trim() || undefined,
      });
      if (!stillCurrent(get, scope) || listKey() !== key) return;
      const { rows: checkouts, hasMore } = pageOf(answer);
      const { selectedCheckoutId: selected, checkoutOpenedIn } = get();
      const pinned = selected !== null && checkoutOpenedIn === scope.key;
      const keep = pinned || checkouts.some((c) => c.id === selected) ? selected : (checkouts[0]?.id ?? null);
      set({
        checkouts,
        checkoutsScope: scope.key,
        checkoutPaging: { ...paging, hasMore },
        selectedCheckoutId: keep,
        ...(keep === selected ? {} : { checkoutDetail: null }),
      });
      if (keep) await readDetail(keep);
    });
  });

  /** Runs a change, says so, then reads the list and the detail again. */
  const change = (action: () => Promise<string>) =>
    attempt(get, async () => {
      const message = await action();
      get().notify('success', message);
    }).then(async (ok) => {
      await load();
      return ok;
    });

  return {
    checkouts: [],
    checkoutsScope: null,
    checkoutFilter: 'all',
    checkoutSearch: '',
    checkoutPaging: FIRST_PAGE,
    selectedCheckoutId: null,
    checkoutOpenedIn: null,
    checkoutDetail: null,

    loadCheckouts: load,

    selectCheckout: async (id) => {
      const scope = currentScope(get());
      set({ selectedCheckoutId: id, checkoutOpenedIn: scope?.key ?? null, checkoutDetail: null });
      await attempt(get, () => readDetail(id));
    },

    setCheckoutFilter: async (filter) => {
      set({ checkoutFilter: filter, checkoutPaging: FIRST_PAGE });
      await load();
    },

    searchCheckouts: async (text) => {
      set({ checkoutSearch: text, checkoutPaging: FIRST_PAGE });
      await load();
    },

    checkoutsPage: async (direction) => {
      const { checkouts, checkoutPaging: paging } = get();
      const last = checkouts[checkouts.length - 1];
      if (direction === 'older' && !last) return;
      set({ checkoutPaging: direction === 'older' && last ? older(paging, last.id) : newer(paging) });
      await load();
    },

    createCheckout: (input) =>
      attempt(get, async () => {
        const scope = currentScope(get());
        if (!scope) throw new Error('Select a merchant first.');
        const expires = sandboxNow(get()) + input.hours * 3600_000;
        const checkout = await api.createCheckout(scope.merchantId, scope.env, {
          title: input.title,
          amount: input.amount,
          expires_at: new Date(expires).toISOString(),
        });
        set({ selectedCheckoutId: checkout.id, checkoutOpenedIn: scope.key, checkoutDetail: null });
        get().notify('success', `Checkout “${checkout.title}” created.`);
        await load();
      }),

    payCheckout: (id, input) =>
      change(async () => {
        const { checkout, payment } = await api.simulatePayment(id, input);
        const via = payment.chain ? ` on ${chainName(payment.chain)} (${payment.token})` : '';
        if (payment.outcome !== 'received')
          return `Transfer of ${formatAmount(payment.amount)} ${checkout.currency}${via} recorded as ${payment.outcome === 'late' ? 'late' : 'on an unsupported chain'}, not credited: checkout ${describeStatus(checkout.status)}.`;
        return `Payment of ${formatAmount(payment.amount)} ${checkout.currency} detected${via}: checkout ${describeStatus(checkout.status)}.`;
      }),

    checkoutAction: (id, action) =>
      change(async () => {
        if (action === 'complete') await api.completeCheckout(id);
        else if (action === 'expire') await api.expireCheckout(id);
        else await api.cancelCheckout(id);
        return DONE[action];
      }),

    refundCheckout: (id, input) =>
      change(async () => {
        const result = await api.refundCheckout(id, input);
        return `Refund sent: ${formatAmount(result.refunded_amount)} refunded so far, checkout ${describeStatus(result.status)}.`;
      }),
  };
};
