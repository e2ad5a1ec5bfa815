import { create } from 'zustand';
import { createCardsSlice } from './cards';
import { createCheckoutsSlice } from './checkouts';
import { createClockSlice } from './clock';
import { createCustomersSlice } from './customers';
import { createEventsSlice } from './events';
import { createFaultsSlice } from './faults';
import { createHomeSlice } from './home';
import { createInvoicesSlice } from './invoices';
import { createLiveSlice } from './live';
import { createMerchantsSlice } from './merchants';
import { createMoneySlice } from './money';
import { createNoticesSlice } from './notices';
import { createPresentationSlice } from './presentation';
import { createRequestsSlice } from './requests';
import { createResellersSlice } from './resellers';
import { createSandboxSlice } from './sandbox-state';
import { createScenariosSlice } from './scenarios';
import { createStoriesSlice } from './stories';
import { createSyncSlice } from './sync';
import { createTestingToolsSlice } from './testing-tools';
import type { Store } from './types';
import { createWebhooksSlice } from './webhooks';
import { createWorkspacesSlice } from './workspaces';

export type { Store } from './types';

export const useStore = create<Store>()((...a) => ({
  ...createSandboxSlice(...a),
  ...createNoticesSlice(...a),
  ...createLiveSlice(...a),
  ...createMerchantsSlice(...a),
  ...createClockSlice(...a),
  ...createSyncSlice(...a),
  ...createCheckoutsSlice(...a),
  ...createWebhooksSlice(...a),
  ...createMoneySlice(...a),
  ...createCardsSlice(...a),
  ...createResellersSlice(...a),
  ...createRequestsSlice(...a),
  ...createCustomersSlice(...a),
  ...createInvoicesSlice(...a),
  ...createEventsSlice(...a),
  ...createScenariosSlice(...a),
  ...createHomeSlice(...a),
  ...createPresentationSlice(...a),
  ...createStoriesSlice(...a),
  ...createWorkspacesSlice(...a),
  ...createTestingToolsSlice(...a),
  ...createFaultsSlice(...a),
}));

/** Everything the dashboard shows, read again (on start and when the window regains focus). */
export const refreshAll = (): Promise<void> => useStore.getState().refreshAll();
