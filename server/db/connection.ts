import Database from 'better-sqlite3';
import { runMigrations } from './migrate.js';
import { migrations } from './migrations/index.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** Path to a better-sqlite3 binary built for another runtime (the Electron shell passes one). */
  nativeBinding?: string;
}

/**
 * Opens (creating if needed) the sandbox database and brings its schema up to date.
 * WAL with synchronous=NORMAL: a committed transaction survives the process being killed
 * (it is in the WAL file); only an OS crash or power loss can drop the last few commits.
 */
export function openDatabase(path: string, options: OpenOptions & { current?: boolean } = {}): Db {
  // A short busy wait: with the exclusive lock, a second process would wait for nothing.
  const db = new Database(path, {
    timeout: 1000,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  configure(db, path !== ':memory:');
  // A file just written from this process's template has today's schema: nothing to check.
  if (!options.current) runMigrations(db, migrations);
  return db;
}

/**
 * Opens an in-memory database holding a copy of `image` (what `serialize()` gave: a workspace
 * template, a checkpoint). `current`: the image has today's schema (a template made by this
 * process), so no migration needs checking.
 */
export function openDatabaseImage(image: Buffer, options: OpenOptions & { current?: boolean } = {}): Db {
  const db = new Database(memoryImage(image), {
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  configure(db, false);
  if (!options.current) runMigrations(db, migrations);
  return db;
}

/**
 * The image as an in-memory database can read it: bytes 18 and 19 of the header say "WAL" for a
 * file in WAL mode, which a database without a file cannot open (they go back to 1, rollback).
 */
export function memoryImage(image: Buffer): Buffer {
  if (image.length < 20 || (image[18] === 1 && image[19] === 1)) return image;
  const copy = Buffer.from(image);
  copy[18] = 1;
  copy[19] = 1;
  return copy;
}

/**
 * The image as a file in WAL mode holds it (bytes 18 and 19 of the header: 2): written like this,
 * with no -wal file beside it, it is a WAL database closed cleanly, and opening it needs no switch
 * of journal mode (which commits, and syncs, through a rollback journal first).
 */
export function walImage(image: Buffer): Buffer {
  if (image.length < 20 || (image[18] === 2 && image[19] === 2)) return image;
  const copy = Buffer.from(image);
  copy[18] = 2;
  copy[19] = 2;
  return copy;
}

function configure(db: Db, file: boolean): void {
  // One exec for all of them: a workspace is opened in a few milliseconds, each pragma() call is
  // a statement prepared and run.
  const pragmas: string[] = [];
  if (file) {
    // One sandbox owns its file: the lock keeps a second process (which would run the same due
    // jobs twice) out, and lets WAL keep its index in memory, without a lock syscall per query.
    pragmas.push('locking_mode = EXCLUSIVE', 'journal_mode = WAL');
    // Checkpoint every ~40 MB of WAL rather than every 4 MB: a checkpoint costs an fsync and a
    // copy; keep the file itself from growing past 64 MB afterwards.
    pragmas.push('wal_autocheckpoint = 10000', 'journal_size_limit = 67108864');
  }
  pragmas.push(
    'synchronous = NORMAL',
    // Memory that does not grow with the data: an 8 MB page cache (better-sqlite3's build default
    // is 16 MB) and no memory-mapped I/O (mapped pages count in the process's RSS); reads past the
    // cache come from the OS's file cache.
    'cache_size = -8000',
    'mmap_size = 0',
    // Temporary files in memory: the group commit runs each request as a savepoint, and SQLite
    // keeps the pages a savepoint changes in a sub-journal that spills to a temporary file past
    // 64 KB — a batch of writes paid for it in write(2) calls (21 MB of temp-file writes against
    // 8 MB of WAL in a 2 s webhook trace). What it holds lives only until the batch commits.
    'temp_store = MEMORY',
    'foreign_keys = ON',
  );
  db.exec(pragmas.map((pragma) => `PRAGMA ${pragma};`).join(' '));
}
