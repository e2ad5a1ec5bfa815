import type { JobRegistry } from '../../scheduler.js';
import { type CheckoutLifecycle, JOB_EXPIRE, JOB_RELEASE_FEES, JOB_SETTLE } from './lifecycle.js';

/**
 * A checkout's scheduled work: expiry at expires_at, settlement `settlement_delay_seconds` after
 * payment, and the release of held fees 7 days after paid_at. Each job re-reads the row and does
 * nothing when the checkout has moved on (a cancelled checkout's expiry, an early /complete).
 */
export function registerCheckoutJobs(scheduler: JobRegistry, lifecycle: CheckoutLifecycle): void {
  scheduler.register(JOB_EXPIRE, (job) => {
    const row = lifecycle.findIfExists(job.ref);
    if (row?.status === 'active') lifecycle.expire(row);
  });
  scheduler.register(JOB_SETTLE, (job) => {
    const row = lifecycle.findIfExists(job.ref);
    if (row?.status === 'paid' && row.settled_at === null) lifecycle.settle(row);
  });
  scheduler.register(JOB_RELEASE_FEES, (job) => {
    const row = lifecycle.findIfExists(job.ref);
    if (row) lifecycle.releaseFees(row);
  });
}
