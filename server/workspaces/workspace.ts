import type { AddressPrefetcher } from '../addresses/prefetcher.js';
import { type ClockStart, toIso } from '../clock.js';
import { createContext, type SandboxContext } from '../context.js';
import type { Env } from '../contract/common.js';
import type { Db } from '../db/connection.js';
import { createKvRepo, type KvEntry, type KvRepo } from '../db/kv.js';
import { Statements, UNWATCHED } from '../db/statements.js';
import { createIds, type Ids } from '../ids.js';
import { takeWorkspaceRequestLog } from '../request-log/workspace-table.js';
import type { SchedulerLogger } from '../scheduler.js';
import { Binding, type BoundWorkspace, type Mount } from './binding.js';
import type { WorkspaceRecord } from './registry.js';
import { shiftTimes } from './shift.js';
import type { WorkspacePlace, WorkspaceStorage } from './storage.js';
import { WorkspaceTransfer } from './transfer.js';

/** What every workspace of one sandbox shares: the process, its listeners, its settings. */
export interface WorldDeps {
  storage: WorkspaceStorage;
  /** the listeners' base URL for `env`; a workspace's own addresses add its path prefix */
  baseUrl: (env: Env) => string;
  realNow?: (() => number) | undefined;
  log: SchedulerLogger;
  requestLogLimit?: number | undefined;
  webhookCa?: readonly string[] | undefined;
  addressWorker?: AddressPrefetcher | undefined;
  appVersion: string;
  /** Called with every context a workspace mounts (its first, and each after a restore or reset). */
  onMount?: ((workspace: Workspace) => void) | undefined;
  /** Whether a workspace of the sandbox other than `workspaceId` holds API key `key`. */
  keyHeldElsewhere?: ((workspaceId: string, key: string) => boolean) | undefined;
}

/** The path prefix that names a workspace in a URL: hosted pages of other workspaces live under it. */
export const workspacePrefix = (id: string, isDefault: boolean) => (isDefault ? '' : `/w/${id}`);

/** How long a restore, reset or delete waits for the requests bound to the old context. */
const DRAIN_MS = 10_000;

/**
 * One isolated world: its own database, and the context built on it (clock, scheduler, webhook
 * dispatcher, request log, services). A request binds to the context mounted when it starts
 * (`bind`, at the HTTP edge) and keeps it to the end. A restore or a reset mounts a new database and
 * a new context in place of the old ones once the requests bound to the old one are done; requests
 * arriving meanwhile wait, then bind to the new one.
 */
export class Workspace {
  db!: Db;
  private mounted!: Mount;
  /** a replacement (or the close) under way: requests arriving wait for it */
  private changing: Promise<void> | null = null;
  private closed = false;
  readonly place: WorkspacePlace;
  private readonly ids: Ids;
  private readonly keyIds: Ids | undefined;

  constructor(
    readonly record: WorkspaceRecord,
    readonly isDefault: boolean,
    private readonly deps: WorldDeps,
    db: Db,
  ) {
    this.place = deps.storage.place(record.id, isDefault, record.ephemeral);
    this.ids = createIds(record.seed ?? undefined, deps.realNow);
    // Keys find their workspace, so they are unique across workspaces: two seeded with the same
    // seed make the same ids, but not the same keys.
    this.keyIds =
      isDefault || record.seed === null ? undefined : createIds(`${record.seed}:keys:${record.id}`);
    this.mount(db);
  }

  get id(): string {
    return this.record.id;
  }

  get prefix(): string {
    return workspacePrefix(this.record.id, this.isDefault);
  }

  /** The context mounted now (the host's own reads; a request reads its binding's). */
  get ctx(): SandboxContext {
    return this.mounted.ctx;
  }

  get transfer(): WorkspaceTransfer {
    return this.mounted.transfer;
  }

  /**
   * Binds a request to the context mounted now, until it calls `leave`. While a replacement is
   * under way, waits for it; null once the workspace is deleted.
   */
  bind(): BoundWorkspace | Promise<BoundWorkspace | null> | null {
    if (this.changing !== null) return this.changing.then(() => this.bind());
    if (this.closed) return null;
    return new Binding(this, this.mounted, true);
  }

  release(mount: Mount): void {
    mount.inflight--;
    if (mount.inflight === 0) mount.drained?.();
  }

  successor(): BoundWorkspace | null {
    return this.closed ? null : new Binding(this, this.mounted, false);
  }

  /**
   * Runs `change` alone: after any change before it, once the requests bound to the context mounted
   * now are done (or DRAIN_MS has passed: a request that never ends does not block a restore).
   * Requests arriving meanwhile wait for the change.
   */
  private async exclusively(change: () => Promise<void>): Promise<void> {
    while (this.changing !== null) await this.changing;
    let finish!: () => void;
    this.changing = new Promise((resolve) => {
      finish = resolve;
    });
    try {
      // Work of its own (due jobs, webhook sends) stops first: only requests are waited for.
      await this.mounted.ctx.scheduler.stop();
      await this.mounted.ctx.dispatcher.abandon();
      await drain(this.mounted);
      await change();
    } finally {
      this.changing = null;
      finish();
    }
  }

