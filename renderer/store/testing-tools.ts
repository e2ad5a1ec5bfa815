import * as api from '../api/testing-tools';
import { attempt } from './notices';
import type { Slice } from './types';

export interface TestingToolsSlice {
  /** the last receiver check's scorecard */
  receiverCheck: api.ReceiverCheckResult | null;
  receiverCheckBusy: boolean;
  runReceiverCheck: (body: api.ReceiverCheckBody) => Promise<boolean>;
  coverage: api.Coverage | null;
  loadCoverage: () => Promise<void>;
}

export const createTestingToolsSlice: Slice<TestingToolsSlice> = (set, get) => ({
  receiverCheck: null,
  receiverCheckBusy: false,
  runReceiverCheck: (body) => {
    set({ receiverCheckBusy: true, receiverCheck: null });
    return attempt(get, async () => {
      set({ receiverCheck: await api.checkReceiver(body) });
    }).finally(() => set({ receiverCheckBusy: false }));
  },
  coverage: null,
  loadCoverage: async () => {
    await attempt(get, async () => {
      set({ coverage: await api.getCoverage() });
    });
  },
});
