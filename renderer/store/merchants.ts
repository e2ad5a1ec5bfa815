import * as api from '../api/sandbox';
import type { ApiKey, CreateApiKeyInput, CreateMerchantInput, KybStatus, Merchant } from '../api/types';
import { describeStatus } from '../lib/format';
import { serialized } from './merchant-scope';
import { attempt } from './notices';
import type { Slice } from './types';

export interface MerchantsSlice {
  merchants: Merchant[];
  merchantsLoaded: boolean;
  selectedMerchantId: string | null;
  /** API keys per merchant id, as the server lists them (revoked ones included). */
  keysByMerchant: Record<string, ApiKey[]>;
  loadMerchants: () => Promise<void>;
  selectMerchant: (id: string) => Promise<void>;
  loadKeys: (merchantId: string) => Promise<void>;
  createMerchant: (input: CreateMerchantInput) => Promise<boolean>;
  createKey: (merchantId: string, input: CreateApiKeyInput) => Promise<boolean>;
  revokeKey: (key: ApiKey) => Promise<boolean>;
  setKybStatus: (merchantId: string, status: KybStatus) => Promise<boolean>;
}

const newestFirst = (a: { created_at: string }, b: { created_at: string }) =>
  b.created_at.localeCompare(a.created_at);

export const createMerchantsSlice: Slice<MerchantsSlice> = (set, get) => ({
  merchants: [],
  merchantsLoaded: false,
  selectedMerchantId: null,
  keysByMerchant: {},

  // Serialized: a burst of change notices (a script creating merchants) is one read after another.
  loadMerchants: serialized(async () => {
    // A read that began before a workspace reset answers for the workspace that is gone: shown,
    // it would bring its merchants back until the read the reset queued ends (three round trips
    // later, with the keys of a merchant that no longer exists read in between).
    const epoch = get().workspaceEpoch;
    const stale = () => get().workspaceEpoch !== epoch;
    await attempt(get, async () => {
      const merchants = await api.listMerchants();
      if (stale()) return;
      const selected = get().selectedMerchantId;
      const stillThere = merchants.some((merchant) => merchant.id === selected);
      set({
        merchants,
        merchantsLoaded: true,
        selectedMerchantId: stillThere ? selected : (merchants[0]?.id ?? null),
      });
    });
    const selected = get().selectedMerchantId;
    if (selected && !stale()) await get().loadKeys(selected);
  }),

  selectMerchant: async (id) => {
    set({ selectedMerchantId: id });
    await get().loadKeys(id);
  },

  loadKeys: async (merchantId) => {
    await attempt(get, async () => {
      const keys = await api.listApiKeys(merchantId);
      set((state) => ({ keysByMerchant: { ...state.keysByMerchant, [merchantId]: keys } }));
    });
  },

  createMerchant: (input) =>
    attempt(get, async () => {
      const { merchant, api_key } = await api.createMerchant(input);
      set((state) => ({
        merchants: [merchant, ...state.merchants.filter((m) => m.id !== merchant.id)],
        selectedMerchantId: merchant.id,
        keysByMerchant: { ...state.keysByMerchant, [merchant.id]: [api_key] },
      }));
      get().notify('success', `Merchant “${merchant.name}” created with an owner key.`);
    }),

  createKey: (merchantId, input) =>
    attempt(get, async () => {
      const key = await api.createApiKey(merchantId, input);
      set((state) => ({
        keysByMerchant: {
          ...state.keysByMerchant,
          [merchantId]: [key, ...(state.keysByMerchant[merchantId] ?? [])].sort(newestFirst),
        },
      }));
      get().notify('success', `API key “${key.name}” (${key.role}) created.`);
    }),

  setKybStatus: (merchantId, status) =>
    attempt(get, async () => {
      const merchant = await api.patchMerchant(merchantId, { kyb_status: status });
      set((state) => ({ merchants: state.merchants.map((m) => (m.id === merchant.id ? merchant : m)) }));
      get().notify('success', `${merchant.name}: KYB ${describeStatus(merchant.kyb_status)}.`);
    }),

  revokeKey: (key) =>
    attempt(get, async () => {
      const revoked = await api.revokeApiKey(key.id);
      set((state) => ({
        keysByMerchant: {
          ...state.keysByMerchant,
          [key.merchant_id]: (state.keysByMerchant[key.merchant_id] ?? []).map((k) =>
            k.id === revoked.id ? revoked : k,
          ),
        },
      }));
      get().notify('success', `API key “${key.name}” revoked.`);
    }),
});
