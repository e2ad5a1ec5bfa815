import * as api from '../api/sandbox';
import type { Customer, CustomerDetail } from '../api/types';
import { currentScope, serialized } from './merchant-scope';
import { attempt } from './notices';
import { FIRST_PAGE, newer, older, type Paging, pageOf, pageQuery } from './paging';
import type { Slice } from './types';

export interface CustomersSlice {
  /** One page of the scope's customers, newest first, matching `customerSearch`. */
  customers: Customer[];
  /** What `customers` was read for (scope, search, page); null before the first read. */
  customersFor: string | null;
  customerSearch: string;
  customerPaging: Paging;
  selectedCustomerId: string | null;
  /** The scope the newest customer was opened in by itself (once: closing it keeps it closed). */
  customerOpenedFor: string | null;
  customerDetail: CustomerDetail | null;
  loadCustomers: () => Promise<void>;
  searchCustomers: (text: string) => Promise<void>;
  customersPage: (direction: 'older' | 'newer') => Promise<void>;
  selectCustomer: (id: string | null) => Promise<void>;
}

/** The key a read of the list is for: an answer for another one is dropped. */
export const customersKey = (scopeKey: string | null, search: string, paging: Paging) =>
  `${scopeKey}|${search}|${paging.cursors.join(',')}`;

export const createCustomersSlice: Slice<CustomersSlice> = (set, get) => {
  const readDetail = async (id: string) => {
    const detail = await api.getCustomer(id);
    if (get().selectedCustomerId === id) set({ customerDetail: detail });
  };

  const load = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    const { customerSearch: search, customerPaging: paging } = get();
    const key = customersKey(scope.key, search, paging);
    await attempt(get, async () => {
      const answer = await api.listCustomers(scope.merchantId, scope.env, {
        ...pageQuery(paging),
        q: search.trim() || undefined,
      });
      const now = get();
      if (customersKey(currentScope(now)?.key ?? null, now.customerSearch, now.customerPaging) !== key)
        return;
      const { rows, hasMore } = pageOf(answer);
      set({ customers: rows, customersFor: key, customerPaging: { ...paging, hasMore } });
      // The page opens on the newest customer, so it shows one rather than an empty detail.
      // (Once per scope; a pick made in it counts, and one left from another scope gives way.)
      const current = get().selectedCustomerId;
      if (get().customerOpenedFor !== scope.key && rows[0] && !rows.some((r) => r.id === current))
        set({ selectedCustomerId: rows[0].id, customerOpenedFor: scope.key, customerDetail: null });
      const selected = get().selectedCustomerId;
      if (selected) await readDetail(selected);
    });
  });

  return {
    customers: [],
    customersFor: null,
    customerSearch: '',
    customerPaging: FIRST_PAGE,
    selectedCustomerId: null,
    customerOpenedFor: null,
    customerDetail: null,
    loadCustomers: load,
    searchCustomers: async (text) => {
      set({ customerSearch: text, customerPaging: FIRST_PAGE });
      await load();
    },
    customersPage: async (direction) => {
      const { customers, customerPaging: paging } = get();
      const last = customers[customers.length - 1];
      if (direction === 'older' && !last) return;
      set({ customerPaging: direction === 'older' && last ? older(paging, last.id) : newer(paging) });
      await load();
    },
    selectCustomer: async (id) => {
      set({
        selectedCustomerId: id,
        customerOpenedFor: currentScope(get())?.key ?? null,
        customerDetail: null,
      });
      if (id) await attempt(get, () => readDetail(id));
    },
  };
};
