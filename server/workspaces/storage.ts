import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Db, memoryImage, type OpenOptions, openDatabase, openDatabaseImage } from '../db/connection.js';
import { requestLogDir } from '../request-log/segments.js';

/** Where one workspace keeps its database, request log and checkpoints. */
export interface WorkspacePlace {
  /** its database file; null: in memory */
  db: string | null;
  /** its request log's directory; undefined: in memory */
  requestLog: string | undefined;
  /** its checkpoints' directory; null: in memory */
  checkpoints: string | null;
}

/**
 * The files of a sandbox's workspaces. The default workspace is the `--db` file itself (what every
 * earlier version wrote); every other lasting one is `<db>-workspaces/<id>.db`, with its request
 * log and checkpoints beside it. Ephemeral workspaces, and all of a `:memory:` sandbox's, live in
 * memory. A new workspace starts as a copy of `template`: a database image with today's schema
 * (made once per process), so creating one never runs the migrations.
 */
export class WorkspaceStorage {
  /** `<db>-workspaces`, or null for a `:memory:` sandbox */
  readonly dir: string | null;
  private readonly memoryCheckpoints = new Map<string, Buffer>();

  constructor(
    private readonly mainDb: string,
    private readonly template: Buffer,
    private readonly options: OpenOptions,
  ) {
    this.dir = mainDb === ':memory:' ? null : `${mainDb}-workspaces`;
  }

  place(id: string, isDefault: boolean, ephemeral: boolean): WorkspacePlace {
    if (isDefault)
      return {
        db: this.mainDb === ':memory:' ? null : this.mainDb,
        requestLog: requestLogDir(this.mainDb),
        checkpoints: this.dir === null ? null : join(this.dir, `${id}.checkpoints`),
      };
    if (ephemeral || this.dir === null) return { db: null, requestLog: undefined, checkpoints: null };
    return {
      db: join(this.dir, `${id}.db`),
      requestLog: join(this.dir, `${id}-requests`),
      checkpoints: join(this.dir, `${id}.checkpoints`),
    };
  }

  /** Opens the workspace's database as it is on disk (a restart), or makes it from the template. */
  open(place: WorkspacePlace): Db {
    if (place.db === null) return openDatabaseImage(this.template, { ...this.options, current: true });
    if (!existsSync(place.db)) this.write(place.db, this.template);
    return openDatabase(place.db, this.options);
  }

  /** Opens a database holding `image` (a template, a checkpoint) in the workspace's place. */
  openImage(place: WorkspacePlace, image: Buffer | null): Db {
    if (place.db === null)
      return openDatabaseImage(image ?? this.template, { ...this.options, current: image === null });
    this.removeDatabase(place.db);
    this.write(place.db, image ?? this.template);
    return openDatabase(place.db, this.options);
  }

  /** Removes a closed workspace's database files (not its checkpoints). */
  removeFiles(place: WorkspacePlace): void {
    if (place.db !== null) this.removeDatabase(place.db);
    if (place.requestLog !== undefined) rmSync(place.requestLog, { recursive: true, force: true });
  }

  saveCheckpoint(place: WorkspacePlace, id: string, name: string, image: Buffer): void {
    if (place.checkpoints === null) {
      this.memoryCheckpoints.set(`${id}/${name}`, image);
      return;
    }
    mkdirSync(place.checkpoints, { recursive: true });
    const file = checkpointFile(place.checkpoints, name);
    writeFileSync(`${file}.tmp`, image);
    renameSync(`${file}.tmp`, file);
  }

  loadCheckpoint(place: WorkspacePlace, id: string, name: string): Buffer | undefined {
    if (place.checkpoints === null) return this.memoryCheckpoints.get(`${id}/${name}`);
    try {
      return readFileSync(checkpointFile(place.checkpoints, name));
    } catch {
      return undefined;
    }
  }

  deleteCheckpoint(place: WorkspacePlace, id: string, name: string): void {
    if (place.checkpoints === null) this.memoryCheckpoints.delete(`${id}/${name}`);
    else rmSync(checkpointFile(place.checkpoints, name), { force: true });
  }

  deleteCheckpoints(place: WorkspacePlace, id: string, names: readonly string[]): void {
    for (const name of names) this.memoryCheckpoints.delete(`${id}/${name}`);
    if (place.checkpoints !== null) rmSync(place.checkpoints, { recursive: true, force: true });
  }

  private write(path: string, image: Buffer): void {
    mkdirSync(join(path, '..'), { recursive: true });
    // A file starts in rollback mode; opening it turns on WAL.
    writeFileSync(path, memoryImage(image));
  }

  private removeDatabase(path: string): void {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
  }
}

/** A checkpoint's file: its name in hex, so any name the contract admits is a safe file name. */
function checkpointFile(dir: string, name: string): string {
  return join(dir, `${Buffer.from(name, 'utf8').toString('hex')}.db`);
}
