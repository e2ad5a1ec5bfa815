import type { Env } from '../api/types';
import type { Store } from './types';

/** What the merchant pages show: one merchant in one environment (of the workspace on screen). */
export interface MerchantScope {
  merchantId: string;
  env: Env;
  /**
   * `${workspaceId}/${merchantId}/${env}`: slices remember which scope their data was read for. The
   * workspace is part of it because a fork holds the same merchant ids as the workspace it came from.
   */
  key: string;
}

export function currentScope(state: Store): MerchantScope | null {
  const merchantId = state.selectedMerchantId;
  if (!merchantId) return null;
  return { merchantId, env: state.env, key: `${state.workspaceId}/${merchantId}/${state.env}` };
}

export const scopeKey = (state: Store): string | null => currentScope(state)?.key ?? null;

/** An answer read for a scope the user has since left is dropped, not shown. */
export const stillCurrent = (get: () => Store, scope: MerchantScope) => scopeKey(get()) === scope.key;

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
