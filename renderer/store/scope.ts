import type { Env } from '../api/types';
import type { Store } from './types';

/** What the merchant pages show: one merchant in one environment. */
export interface Scope {
  merchantId: string;
  env: Env;
  /** `${merchantId}/${env}`: slices remember which scope their data was read for. */
  key: string;
}

export function currentScope(state: Store): Scope | null {
  const merchantId = state.selectedMerchantId;
  if (!merchantId) return null;
  return { merchantId, env: state.env, key: `${merchantId}/${state.env}` };
}

export const scopeKey = (state: Store): string | null => currentScope(state)?.key ?? null;

/** An answer read for a scope the user has since left is dropped, not shown. */
export const stillCurrent = (get: () => Store, scope: Scope) => scopeKey(get()) === scope.key;

/**
 * The key for the few calls that go through /v1: the merchant's first active owner key, else an
 * admin key. /v1 answers for the environment of the address it is called on, and the dashboard can
 * only reach its own (the test address), so these calls are refused up front in production.
 */
export function integrationKey(state: Store): string {
  const scope = currentScope(state);
  if (!scope) throw new Error('Select a merchant first.');
  if (scope.env !== 'test') {
    throw new Error(
      'The dashboard creates resources through /v1 on the test address, so only in the test environment. In production, call the production address with an API key.',
    );
  }
  const keys = (state.keysByMerchant[scope.merchantId] ?? []).filter((k) => !k.revoked_at);
  const key = keys.find((k) => k.role === 'owner') ?? keys.find((k) => k.role === 'admin');
  if (!key)
    throw new Error('This merchant has no active owner or admin API key: create one on the Merchants page.');
  return key.key;
}

/**
 * Wraps a loader so runs never overlap: a call while one is running makes exactly one more run
 * after it (bursts of live events collapse into one re-read that sees all of them).
 */
const ignore = () => undefined;

export function serialized(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const start = (): Promise<void> => {
    running = run().finally(() => {
      running = null;
    });
    return running;
  };
  return () => {
    if (!running) return start();
    queued ??= running.then(ignore, ignore).then(() => {
      queued = null;
      return start();
    });
    return queued;
  };
}
