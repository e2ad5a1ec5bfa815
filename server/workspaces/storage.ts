import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Db,
  memoryImage,
  type OpenOptions,
  openDatabase,
  openDatabaseImage,
  walImage,
} from '../db/connection.js';
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
  /** files and directories moved away so far (numbers their places in the trash) */
  private discarded = 0;

  constructor(
    private readonly mainDb: string,
    private readonly template: Buffer,
    private readonly options: OpenOptions,
  ) {
    this.dir = mainDb === ':memory:' ? null : `${mainDb}-workspaces`;
    // What an earlier run moved away and had not finished deleting when it stopped.
    if (this.dir !== null) void rm(join(this.dir, TRASH), { recursive: true, force: true }).catch(() => {});
  }

  /**
   * Moves a workspace's database files (and, with `log`, its request log) out of their place at
   * once, to be deleted in the background: a reset or a restore does not wait for the file system
   * to free a database of 100,000 checkouts. A rename keeps the open connection's file, so the
   * connection can still be closed afterwards (it then writes into the moved file, never into the
   * new one at the old name). Nothing to do in memory.
   */
  discard(place: WorkspacePlace, log: boolean): void {
    if (this.dir === null) return;
    const trash = join(this.dir, TRASH);
    const away: string[] = [];
    const paths = place.db === null ? [] : DB_SUFFIXES.map((suffix) => `${place.db}${suffix}`);
    if (log && place.requestLog !== undefined) paths.push(place.requestLog);
    for (const path of paths) {
      if (!existsSync(path)) continue;
      mkdirSync(trash, { recursive: true });
      const target = join(trash, `${process.pid}-${++this.discarded}`);
      try {
        renameSync(path, target);
        away.push(target);
      } catch {
        // Another file system (a --db on another disk than its -workspaces directory): deleted now.
        rmSync(path, { recursive: true, force: true });
      }
    }
    for (const target of away) void rm(target, { recursive: true, force: true }).catch(() => {});
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

  /**
   * The default workspace's database: the file as it is (migrated if an earlier version made it),
   * or, where there is none yet, a new one from the template, as a reset makes it. Not made by
   * running the migrations on the file: that took ~20 ms of every first start, against ~2.
   */
  openDefault(place: WorkspacePlace): Db {
    if (place.db === null) return openDatabaseImage(this.template, { ...this.options, current: true });
    if (!existsSync(place.db)) {
      mkdirSync(join(place.db, '..'), { recursive: true });
      try {
        // `wx`: only if no file is there yet (another process starting on the same path has it).
        writeFileSync(place.db, walImage(this.template), { flag: 'wx' });
        return openDatabase(place.db, { ...this.options, current: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return openDatabase(place.db, this.options);
  }

  /** Opens a database holding `image` (a template, a checkpoint) in the workspace's place. */
  openImage(place: WorkspacePlace, image: Buffer | null): Db {
    if (place.db === null)
      return openDatabaseImage(image ?? this.template, { ...this.options, current: image === null });
    this.removeDatabase(place.db);
    if (image === null) {
      // The template (a reset): this process made it, with today's schema, straight into WAL mode.
      mkdirSync(join(place.db, '..'), { recursive: true });
      writeFileSync(place.db, walImage(this.template));
      return openDatabase(place.db, { ...this.options, current: true });
    }
    this.write(place.db, image);
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
    for (const suffix of DB_SUFFIXES) rmSync(`${path}${suffix}`, { force: true });
  }
}

const DB_SUFFIXES = ['', '-wal', '-shm', '-journal'] as const;
/** Where discarded files wait to be deleted, inside the workspaces' directory. */
const TRASH = '.trash';

/** A checkpoint's file: its name in hex, so any name the contract admits is a safe file name. */
function checkpointFile(dir: string, name: string): string {
  return join(dir, `${Buffer.from(name, 'utf8').toString('hex')}.db`);
}
