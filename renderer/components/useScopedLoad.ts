import { useEffect } from 'react';
import { useStore } from '../store';
import { scopeKey } from '../store/merchant-scope';

/**
 * Reads a page's data when it opens and whenever the merchant or environment changes; after that,
 * the live stream keeps it current (store/sync.ts).
 */
export function useScopedLoad(load: () => Promise<void>): void {
  const key = useStore(scopeKey);
  useEffect(() => {
    if (key) void load();
  }, [key, load]);
}
