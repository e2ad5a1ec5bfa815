import { subscribeToEvents } from '../api/events';
import type { SandboxEvent } from '../api/types';
import type { Slice } from './types';

const KEEP = 50;

export interface LiveSlice {
  /** The newest events first, as they arrive over the stream (this session only). */
  liveEvents: SandboxEvent[];
  liveStatus: 'connecting' | 'open' | 'reconnecting';
  /**
   * Opens the server's event stream into the store; returns the unsubscribe. `onReconnect` runs when
   * the stream comes back after a drop, to read again what may have changed meanwhile.
   */
  connectLive: (onReconnect?: () => void) => () => void;
}

export const createLiveSlice: Slice<LiveSlice> = (set, get) => ({
  liveEvents: [],
  liveStatus: 'connecting',
  connectLive: (onReconnect) =>
    subscribeToEvents({
      onOpen: () => {
        const wasDown = get().liveStatus === 'reconnecting';
        set({ liveStatus: 'open' });
        if (wasDown) onReconnect?.();
      },
      onError: () => set({ liveStatus: 'reconnecting' }),
      onEvent: (event) => {
        if (get().liveEvents.some((e) => e.id === event.id)) return;
        set((state) => ({ liveEvents: [event, ...state.liveEvents].slice(0, KEEP) }));
      },
      onRequest: (entry) => {
        get().onLiveRequest(entry);
        // A fault applied moved its rule's counts: the Faults page shows them.
        if (entry.fault && get().openPage === 'faults') void get().loadFaults();
      },
      // Every committed write, whatever made it: what is on screen and changed is read again.
      onChange: (notice) => get().onLiveChange(notice),
    }),
});
