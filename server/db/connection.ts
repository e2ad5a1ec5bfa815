import Database from 'better-sqlite3';
import { migrations } from './migrations/index.js';
import { runMigrations } from './migrate.js';

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
export function openDatabase(path: string, options: OpenOptions = {}): Db {
  const db = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  runMigrations(db, migrations);
  return db;
}
