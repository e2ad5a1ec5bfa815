import * as api from '../api/sandbox';
import type { EventType, SandboxEvent } from '../api/types';
import { currentScope, serialized } from './merchant-scope';
import { attempt } from './notices';
import { FIRST_PAGE, newer, older, type Paging, pageOf, pageQuery } from './paging';
import type { Slice } from './types';

export type EventTypeFilter = EventType | 'all';

export interface EventsSlice {
  /** One page of the scope's event log, newest first, with the type filter and id search applied. */
  eventLog: SandboxEvent[];
  /** What `eventLog` was read for (scope, type, search, page); null before the first read. */
  eventLogFor: string | null;
  eventTypeFilter: EventTypeFilter;
  eventSearch: string;
  eventPaging: Paging;
  /** The event opened (kept whole: it may be on another page than the one shown). */
  selectedEvent: SandboxEvent | null;
  loadEventLog: () => Promise<void>;
  setEventTypeFilter: (type: EventTypeFilter) => Promise<void>;
  searchEvents: (text: string) => Promise<void>;
  eventsPage: (direction: 'older' | 'newer') => Promise<void>;
  selectEvent: (event: SandboxEvent | null) => void;
}

export const eventsKey = (scopeKey: string | null, type: EventTypeFilter, search: string, paging: Paging) =>
  `${scopeKey}|${type}|${search}|${paging.cursors.join(',')}`;

const keyOf = (s: EventsSlice, scopeKey: string | null) =>
  eventsKey(scopeKey, s.eventTypeFilter, s.eventSearch, s.eventPaging);

export const createEventsSlice: Slice<EventsSlice> = (set, get) => {
  const load = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    const state = get();
    const key = keyOf(state, scope.key);
    const paging = state.eventPaging;
    await attempt(get, async () => {
      const answer = await api.listEvents(scope.merchantId, scope.env, {
        ...pageQuery(paging),
        type: state.eventTypeFilter === 'all' ? undefined : state.eventTypeFilter,
        q: state.eventSearch.trim() || undefined,
      });
      if (keyOf(get(), currentScope(get())?.key ?? null) !== key) return;
      const { rows, hasMore } = pageOf(answer);
      set({ eventLog: rows, eventLogFor: key, eventPaging: { ...paging, hasMore } });
    });
  });

  return {
    eventLog: [],
    eventLogFor: null,
    eventTypeFilter: 'all',
    eventSearch: '',
    eventPaging: FIRST_PAGE,
    selectedEvent: null,
    loadEventLog: load,
    setEventTypeFilter: async (type) => {
      set({ eventTypeFilter: type, eventPaging: FIRST_PAGE });
      await load();
    },
    searchEvents: async (text) => {
      set({ eventSearch: text, eventPaging: FIRST_PAGE });
      await load();
    },
    eventsPage: async (direction) => {
      const { eventLog, eventPaging: paging } = get();
      const last = eventLog[eventLog.length - 1];
      if (direction === 'older' && !last) return;
      set({ eventPaging: direction === 'older' && last ? older(paging, last.id) : newer(paging) });
      await load();
    },
    selectEvent: (event) => set({ selectedEvent: event }),
  };
};
