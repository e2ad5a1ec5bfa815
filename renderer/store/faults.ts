import * as api from '../api/faults';
import { rulesAsInput } from '../lib/faults';
import { attempt } from './notices';
import type { Slice } from './types';

export interface FaultsSlice {
  /** The workspace's API faults as last read; null before the first read. */
  faults: api.Faults | null;
  /** The server's refusal of the last change, shown beside the form (also a notice); null after a success. */
  faultsError: string | null;
  loadFaults: () => Promise<void>;
  /** Adds a rule to those in force; `seed` (blank: the one in force) restarts the sequence. */
  addFaultRule: (rule: api.FaultRuleInput, seed: string) => Promise<boolean>;
  removeFaultRule: (id: string) => Promise<boolean>;
  clearFaults: () => Promise<boolean>;
}

export const createFaultsSlice: Slice<FaultsSlice> = (set, get) => {
  const replace = (rules: api.FaultRuleInput[], seed: string | null) =>
    attempt(get, async () => {
      try {
        set({ faults: await api.setFaults({ rules, ...(seed ? { seed } : {}) }), faultsError: null });
      } catch (error) {
        set({ faultsError: error instanceof Error ? error.message : String(error) });
        throw error;
      }
    });
  return {
    faults: null,
    faultsError: null,
    loadFaults: async () => {
      await attempt(get, async () => {
        set({ faults: await api.getFaults() });
      });
    },
    addFaultRule: async (rule, seed) => {
      const current = get().faults;
      const kept = rulesAsInput(current?.rules ?? []);
      // The server names an unnamed rule by its position, which may be a kept rule's name.
      const taken = new Set(kept.map((r) => r.id));
      let n = kept.length + 1;
      while (taken.has(`rule-${n}`)) n += 1;
      const ok = await replace(
        [...kept, { ...rule, id: rule.id ?? `rule-${n}` }],
        seed.trim() || (current?.seed ?? null),
      );
      if (ok) get().notify('success', `Fault rule ${get().faults?.rules.at(-1)?.id ?? ''} added.`);
      return ok;
    },
    removeFaultRule: async (id) => {
      const current = get().faults;
      if (!current) return false;
      return replace(rulesAsInput(current.rules.filter((rule) => rule.id !== id)), current.seed);
    },
    clearFaults: async () => {
      const ok = await attempt(get, async () => {
        await api.clearFaults();
        set({ faults: await api.getFaults(), faultsError: null });
      });
      if (ok) get().notify('success', 'Every fault rule cleared: /v1 answers normally.');
      return ok;
    },
  };
};
