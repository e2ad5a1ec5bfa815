import { create } from 'zustand';
import { createClockSlice } from './clock';
import { createLiveSlice } from './live';
import { createMerchantsSlice } from './merchants';
import { createNoticesSlice } from './notices';
import type { Store } from './types';
import { createWorkspaceSlice } from './workspace';

export type { Store } from './types';

export const useStore = create<Store>()((...a) => ({
  ...createWorkspaceSlice(...a),
  ...createNoticesSlice(...a),
  ...createLiveSlice(...a),
  ...createMerchantsSlice(...a),
  ...createClockSlice(...a),
}));

/** Everything the dashboard shows, read again (on start and when the window regains focus). */
export async function refreshAll(): Promise<void> {
  const { loadHealth, loadMerchants, loadClock } = useStore.getState();
  await Promise.all([loadHealth(), loadMerchants(), loadClock()]);
}
