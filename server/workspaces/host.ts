import type { CreateWorkspaceBody, Workspace as WorkspaceView } from '../contract/workspaces.js';
import { DEFAULT_WORKSPACE_ID } from '../contract/workspaces.js';
import { schemaTemplate } from '../db/template.js';
import { BusinessRuleError, ConflictError, NotFoundError } from '../errors.js';
import { createIds } from '../ids.js';
import { repointInboxes } from './fork.js';
import type { CheckpointRecord, WorkspaceRecord } from './registry.js';
import { WorkspaceRegistry } from './registry.js';
import { WorkspaceStorage } from './storage.js';
import { movedToNow, type SavedClock, Workspace, type WorldDeps } from './workspace.js';

export interface HostOptions extends Omit<WorldDeps, 'storage'> {
  /** the sandbox's database: a file, or ':memory:' */
  dbPath: string;
  /** the default workspace's seed and clock start (the sandbox's own options) */
  seed?: string | undefined;
  clockStart?: WorkspaceRecord['clock'] | undefined;
  nativeBinding?: string | undefined;
}

const DEFAULT_NAME = 'Default';
/** Real time, for the records' created_at (when a workspace was made, not its sandbox time). */
const realIso = (realNow: () => number) => new Date(realNow()).toISOString();

/**
 * Every workspace of one sandbox: made, found, forked, saved, restored and deleted here. The
 * default one always exists (the `--db` file itself, what every client sees without asking);
 * lasting ones are listed in the registry and reopened on start; ephemeral ones live in memory.
 */
export class WorkspaceHost {
  readonly storage: WorkspaceStorage;
  private readonly registry: WorkspaceRegistry;
  private readonly workspaces = new Map<string, Workspace>();
  /** API key → workspace id, filled on first use (keys are unique across workspaces) */
  private readonly keys = new Map<string, string>();
  private readonly deps: WorldDeps;
  private readonly realNow: () => number;
  private timer: NodeJS.Timeout | null = null;
  private readonly ids = createIds();
  private startName: string | null = null;

  constructor(options: HostOptions) {
    this.realNow = options.realNow ?? Date.now;
    // The template: an empty database with today's schema (the build's, checked, or migrated here).
    const template = schemaTemplate({ nativeBinding: options.nativeBinding });
    const openOptions = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
    this.storage = new WorkspaceStorage(options.dbPath, template, openOptions);
    this.registry = new WorkspaceRegistry(this.storage.dir);
    this.deps = {
      ...options,
      storage: this.storage,
      // An import beside the workspace a bundle came from: its keys are that workspace's.
      keyHeldElsewhere: (workspaceId, key) => {
        for (const workspace of this.workspaces.values())
          if (workspace.id !== workspaceId && workspace.ctx.repos.apiKeys.findByKey(key) !== undefined)
            return true;
        return false;
      },
    };

    const records = this.registry.load();
    const stored = records.find((record) => record.id === DEFAULT_WORKSPACE_ID);
    const defaults: WorkspaceRecord = {
      id: DEFAULT_WORKSPACE_ID,
      name: stored?.name ?? DEFAULT_NAME,
      created_at: stored?.created_at ?? realIso(this.realNow),
      seed: options.seed ?? null,
      ephemeral: options.dbPath === ':memory:',
      clock: options.clockStart ?? null,
      from: null,
      checkpoints: stored?.checkpoints ?? [],
    };
    const place = this.storage.place(DEFAULT_WORKSPACE_ID, true, defaults.ephemeral);
    const db = this.storage.openDefault(place);
    this.workspaces.set(DEFAULT_WORKSPACE_ID, new Workspace(defaults, true, this.deps, db));
    for (const record of records) {
      if (record.id === DEFAULT_WORKSPACE_ID || record.ephemeral) continue;
      const place = this.storage.place(record.id, false, false);
      this.workspaces.set(record.id, new Workspace(record, false, this.deps, this.storage.open(place)));
    }
  }

  /** Where a dashboard with no workspace of its own in mind opens (`serve --demo`: the demo). */
  openOn(idOrName: string | null): void {
    this.startName = idOrName;
  }

  /** The id of that workspace, while it exists. */
  get startWorkspace(): string | null {
    return this.startName === null ? null : (this.find(this.startName)?.id ?? null);
  }

  get default(): Workspace {
    return this.workspaces.get(DEFAULT_WORKSPACE_ID)!;
  }

