import type { ReactNode } from 'react';
import { useStore } from '../store';
import { Card } from './Card';

/** The merchant pages need a merchant: until there is one, they say where to make it. */
export function ScopeGate({ children }: { children: ReactNode }) {
  const loaded = useStore((s) => s.merchantsLoaded);
  const selected = useStore((s) => s.selectedMerchantId);
  if (selected) return children;
  return (
    <Card>
      <p className="empty" data-testid="scope-empty">
        {loaded ? (
          <>
            No merchants yet. <a href="#/merchants">Create a merchant</a> first: everything here belongs to
            one.
          </>
        ) : (
          'Loading merchants…'
        )}
      </p>
    </Card>
  );
}
