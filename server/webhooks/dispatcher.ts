import { EventEmitter } from 'node:events';
import type { Clock } from '../clock.js';
import type { DeliveryAttempt } from '../contract/webhooks.js';
import type { JobRow } from '../db/jobs.js';
import type { EndpointRow, StoredAttempt, WebhooksRepo } from '../db/webhooks.js';
import { deliveryStates } from '../domain/state.js';
import type { Scheduler } from '../scheduler.js';
import {
  type ChaosPlan,
  DeliveryChaos,
  effectsOf,
  sendAsPlanned,
  type Turn,
  wrongSignature,
} from './chaos.js';
import { envelopeHeaders, type OutgoingDelivery, outgoing, resourceOf, sentAttempt } from './envelope.js';
import { sign } from './signing.js';
import type { WebhookTransport } from './transport.js';

export const JOB_DELIVER = 'webhook.deliver';
/** The lease of an event's new deliveries (ref: the event id; payload: the delivery ids). */
export const JOB_FANOUT_LEASE = 'webhook.fanout-lease';
export const MAX_ATTEMPTS = 5;
/** Delay after the failure of attempt n before attempt n + 1 (spec: 5 m, 30 m, 2 h, 5 h). */
export const RETRY_DELAYS_MS = [5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000] as const;

/** A recorded attempt, for the live stream: the delivery after it and the attempt as the API shows it. */
export interface AttemptEvent {
  delivery: OutgoingDelivery;
  attempt: DeliveryAttempt;
}

/** A finished send waiting for the next batched write of attempt results. */
interface Finished {
  delivery: OutgoingDelivery;
  /** as stored: its signature; the request's body and headers are the envelope's of the delivery */
  attempt: StoredAttempt;
  ok: boolean;
  noEndpoint: boolean;
  /** the event whose fan-out lease covers this send (its first), if any */
  lease: string | undefined;
  done: (row: OutgoingDelivery) => void;
}

/** An event's fan-out lease in this process: sends not yet recorded, and whether one failed. */
interface FanoutLease {
  remaining: number;
  failed: boolean;
}

export interface DispatcherDeps {
  repo: WebhooksRepo;
  clock: Clock;
  scheduler: Scheduler;
  atomically: <T>(fn: () => T) => T;
  /** runs work once the current transaction has committed (never if it rolls back) */
  afterCommit: (run: () => void, dropped?: () => void) => void;
  /** sends the requests (HTTP, TLS, deadlines) */
  transport: Pick<WebhookTransport, 'post' | 'close' | 'destroy'>;
  /** the send timeout (a setting), which the leases outlast */
  timeoutMs: () => number;
  log: { error(obj: object, msg: string): void };
}

