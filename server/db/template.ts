import { readFileSync } from 'node:fs';
import { type Db, type OpenOptions, openDatabase, openDatabaseImage } from './connection.js';

/** Where the build writes the template: beside this module in dist/server (scripts/bundle-server.js). */
export const SCHEMA_TEMPLATE_FILE = 'schema-template.db';

/**
 * The empty database with today's schema that every new workspace, and a new database file,
 * starts as. Running the migrations takes ~34 ms of every start, so the build runs them once and
 * writes the result beside this module; a start reads it and checks it as any database is checked
 * (each migration it holds must be today's, by its hash, and one added since is applied). Where the
 * file is not (the sources under test, the Electron shell's own bundle) or does not pass, the
 * migrations make the template as before.
 */
export function schemaTemplate(
  options: OpenOptions = {},
  file: URL | string = new URL(`./${SCHEMA_TEMPLATE_FILE}`, import.meta.url),
): Buffer {
  let db: Db | undefined;
  try {
    db = openDatabaseImage(readFileSync(file), options);
  } catch {
    db = undefined;
  }
  db ??= openDatabase(':memory:', options);
  try {
    return db.serialize();
  } finally {
    db.close();
  }
}
