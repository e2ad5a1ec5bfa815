import { performance } from 'node:perf_hooks';
import type { SandboxClock } from './clock.js';
import type { JobRow, JobsRepo } from './db/jobs.js';

export type JobHandler = (job: JobRow) => void | Promise<void>;

/** What domain code needs to put work on the clock: schedule and cancel, nothing else. */
export type JobQueue = Pick<Scheduler, 'schedule' | 'cancel'>;
/** What a module needs to declare its scheduled work. */
export type JobRegistry = Pick<Scheduler, 'register'>;

export interface SchedulerLogger {
  error(obj: object, msg: string): void;
}

/**
 * Runs due work stored in the jobs table, in due order, on the sandbox clock. A light ticker wakes
 * it while real time passes; `advance` runs everything that became due before it returns. Timers
 * are only a wake-up: the truth is the table, so a restart picks up exactly where it stopped.
 */
export class Scheduler {
  private readonly handlers = new Map<string, JobHandler>();
  private running: Promise<number> | null = null;
  private rerun = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private waking = false;
  /** jobs that failed: how often in a row, and not before when (real time) to try again */
  private readonly backoff = new Map<number, { attempts: number; until: number }>();
  private readonly quiet: (() => Promise<void>)[] = [];

  constructor(
    private readonly jobs: JobsRepo,
    private readonly clock: SandboxClock,
    private readonly log: SchedulerLogger,
    /** Runs a synchronous unit of work in one transaction (the event recorder's). */
    private readonly atomically: <T>(fn: () => T) => T,
  ) {}

  /**
   * Work a job may start and not await (a webhook send): `settle` and `advance` wait for every
   * registered waiter before they return or move time on.
   */
  waitFor(idle: () => Promise<void>): void {
    this.quiet.push(idle);
  }

  /** Runs due work on the next turn of the event loop (new work due at once, after its commit). */
  wake(): void {
    if (this.waking) return;
    this.waking = true;
    setImmediate(() => {
      this.waking = false;
      void this.runDue();
    });
  }

  /** Runs what is due now and waits for the async work it started; resolves with how many ran. */
  async settle(): Promise<number> {
    const ran = await this.runDue();
    await this.idle();
    return ran;
  }

  private async idle(): Promise<void> {
    await Promise.all(this.quiet.map((idle) => idle()));
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  schedule(kind: string, ref: string, dueAt: number, payload?: unknown): void {
    this.jobs.schedule(kind, ref, dueAt, payload === undefined ? null : JSON.stringify(payload));
  }

  cancel(kind: string, ref: string): void {
    this.jobs.cancel(kind, ref);
  }

  /** Runs every job due at the clock's current time; resolves with how many ran. */
  runDue(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    if (this.running) {
      this.rerun = true;
      return this.running.then(() => this.runDue());
    }
    this.running = this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * Moves sandbox time forward by `ms`, stopping at each job's due time to run it then, so what it
   * records carries the time it fell due (a settlement 60 s after payment is stamped +60 s, not at
   * the end of the jump). `settle` waits for async work a job started (webhook sends) before time
   * moves on, so retries scheduled by a failure inside the window also run inside it.
   */
  async advance(ms: number): Promise<number> {
    const settle = () => this.idle();
    const target = this.clock.now() + ms;
    let ran = 0;
    for (let guard = 0; guard < 1_000_000; guard++) {
      const next = this.nextRunnable(target);
      if (!next) break;
      const now = this.clock.now();
      if (next.due_at > now) this.clock.advance(next.due_at - now);
      ran += await this.runDue();
      await settle();
    }
    const now = this.clock.now();
    if (target > now) this.clock.advance(target - now);
    ran += await this.runDue();
    await settle();
    return ran;
  }

  start(intervalMs = 250): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      void this.runDue();
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops for good (the database is about to close): later wake-ups do nothing. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async drain(): Promise<number> {
    let count = 0;
    do {
      this.rerun = false;
      for (let job = this.nextRunnable(); job; job = this.nextRunnable()) {
        await this.run(job);
        count++;
      }
    } while (this.rerun);
    return count;
  }

  /** The earliest due job not waiting out a failure's backoff. */
  private nextRunnable(now = this.clock.now()): JobRow | undefined {
    const realNow = performance.now();
    const batch = this.jobs.due(now, 1 + this.backoff.size);
    return batch.find((job) => (this.backoff.get(job.id)?.until ?? 0) <= realNow);
  }

  private async run(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      // Removing the job and the handler's synchronous effects commit together, so a crash in
      // between can neither lose the work nor run it twice. An async handler (a network call)
      // owns the durability of whatever it does after its first await.
      await this.atomically(() => {
        this.jobs.remove(job.id);
        return handler(job);
      });
      this.backoff.delete(job.id);
    } catch (error) {
      this.failed(job, error);
    }
  }

  /**
   * A job that throws (a full disk, a bug) is never dropped: it stays in the table, due, and is
   * tried again after a backoff in real time (1 s, doubling, at most a minute) while the process
   * runs, and at once after a restart. Recording the failure is best effort: when the disk is
   * still full that write fails too, and the job simply stays as it was.
   */
  private failed(job: JobRow, error: unknown): void {
    const attempts = (this.backoff.get(job.id)?.attempts ?? 0) + 1;
    const delay = Math.min(1000 * 2 ** (attempts - 1), 60_000);
    this.backoff.set(job.id, { attempts, until: performance.now() + delay });
    this.log.error({ job, attempts, retryInMs: delay, err: error }, 'scheduled job failed');
    try {
      const message = error instanceof Error ? error.message : String(error);
      this.atomically(() => this.jobs.markFailed(job.id, this.clock.nowIso(), message));
    } catch (recording) {
      this.log.error({ job, err: recording }, 'could not record the job failure');
    }
    // Wake up when the backoff ends, even if nothing else is due by then.
    setTimeout(() => this.wake(), delay + 5).unref();
  }
}
