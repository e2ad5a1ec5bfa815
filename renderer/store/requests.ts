import * as api from '../api/sandbox';
import type { RequestLogEntry } from '../api/types';
import { currentScope, serialized, stillCurrent } from './merchant-scope';
import { attempt } from './notices';
import type { Slice } from './types';

/** A status class of the merchant's requests, or the requests no merchant's key matched (401s). */
export type RequestFilter = 'all' | api.RequestStatusClass | 'unauthenticated';

const KEEP = 200;

const inClass = (status: number, filter: RequestFilter) =>
  filter === 'all' || filter === 'unauthenticated' || Math.floor(status / 100) === Number(filter[0]);

export interface RequestsSlice {
  /** The request log of the scope, newest first; new entries arrive over the stream. */
  requests: RequestLogEntry[];
  /** The scope and filter (`merchant/env/filter`) the entries were read for. */
  requestsFor: string | null;
  requestFilter: RequestFilter;
  selectedRequestId: string | null;
  loadRequests: () => Promise<void>;
  setRequestFilter: (filter: RequestFilter) => Promise<void>;
  selectRequest: (id: string | null) => void;
  /** An entry of the request log arrived on the stream. */
  onLiveRequest: (entry: RequestLogEntry) => void;
}

export const createRequestsSlice: Slice<RequestsSlice> = (set, get) => {
  const loadRequests = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    const filter = get().requestFilter;
    await attempt(get, async () => {
      const requests = await api.listRequestLog(
        filter === 'unauthenticated'
          ? { unauthenticated: true }
          : { merchantId: scope.merchantId, status: filter === 'all' ? undefined : filter },
        scope.env,
      );
      if (stillCurrent(get, scope) && get().requestFilter === filter) {
        set({ requests, requestsFor: `${scope.key}/${filter}` });
      }
    });
  });

  return {
    requests: [],
    requestsFor: null,
    requestFilter: 'all',
    selectedRequestId: null,
    loadRequests,
    setRequestFilter: async (filter) => {
      set({ requestFilter: filter });
      await loadRequests();
    },
    selectRequest: (id) => set({ selectedRequestId: id }),
    onLiveRequest: (entry) => {
      const state = get();
      const scope = currentScope(state);
      const wanted = state.requestFilter === 'unauthenticated' ? null : scope?.merchantId;
      if (!scope || entry.env !== scope.env || entry.merchant_id !== wanted) return;
      // Only into a list read for this scope and filter: the entry is the whole row, no re-read.
      if (state.requestsFor !== `${scope.key}/${state.requestFilter}`) return;
      if (!inClass(entry.status, state.requestFilter)) return;
      if (state.requests.some((e) => e.id === entry.id)) return;
      set({ requests: [entry, ...state.requests].slice(0, KEEP) });
    },
  };
};
