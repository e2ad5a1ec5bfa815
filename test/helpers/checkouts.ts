import { beforeEach } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import { type Actor, call, createMerchant } from './api.js';
import { ManualTime, testSandbox } from './sandbox.js';
import { useSharedSandbox } from './suite.js';

/** Shared setup for the test/integration/checkouts/checkouts-*.test.ts files. */

export const DAY = 86_400_000;

/** The keys of a checkout in a list (GET /v1/checkouts). */
export const BASE_KEYS = [
  'amount',
  'created_at',
  'currency',
  'customer_id',
  'description',
  'expires_at',
  'hosted_url',
  'id',
  'merchant_id',
  'method',
  'paid_amount',
  'paid_at',
  'payer_address',
  'platform_fee',
  'platform_gas_fee',
  'reference',
  'refund_status',
  'refunded_amount',
  'reseller_fee',
  'reseller_id',
  'status',
  'title',
  'updated_at',
];

/** The keys of a full checkout (create, GET by id), sorted. */
export const FULL_KEYS = [...BASE_KEYS, 'crypto_chains', 'fiat'].sort();

/*
 * The suite state below is exported as live bindings: test bodies read `sandbox`, `actor` and `time`
 * directly and always see the current values, including after isolate() swaps the sandbox.
 * Each test file has its own module instance (vitest isolates files), so the state is per file.
 */

/** The real-time source under the sandbox clock; `tick` it to move time forward. */
export let time: ManualTime;
/** The sandbox of the current test: the file's shared one, or its own after isolate(). */
export let sandbox: Sandbox;
/** A fresh merchant of the current test. */
export let actor: Actor;

/**
 * Call once at the top of a describe block: one sandbox shared by the block's tests (on a ManualTime),
 * and a fresh merchant before each test.
 */
export function useCheckoutSuite(): void {
  time = new ManualTime();
  const shared = useSharedSandbox(() => ({ realNow: time.now }));
  beforeEach(async () => {
    sandbox = shared();
    actor = await createMerchant(sandbox);
  });
}

/** An ISO timestamp `ms` after the sandbox clock's now. */
export const at = (ms: number) => new Date(sandbox.ctx.clock.now() + ms).toISOString();

/** For tests that change settings or the clock: a sandbox of their own. */
export const isolate = async () => {
  sandbox = await testSandbox({ realNow: time.now });
  actor = await createMerchant(sandbox);
};

/** POST /v1/checkouts, as the current merchant unless other headers are given. */
export const post = (payload: unknown, headers: Record<string, string> = actor.auth) =>
  call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload: payload as object });