  list(): Workspace[] {
    return [...this.workspaces.values()];
  }

  /** By id, or by name (names are unique, compared without case). */
  find(idOrName: string): Workspace | undefined {
    const byId = this.workspaces.get(idOrName);
    if (byId) return byId;
    const name = idOrName.toLowerCase();
    for (const workspace of this.workspaces.values())
      if (workspace.record.name.toLowerCase() === name) return workspace;
    return undefined;
  }

  require(idOrName: string): Workspace {
    const workspace = this.find(idOrName);
    if (!workspace) throw new NotFoundError('Workspace', idOrName);
    return workspace;
  }

  /** The workspace holding API key `key` (any workspace, if none does: the key is refused there). */
  findByKey(key: string): Workspace | undefined {
    const known = this.keys.get(key);
    if (known !== undefined) {
      const workspace = this.workspaces.get(known);
      if (workspace) return workspace;
      this.keys.delete(key);
    }
    if (this.workspaces.size === 1) return this.default;
    for (const workspace of this.workspaces.values()) {
      if (workspace.ctx.repos.apiKeys.findByKey(key) !== undefined) {
        if (this.keys.size >= 100_000) this.keys.clear();
        this.keys.set(key, workspace.id);
        return workspace;
      }
    }
    return undefined;
  }

  async create(body: CreateWorkspaceBody): Promise<Workspace> {
    const name = body.name ?? this.freeName();
    if (this.find(name) !== undefined && this.find(name)?.record.name.toLowerCase() === name.toLowerCase())
      throw new ConflictError(`A workspace named "${name}" already exists`);
    let image: Buffer | null = null;
    let clock: SavedClock | undefined;
    let source: Workspace | undefined;
    if (body.from) {
      source = this.require(body.from.workspace_id);
      if (body.from.checkpoint === undefined) {
        image = source.image();
        clock = { at: source.ctx.clock.now(), frozen: source.ctx.clock.frozen };
      } else {
        const checkpoint = this.checkpointOf(source, body.from.checkpoint);
        image = this.loadCheckpoint(source, checkpoint);
        clock = { at: checkpoint.at, frozen: checkpoint.frozen, toNow: checkpoint.restore_at === 'now' };
      }
    }
    const id = `ws_${this.ids.token(16)}`;
    const ephemeral = body.ephemeral === true || this.storage.dir === null;
    const start = body.clock?.start === undefined ? undefined : Date.parse(body.clock.start);
    const record: WorkspaceRecord = {
      id,
      name,
      created_at: realIso(this.realNow),
      seed: body.seed ?? null,
      ephemeral,
      clock:
        start === undefined
          ? body.clock?.frozen
            ? { at: this.realNow(), frozen: true }
            : null
          : { at: start, frozen: body.clock?.frozen ?? false },
      from: body.from
        ? { workspace_id: this.require(body.from.workspace_id).id, checkpoint: body.from.checkpoint ?? null }
        : null,
      checkpoints: [],
    };
    const place = this.storage.place(id, false, ephemeral);
    const db = image === null ? this.storage.open(place) : this.storage.openImage(place, image);
    // A fork of a moment that comes back now (the demo's) starts now, its history moved with it.
    if (clock) clock = { at: movedToNow(db, clock, this.realNow), frozen: clock.frozen };
    if (source) {
      const origins = { test: this.deps.baseUrl('test'), production: this.deps.baseUrl('production') };
      repointInboxes(db, { id: source.id, name: source.record.name }, id, origins);
    }
    const workspace = new Workspace(record, false, this.deps, db);
    // A copy holds its source's keys: it gets its own (a key finds exactly one workspace).
    if (image !== null) workspace.ctx.merchants.reissueKeys();
    if (clock) {
      if (clock.frozen) workspace.ctx.clock.restartFrozen(clock.at);
      else workspace.ctx.clock.restart(clock.at - this.realNow());
    }
    this.workspaces.set(id, workspace);
    this.saveRegistry();
    workspace.ctx.scheduler.wake();
    return workspace;
  }

  async delete(idOrName: string): Promise<void> {
    const workspace = this.require(idOrName);
    if (workspace.isDefault) throw new BusinessRuleError('The default workspace cannot be deleted');
    this.workspaces.delete(workspace.id);
    for (const [key, id] of this.keys) if (id === workspace.id) this.keys.delete(key);
    this.saveRegistry();
    await workspace.close();
    this.storage.removeFiles(workspace.place);
    this.storage.deleteCheckpoints(
      workspace.place,
      workspace.id,
      workspace.record.checkpoints.map((c) => c.name),
    );
  }