  /** Builds the context on `db` (the workspace's first database, or one replacing it). */
  private mount(db: Db): void {
    const { deps } = this;
    const prefix = this.prefix;
    const ctx = createContext({
      db,
      ids: this.ids,
      keyIds: this.keyIds,
      realNow: deps.realNow,
      clockStart: this.record.clock ?? undefined,
      baseUrl: (env) => `${deps.baseUrl(env)}${prefix}`,
      log: deps.log,
      requestLogLimit: deps.requestLogLimit,
      requestLogDir: this.place.requestLog,
      webhookCa: deps.webhookCa,
      addressWorker: deps.addressWorker,
    });
    // Before anything runs in it: leases a crash left standing are released.
    ctx.dispatcher.start();
    // A log kept in the workspace database (an older version's, an offline import's) moves over.
    const legacy = takeWorkspaceRequestLog(db);
    if (legacy.length > 0) ctx.repos.requestLog.replace(legacy);
    // Export/import (server/workspaces/transfer.ts): an import replaces every row, so afterwards every
    // in-memory copy of the data is dropped or read again.
    const transfer = new WorkspaceTransfer({
      db,
      nowIso: () => ctx.clock.nowIso(),
      appVersion: deps.appVersion,
      quiesce: () => ctx.dispatcher.idle(),
      commitPending: () => ctx.batcher.commit(),
      requestLog: ctx.repos.requestLog,
      afterReplace: () => {
        ctx.repos.requestLog.replace(takeWorkspaceRequestLog(db));
        ctx.merchants.clearCache();
        ctx.repos.checkouts.clearCache();
        ctx.clock.reload();
        ctx.settings.reload();
        ctx.scheduler.wake();
        ctx.changes.note({ kind: 'workspace' });
      },
      rekey: () => ctx.merchants.reissueKeysWhere((key) => deps.keyHeldElsewhere?.(this.id, key) ?? false),
    });
    this.db = db;
    this.mounted = { ctx, transfer, inflight: 0, drained: null };
    deps.onMount?.(this);
  }

  /** A copy of the workspace's database as it is now (what a checkpoint keeps). */
  image(): Buffer {
    this.ctx.batcher.commit();
    return this.db.serialize();
  }

  /**
   * Replaces the database with `image` (a checkpoint), or with an empty one (null: a reset, which
   * keeps the settings and the environments' keys). Sends in flight are cut off; the live streams
   * of the old context end, and their clients reconnect to the new one. `clock.toNow`: the moment
   * saved becomes the real current time, every stored time moved by as much (a demo's history ends
   * now again, however long after its checkpoint it is restored).
   */
  async replace(image: Buffer | null, clock?: SavedClock): Promise<void> {
    await this.exclusively(async () => {
      const old = this.ctx;
      const kept = image === null ? keptAcrossReset(this.ctx.repos.kv) : [];
      await this.unmount(image === null);
      const db = this.deps.storage.openImage(this.place, image);
      if (kept.length > 0) restoreKept(db, kept);
      const realNow = this.deps.realNow ?? Date.now;
      const back = clock && { at: movedToNow(db, clock, realNow), frozen: clock.frozen };
      this.mount(db);
      if (back) {
        // Back to the moment saved (at its own time, or moved to now), standing still or running on.
        if (back.frozen) this.ctx.clock.restartFrozen(back.at);
        else this.ctx.clock.restart(back.at - realNow());
      }
      old.changes.retire('replaced');
      this.ctx.scheduler.wake();
    });
  }

  /** Stops its work and closes its database (to delete it, or for good at shutdown). */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.exclusively(async () => {
      await this.unmount(false);
      this.closed = true;
      this.ctx.changes.retire('deleted');
    });
  }

  /**
   * Stops the context and closes a database that is going (replaced, or deleted): its files, and
   * with `clearLog` its request log, are moved away first and deleted in the background, and the
   * close writes nothing durable (the WAL it folds back goes with the file).
   */
  private async unmount(clearLog: boolean): Promise<void> {
    const { ctx, db } = this;
    await ctx.scheduler.stop();
    await ctx.dispatcher.abandon();
    ctx.batcher.commit();
    if (clearLog) ctx.repos.requestLog.discard();
    else ctx.repos.requestLog.close();
    this.deps.storage.discard(this.place, clearLog);
    db.pragma('synchronous = OFF');
    db.close();
  }

  /** Sandbox time now, as the workspace's own clock says. */
  nowIso(): string {
    return toIso(this.ctx.clock.now());
  }
}

/** Resolves once no request is bound to `mount` any more, or after DRAIN_MS. */
function drain(mount: Mount): Promise<void> {
  if (mount.inflight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, DRAIN_MS);
    timer.unref();
    function done() {
      clearTimeout(timer);
      mount.drained = null;
      resolve();
    }
    mount.drained = done;
  });
}

/** A saved moment's clock: its sandbox time, whether it stood still, and whether it comes back now. */
export interface SavedClock {
  at: number;
  frozen: boolean;
  /** the moment comes back at the real current time, its history moved with it */
  toNow?: boolean;
}

/**
 * The sandbox time a saved moment comes back at: its own, or (`toNow`) the real current time, with
 * every time stored in `db` (the moment's image, not yet mounted) moved by the difference.
 */
export function movedToNow(db: Db, clock: SavedClock, realNow: () => number): number {
  if (!clock.toNow) return clock.at;
  const now = realNow();
  shiftTimes(db, Math.round(now - clock.at));
  return now;
}

/** What a reset does not keep: the clock starts again, and a demo's own row goes with its data. */
const RESET_DROPS = new Set(['clock', 'demo']);

/** Rows a reset keeps: the settings and the environments' keys (everything in kv but the clock). */
function keptAcrossReset(kv: KvRepo): KvEntry[] {
  return kv.entries().filter((entry) => !RESET_DROPS.has(entry.key));
}

/** Written before the new database is mounted, so nobody watches: the reset is one `workspace` change. */
function restoreKept(db: Db, entries: readonly KvEntry[]): void {
  createKvRepo(new Statements(db, UNWATCHED)).putEntries(entries);
}

export type { ClockStart };
