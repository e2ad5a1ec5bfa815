import * as api from '../api/sandbox';
import type { Invoice, InvoiceDetail, InvoiceStatus } from '../api/types';
import { currentScope, serialized } from './merchant-scope';
import { attempt } from './notices';
import { FIRST_PAGE, newer, older, type Paging, pageOf, pageQuery } from './paging';
import type { Slice } from './types';

export type InvoiceFilter = InvoiceStatus | 'all';

export interface InvoicesSlice {
  /** One page of the scope's invoices, newest first, with the status filter and search applied. */
  invoices: Invoice[];
  /** What `invoices` was read for (scope, filter, search, page); null before the first read. */
  invoicesFor: string | null;
  invoiceFilter: InvoiceFilter;
  invoiceSearch: string;
  invoicePaging: Paging;
  selectedInvoiceId: string | null;
  /** The scope the newest invoice was opened in by itself (once: closing it keeps it closed). */
  invoiceOpenedFor: string | null;
  invoiceDetail: InvoiceDetail | null;
  loadInvoices: () => Promise<void>;
  setInvoiceFilter: (filter: InvoiceFilter) => Promise<void>;
  searchInvoices: (text: string) => Promise<void>;
  invoicesPage: (direction: 'older' | 'newer') => Promise<void>;
  selectInvoice: (id: string | null) => Promise<void>;
}

export const invoicesKey = (scopeKey: string | null, filter: InvoiceFilter, search: string, paging: Paging) =>
  `${scopeKey}|${filter}|${search}|${paging.cursors.join(',')}`;

const keyOf = (s: InvoicesSlice, scopeKey: string | null) =>
  invoicesKey(scopeKey, s.invoiceFilter, s.invoiceSearch, s.invoicePaging);

export const createInvoicesSlice: Slice<InvoicesSlice> = (set, get) => {
  const readDetail = async (id: string) => {
    const detail = await api.getInvoice(id);
    if (get().selectedInvoiceId === id) set({ invoiceDetail: detail });
  };

  const load = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    const state = get();
    const key = keyOf(state, scope.key);
    const paging = state.invoicePaging;
    await attempt(get, async () => {
      const answer = await api.listInvoices(scope.merchantId, scope.env, {
        ...pageQuery(paging),
        status: state.invoiceFilter === 'all' ? undefined : state.invoiceFilter,
        q: state.invoiceSearch.trim() || undefined,
      });
      if (keyOf(get(), currentScope(get())?.key ?? null) !== key) return;
      const { rows, hasMore } = pageOf(answer);
      set({ invoices: rows, invoicesFor: key, invoicePaging: { ...paging, hasMore } });
      // The page opens on the newest invoice, so it shows one rather than an empty detail.
      // (Once per scope; a pick made in it counts, and one left from another scope gives way.)
      const current = get().selectedInvoiceId;
      if (get().invoiceOpenedFor !== scope.key && rows[0] && !rows.some((r) => r.id === current))
        set({ selectedInvoiceId: rows[0].id, invoiceOpenedFor: scope.key, invoiceDetail: null });
      const selected = get().selectedInvoiceId;
      if (selected) await readDetail(selected);
    });
  });

  return {
    invoices: [],
    invoicesFor: null,
    invoiceFilter: 'all',
    invoiceSearch: '',
    invoicePaging: FIRST_PAGE,
    selectedInvoiceId: null,
    invoiceOpenedFor: null,
    invoiceDetail: null,
    loadInvoices: load,
    setInvoiceFilter: async (filter) => {
      set({ invoiceFilter: filter, invoicePaging: FIRST_PAGE });
      await load();
    },
    searchInvoices: async (text) => {
      set({ invoiceSearch: text, invoicePaging: FIRST_PAGE });
      await load();
    },
    invoicesPage: async (direction) => {
      const { invoices, invoicePaging: paging } = get();
      const last = invoices[invoices.length - 1];
      if (direction === 'older' && !last) return;
      set({ invoicePaging: direction === 'older' && last ? older(paging, last.id) : newer(paging) });
      await load();
    },
    selectInvoice: async (id) => {
      set({ selectedInvoiceId: id, invoiceOpenedFor: currentScope(get())?.key ?? null, invoiceDetail: null });
      if (id) await attempt(get, () => readDetail(id));
    },
  };
};
