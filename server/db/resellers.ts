import type { Env } from '../contract/common.js';
import type { ResellerConnectionStatus } from '../contract/resellers.js';
import type { Db } from './connection.js';
import { createScopedLister, type Page } from './pagination.js';

export interface ResellerConnectionRow {
  id: string;
  reseller_id: string;
  /** the target merchant */
  merchant_id: string;
  env: Env;
  status: ResellerConnectionStatus;
  rate: number;
  min_fee: number | null;
  max_fee: number | null;
  created_at: string;
  updated_at: string;
}

/** Reseller connections, per environment. Lists are newest first (creation order). */
export function createResellersRepo(db: Db) {
  const insert = db.prepare<ResellerConnectionRow>(
    `INSERT INTO reseller_connections (id, reseller_id, merchant_id, env, status, rate, min_fee, max_fee, created_at, updated_at)
     VALUES (@id, @reseller_id, @merchant_id, @env, @status, @rate, @min_fee, @max_fee, @created_at, @updated_at)`,
  );
  // The status is written as the caller's state table decided it (ResellerService).
  const save = db.prepare<ResellerConnectionRow>(
    `UPDATE reseller_connections SET status = @status, rate = @rate, min_fee = @min_fee, max_fee = @max_fee,
       updated_at = @updated_at WHERE id = @id`,
  );
  const byId = db.prepare<[string, string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE id = ? AND env = ?',
  );
  const byIdAnyEnv = db.prepare<[string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE id = ?',
  );
  const byPair = db.prepare<[string, string, string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE reseller_id = ? AND merchant_id = ? AND env = ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM reseller_connections WHERE id = ?');
  const allOutgoing = db.prepare<[string, string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE reseller_id = ? AND env = ? ORDER BY rowid DESC',
  );
  const allIncoming = db.prepare<[string, string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE merchant_id = ? AND env = ? ORDER BY rowid DESC',
  );
  const outgoing = createScopedLister<ResellerConnectionRow>(db, 'reseller_connections', '', 'reseller_id');
  const incoming = createScopedLister<ResellerConnectionRow>(db, 'reseller_connections');
  return {
    insert: (row: ResellerConnectionRow) => void insert.run(row),
    save: (row: ResellerConnectionRow) => void save.run(row),
    findById: (id: string, env: Env) => byId.get(id, env),
    /** Control API: a connection by id, whatever its environment. */
    findAnyEnv: (id: string) => byIdAnyEnv.get(id),
    /** The one connection from `resellerId` to `merchantId` in `env` (unique), if any. */
    findPair: (resellerId: string, merchantId: string, env: Env) => byPair.get(resellerId, merchantId, env),
    delete: (id: string) => void remove.run(id),
    outgoing: (resellerId: string, env: Env, page: Page) => outgoing(resellerId, env, page),
    incoming: (merchantId: string, env: Env, page: Page) => incoming(merchantId, env, page),
    allOutgoing: (resellerId: string, env: Env) => allOutgoing.all(resellerId, env),
    allIncoming: (merchantId: string, env: Env) => allIncoming.all(merchantId, env),
  };
}
export type ResellersRepo = ReturnType<typeof createResellersRepo>;