  /** Empties a workspace: its data goes, its settings and environments' keys stay. */
  async reset(workspace: Workspace): Promise<void> {
    for (const [key, id] of this.keys) if (id === workspace.id) this.keys.delete(key);
    await workspace.replace(null);
  }

  /** `restoreAt: 'now'`: the moment comes back at the real current time when restored or forked. */
  saveCheckpoint(workspace: Workspace, name: string, restoreAt: 'saved' | 'now' = 'saved'): CheckpointRecord {
    if (workspace.record.checkpoints.some((c) => c.name === name))
      throw new ConflictError(`A checkpoint named "${name}" already exists in this workspace`);
    const image = workspace.image();
    const record: CheckpointRecord = {
      name,
      at: workspace.ctx.clock.now(),
      frozen: workspace.ctx.clock.frozen,
      created_at: realIso(this.realNow),
      size_bytes: image.length,
      ...(restoreAt === 'now' ? { restore_at: 'now' as const } : {}),
    };
    this.storage.saveCheckpoint(workspace.place, workspace.id, name, image);
    workspace.record.checkpoints.push(record);
    this.saveRegistry();
    return record;
  }

  async restoreCheckpoint(workspace: Workspace, name: string): Promise<CheckpointRecord> {
    const checkpoint = this.checkpointOf(workspace, name);
    const image = this.loadCheckpoint(workspace, checkpoint);
    for (const [key, id] of this.keys) if (id === workspace.id) this.keys.delete(key);
    await workspace.replace(image, {
      at: checkpoint.at,
      frozen: checkpoint.frozen,
      toNow: checkpoint.restore_at === 'now',
    });
    return checkpoint;
  }

  deleteCheckpoint(workspace: Workspace, name: string): void {
    this.checkpointOf(workspace, name);
    workspace.record.checkpoints = workspace.record.checkpoints.filter((c) => c.name !== name);
    this.storage.deleteCheckpoint(workspace.place, workspace.id, name);
    this.saveRegistry();
  }

  present(workspace: Workspace): WorkspaceView {
    const { record, ctx } = workspace;
    return {
      id: record.id,
      name: record.name,
      created_at: record.created_at,
      default: workspace.isDefault,
      ephemeral: record.ephemeral,
      seed: record.seed,
      clock: { now: ctx.clock.nowIso(), offset_ms: Math.round(ctx.clock.offsetMs), frozen: ctx.clock.frozen },
      from: record.from,
      checkpoints: record.checkpoints.length,
    };
  }

  /** Runs what fell due while the sandbox was stopped, then wakes every workspace's work as time passes. */
  async start(tickMs = 250): Promise<void> {
    for (const workspace of this.workspaces.values()) await workspace.ctx.scheduler.runDue();
    if (this.timer) return;
    // One ticker for all workspaces: a thousand idle ones cost a thousand indexed reads a tick.
    this.timer = setInterval(() => {
      for (const workspace of this.workspaces.values()) void workspace.ctx.scheduler.runDue();
    }, tickMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const workspace of this.workspaces.values()) {
      await workspace.ctx.scheduler.stop();
      await workspace.ctx.dispatcher.close();
      workspace.ctx.batcher.commit();
      workspace.ctx.repos.requestLog.close();
      workspace.db.close();
      if (workspace.record.ephemeral && !workspace.isDefault) this.storage.removeFiles(workspace.place);
    }
    this.workspaces.clear();
  }

  private checkpointOf(workspace: Workspace, name: string): CheckpointRecord {
    const checkpoint = workspace.record.checkpoints.find((c) => c.name === name);
    if (!checkpoint) throw new NotFoundError('Checkpoint', name);
    return checkpoint;
  }

  private loadCheckpoint(workspace: Workspace, checkpoint: CheckpointRecord): Buffer {
    const image = this.storage.loadCheckpoint(workspace.place, workspace.id, checkpoint.name);
    if (!image) throw new NotFoundError('Checkpoint (its file is gone)', checkpoint.name);
    return image;
  }

  private freeName(): string {
    for (let n = this.workspaces.size; ; n++) {
      const name = `Workspace ${n}`;
      if (this.find(name) === undefined) return name;
    }
  }

  private saveRegistry(): void {
    this.registry.save([...this.workspaces.values()].map((workspace) => workspace.record));
  }
}
