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

/**
 * Shown where an action goes through /v1 with the merchant's key: the dashboard reaches /v1 only on
 * its own (test) address, so in production the action is off and this says why.
 */
export function TestOnlyHint({ what }: { what: string }) {
  const env = useStore((s) => s.env);
  const production = useStore((s) => s.urls?.production);
  if (env === 'test') return null;
  return (
    <p className="hint hint-warning" data-testid="test-only-hint">
      {what} goes through <code className="mono">/v1</code> with the merchant’s API key, which the dashboard
      can call only on the test address. In production, call{' '}
      <code className="mono">{production ?? 'the production address'}</code> from your integration.
    </p>
  );
}