/**
 * Sends deliveries. At-least-once: before a send starts, a lease is on record that makes the
 * delivery due again after the timeout, so a crash mid-send means a resend after restart, never a
 * loss. Never twice at once: an in-process set guards sends in flight. Sends are not awaited by
 * the scheduler, so one slow endpoint never holds up the others.
 *
 * New deliveries are sent straight after the commit of their event (`dispatchNew`), not picked up
 * by the scheduler, under one lease for all the deliveries of that event, written in its
 * transaction and removed with the record of the last of their first sends. Retries, manual sends
 * and leases that fell due go through the scheduler, each delivery under its own lease. The
 * results of the sends that finish in one event-loop turn are recorded in one transaction.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Map<string, Promise<OutgoingDelivery>>();
  /** the last send started per endpoint and resource: the next one of that pair waits for it */
  private readonly lastOfResource = new Map<string, Promise<unknown>>();
  private readonly bus = new EventEmitter();
  /** sends finished this turn, recorded together on the next (see `flush`) */
  private finished: Finished[] = [];
  /** fan-out leases (by event id) whose sends are not all recorded yet */
  private readonly fanoutLeases = new Map<string, FanoutLease>();
  /** delivery chaos: its decisions, and the sends held to be released shuffled */
  private readonly chaos: DeliveryChaos;
  /** Set when the workspace goes away (deleted, restored, reset): nothing more is recorded. */
  private abandoned = false;

  constructor(private readonly deps: DispatcherDeps) {
    this.bus.setMaxListeners(0);
    this.chaos = new DeliveryChaos(deps.repo);
  }

  /** Registers its jobs with the scheduler (server/context.ts wires it, once per context). */
  registerJobs(): void {
    const { scheduler } = this.deps;
    scheduler.register(JOB_DELIVER, (job) => this.onDue(job.ref));
    scheduler.register(JOB_FANOUT_LEASE, (job) => this.onFanoutLeaseDue(job));
    // Sends are not awaited by the job; clock advances and settle() wait for them.
    scheduler.waitFor(() => this.idle());
  }

  /**
   * Called once its workspace's context is mounted, before anything runs in it. Nothing is in
   * flight then: a lease still standing belongs to a send a crash (kill -9) cut short, or to a new
   * delivery it never started. Those are due now, as they were before the lease was taken, not
   * after the lease runs out.
   */
  start(): void {
    this.deps.repo.releaseLeases(JOB_DELIVER, JOB_FANOUT_LEASE, this.deps.clock.now());
  }

  /**
   * The deliveries of one event, just written in the caller's transaction (its fan-out): one lease
   * for all of them is written in that same transaction, and the sends start once it commits
   * (never if it rolls back). The scheduler is not involved unless a send's result cannot be
   * recorded or the process dies. Each comes with the endpoint row it was made from; `resource`
   * orders sends (see `launch`).
   */
  dispatchNew(
    eventId: string,
    deliveries: readonly { delivery: OutgoingDelivery; endpoint: EndpointRow }[],
    resource: string,
  ): void {
    if (deliveries.length === 0) return;
    this.deps.scheduler.schedule(
      JOB_FANOUT_LEASE,
      eventId,
      this.leaseEnd(),
      deliveries.map((d) => d.delivery.id),
    );
    // Chaos decisions are drawn here, in the event's transaction (none without chaos).
    const plans = deliveries.some((d) => d.endpoint.chaos !== null)
      ? deliveries.map(({ endpoint }) => this.chaos.plan(endpoint))
      : undefined;
    this.deps.afterCommit(() => {
      this.fanoutLeases.set(eventId, { remaining: deliveries.length, failed: false });
      deliveries.forEach(({ delivery, endpoint }, i) => {
        void this.launch(delivery, resource, endpoint, eventId, plans?.[i]);
      });
    });
  }

  /**
   * A fan-out lease fell due: the process died before the first sends of that event were all
   * recorded (this is a new process), or a record failed. Every delivery of it still pending
   * without an attempt on record is sent again, under its own lease; one still in flight (a clock
   * advance past the lease) keeps the event's lease, renewed.
   */
  private onFanoutLeaseDue(job: JobRow): void {
    const running: string[] = [];
    for (const id of JSON.parse(job.payload ?? '[]') as string[]) {
      if (this.inFlight.has(id)) running.push(id);
      else {
        const delivery = this.deps.repo.findDelivery(id);
        // Later attempts, and deliveries no longer pending, have their own job or need none.
        if (delivery?.status === 'pending' && delivery.attempt_count === 0) this.onDue(id);
      }
    }
    if (running.length > 0) this.deps.scheduler.schedule(JOB_FANOUT_LEASE, job.ref, this.leaseEnd(), running);
  }

  /**
   * Scheduler handler: runs inside the scheduler's transaction and returns at once. The send starts
   * only once that transaction (and the delivery it may have created) has committed: a delivery whose
   * write rolls back never reaches anyone.
   */
  onDue(deliveryId: string): void {
    const read = this.deps.repo.findDelivery(deliveryId);
    if (read?.status !== 'pending') return;
    const delivery = outgoing(read);
    this.lease(delivery.id);
    const plan = this.chaos.plan(this.deps.repo.findEndpoint(delivery.endpoint_id));
    this.deps.afterCommit(() => {
      if (!this.inFlight.has(delivery.id))
        void this.launch(delivery, resourceOf(delivery), undefined, undefined, plan);
    });
  }

  /** A manual retry: one new attempt now, same delivery id; resolves with the delivery after it. */
  async retry(delivery: OutgoingDelivery): Promise<OutgoingDelivery> {
    const running = this.inFlight.get(delivery.id);
    if (running) await running;
    const read = this.deps.repo.findDelivery(delivery.id);
    const fresh = read ? outgoing(read) : delivery;
    return new Promise((resolve, reject) => {
      const plan = this.deps.atomically(() => {
        this.lease(fresh.id);
        return this.chaos.plan(this.deps.repo.findEndpoint(fresh.endpoint_id));
      });
      this.deps.afterCommit(
        () => resolve(this.launch(fresh, resourceOf(fresh), undefined, undefined, plan)),
        () => reject(new Error('the retry was rolled back')),
      );
    });
  }

  /** Resolves when every send started so far has finished (used by clock advances and tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) {
      // Whoever waits for the sends (a clock advance, a settle) does not wait for a window to fill.
      this.chaos.release();
      await Promise.allSettled([...this.inFlight.values()]);
    }
  }

  onAttempt(listener: (event: AttemptEvent) => void): () => void {
    this.bus.on('attempt', listener);
    return () => this.bus.off('attempt', listener);
  }

  async close(): Promise<void> {
    await this.idle();
    await this.deps.transport.close();
  }

  /**
   * For a workspace whose database is about to go (deleted, restored to a checkpoint, reset): the
   * sends in flight are cut off and their results never recorded. What the database says about
   * them stands: a send is under a lease until its result is written, so in a checkpoint that
   * caught one mid-send it is pending, and due again when the checkpoint is restored.
   */
  async abandon(): Promise<void> {
    this.abandoned = true;
    this.finished = [];
    this.chaos.stop();
    await this.deps.transport.destroy();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private lease(id: string): void {
    this.deps.scheduler.schedule(JOB_DELIVER, id, this.leaseEnd());
  }

  /** When a lease taken now runs out: the send has timed out long before. */
  private leaseEnd(): number {
    return this.deps.clock.now() + this.deps.timeoutMs() + 60_000;
  }

  /**
   * Starts a send. Deliveries of one resource to one endpoint leave in event order: a send waits
   * for the previous one of the same endpoint and resource (`data.id`) to finish. Others run at once.
   * A send that chaos holds in a reorder window is out of that order on purpose: it waits for its
   * turn in the window instead.
   */
  private launch(
    delivery: OutgoingDelivery,
    resource: string,
    endpoint?: EndpointRow,
    lease?: string,
    plan?: ChaosPlan,
  ): Promise<OutgoingDelivery> {
    if (plan && plan.window !== null && !plan.drop) {
      const held = this.chaos.hold(delivery.endpoint_id, plan.window, plan.holdKey).then(async (turn) => {
        try {
          return this.abandoned ? delivery : await this.send(delivery, undefined, lease, plan, turn);
        } finally {
          turn.done();
        }
      });
      const promise = held.finally(() => this.inFlight.delete(delivery.id));
      this.inFlight.set(delivery.id, promise);
      return promise;
    }
    const key = `${delivery.endpoint_id}:${resource}`;
    const before = this.lastOfResource.get(key);
    // The row the fan-out read a moment ago is current unless an earlier send of this pair had to
    // wait (the endpoint may have changed meanwhile): then it is read again.
    const send = () => this.send(delivery, before ? undefined : endpoint, lease, plan);
    const promise = (before ? before.then(send, send) : send()).finally(() => {
      this.inFlight.delete(delivery.id);
      if (this.lastOfResource.get(key) === promise) this.lastOfResource.delete(key);
    });
    this.inFlight.set(delivery.id, promise);
    this.lastOfResource.set(key, promise);
    return promise;
  }

  private async send(
    delivery: OutgoingDelivery,
    known?: EndpointRow,
    lease?: string,
    plan?: ChaosPlan,
    turn?: Turn,
  ): Promise<OutgoingDelivery> {
    const endpoint = known ?? this.deps.repo.findEndpoint(delivery.endpoint_id);
    const number = delivery.attempt_count + 1;
    // Chaos applies to sends to an endpoint that is still there.
    const chaos = endpoint ? plan : undefined;
    const signature = !endpoint
      ? ''
      : chaos?.badSignature
        ? wrongSignature(endpoint.secret, delivery.body)
        : sign(endpoint.secret, delivery.body);
    const at = this.deps.clock.nowIso();
    if (chaos?.delayMs && !chaos.drop) await this.chaos.delay(chaos.delayMs);
    if (this.abandoned) return delivery;
    const headers = envelopeHeaders(delivery.event, delivery.id, signature);
    const { result, durationMs, second } = endpoint
      ? await sendAsPlanned(
          chaos,
          () => this.deps.transport.post(delivery.url, headers, delivery.body),
          this.deps.timeoutMs(),
        )
      : { result: { status: null, body: null, error: 'endpoint deleted' }, durationMs: 0, second: undefined };
    const effects = chaos
      ? effectsOf(chaos, turn, second && { response_status: second.status, error: second.error })
      : [];
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const attempt: StoredAttempt = {
      delivery_id: delivery.id,
      number,
      at,
      signature,
      response_status: result.status,
      response_body: result.body,
      duration_ms: durationMs,
      error: result.error,
      chaos: effects.length > 0 ? JSON.stringify(effects) : null,
    };
    if (this.abandoned) return delivery;
    return new Promise((done) => {
      this.finished.push({ delivery, attempt, ok, noEndpoint: !endpoint, lease, done });
      if (this.finished.length === 1) setImmediate(() => this.flush());
    });
  }

  /**
   * Records every send that finished since the last flush in one transaction (one commit for the
   * turn's responses instead of one each): the attempt, the delivery's new state, its retry or
   * the end of its lease (a fan-out lease ends with the record of the last of its sends). Until
   * then the lease stands, so a crash before this commit means a resend, as a crash mid-send
   * does. A batch that fails is recorded one by one, so one bad delivery (deleted meanwhile) does
   * not cost the others their record.
   */
  private flush(): void {
    const batch = this.finished;
    this.finished = [];
    if (this.abandoned) {
      for (const item of batch) item.done(item.delivery);
      return;
    }
    // One instant for the batch: its rows are written, and committed, together.
    const now = this.deps.clock.now();
    const nowIso = new Date(now).toISOString();
    let rows: (OutgoingDelivery | undefined)[];
    try {
      // The fan-out leases whose last sends are all in this batch end in its transaction.
      const inBatch = new Map<string, number>();
      for (const { lease } of batch) if (lease) inBatch.set(lease, (inBatch.get(lease) ?? 0) + 1);
      rows = this.deps.atomically(() => {
        const written = batch.map((item) => this.record(item, now, nowIso));
        for (const [lease, count] of inBatch) if (this.endsWith(lease, count)) this.endLease(lease);
        return written;
      });
      for (const item of batch) this.settleLease(item.lease, true);
    } catch {
      rows = batch.map((item) => {
        try {
          const row = this.deps.atomically(() => {
            const written = this.record(item, now, nowIso);
            if (item.lease && this.endsWith(item.lease, 1)) this.endLease(item.lease);
            return written;
          });
          this.settleLease(item.lease, true);
          return row;
        } catch (error) {
          // The attempt could not be recorded (the disk is full): the lease taken before the send
          // makes the delivery due again, so it is retried, never lost. A delivery that is gone
          // (a workspace reset while its send was out) has nothing to record: not an error.
          this.settleLease(item.lease, false);
          if (this.deps.repo.findDelivery(item.delivery.id) !== undefined)
            this.deps.log.error(
              { delivery: item.delivery.id, err: error },
              'could not record a webhook attempt',
            );
          return undefined;
        }
      });
    }
    // The live stream's view of an attempt, made only when someone listens.
    const listened = this.bus.listenerCount('attempt') > 0;
    batch.forEach((item, i) => {
      const updated = rows[i];
      if (updated && listened)
        this.bus.emit('attempt', {
          delivery: updated,
          attempt: sentAttempt(item.delivery, item.attempt),
        } satisfies AttemptEvent);
      item.done(updated ?? item.delivery);
    });
  }

  /** Whether recording `count` more sends of this fan-out lease records all of them, none failed. */
  private endsWith(lease: string, count: number): boolean {
    const state = this.fanoutLeases.get(lease);
    return state !== undefined && !state.failed && state.remaining === count;
  }

  private endLease(lease: string): void {
    this.deps.scheduler.cancel(JOB_FANOUT_LEASE, lease);
  }

  /**
   * One send of a fan-out lease recorded (or not). Once all are, the lease is forgotten here; if
   * one failed it was not removed, and falls due to send that delivery again.
   */
  private settleLease(lease: string | undefined, recorded: boolean): void {
    if (!lease) return;
    const state = this.fanoutLeases.get(lease);
    if (!state) return;
    state.remaining--;
    if (!recorded) state.failed = true;
    if (state.remaining <= 0) this.fanoutLeases.delete(lease);
  }

  private record(
    { delivery, attempt, ok, noEndpoint, lease }: Finished,
    now: number,
    nowIso: string,
  ): OutgoingDelivery {
    const number = attempt.number;
    this.deps.repo.insertAttempt(attempt);
    const exhausted = number >= MAX_ATTEMPTS || noEndpoint;
    const status: OutgoingDelivery['status'] = ok ? 'delivered' : exhausted ? 'failed' : 'pending';
    const next = status === 'pending' ? now + RETRY_DELAYS_MS[number - 1]! : null;
    // A first send under its event's fan-out lease has no job of its own to remove: nothing makes
    // one while it is in flight (a manual retry waits for it; the fan-out lease skips it).
    if (next === null) {
      if (!lease) this.deps.scheduler.cancel(JOB_DELIVER, delivery.id);
    } else this.deps.scheduler.schedule(JOB_DELIVER, delivery.id, next);
    deliveryStates.assert(delivery.status, status);
    const row: OutgoingDelivery = {
      ...delivery,
      status,
      attempt_count: number,
      next_attempt_at: next,
      updated_at: nowIso,
    };
    this.deps.repo.updateDelivery(row);
    return row;
  }
}
