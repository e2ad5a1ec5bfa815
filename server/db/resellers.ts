import type { Env } from '../contract/common.js';
import type { ResellerConnectionStatus } from '../contract/resellers.js';
import { createScopedLister, type Page } from './pagination.js';
import type { Statements } from './statements.js';

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
export function createResellersRepo(sql: Statements) {
  const insert = sql.writeRow<ResellerConnectionRow>(
    'reseller_connections',
    `INSERT INTO reseller_connections (id, reseller_id, merchant_id, env, status, rate, min_fee, max_fee, created_at, updated_at)
     VALUES (@id, @reseller_id, @merchant_id, @env, @status, @rate, @min_fee, @max_fee, @created_at, @updated_at)`,
  );
  // The status is written as the caller's state table decided it (ResellerService).
  const save = sql.writeRow<ResellerConnectionRow>(
    'reseller_connections',
    `UPDATE reseller_connections SET status = @status, rate = @rate, min_fee = @min_fee, max_fee = @max_fee,
       updated_at = @updated_at WHERE id = @id`,
  );
  const byId = sql.read<[string, string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE id = ? AND env = ?',
  );
  const byIdAnyEnv = sql.read<[string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE id = ?',
  );
  const byPair = sql.read<[string, string, string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE reseller_id = ? AND merchant_id = ? AND env = ?',
  );
  const remove = sql.write(
    'reseller_connections',
    'DELETE FROM reseller_connections WHERE id = ?',
    (id: string) => ({
      id,
    }),
  );
  const allOutgoing = sql.read<[string, string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE reseller_id = ? AND env = ? ORDER BY rowid DESC',
  );
  const allIncoming = sql.read<[string, string], ResellerConnectionRow>(
    'SELECT * FROM reseller_connections WHERE merchant_id = ? AND env = ? ORDER BY rowid DESC',
  );
  const outgoing = createScopedLister<ResellerConnectionRow>(
    sql.db,
    'reseller_connections',
    '',
    'reseller_id',
  );
  const incoming = createScopedLister<ResellerConnectionRow>(sql.db, 'reseller_connections');
  return {
    insert: (row: ResellerConnectionRow) => void insert(row),
    save: (row: ResellerConnectionRow) => void save(row),
    findById: (id: string, env: Env) => byId.get(id, env),
    /** Control API: a connection by id, whatever its environment. */
    findAnyEnv: (id: string) => byIdAnyEnv.get(id),
    /** The one connection from `resellerId` to `merchantId` in `env` (unique), if any. */
    findPair: (resellerId: string, merchantId: string, env: Env) => byPair.get(resellerId, merchantId, env),
    delete: (id: string) => void remove(id),
    outgoing: (resellerId: string, env: Env, page: Page) => outgoing(resellerId, env, page),
    incoming: (merchantId: string, env: Env, page: Page) => incoming(merchantId, env, page),
    allOutgoing: (resellerId: string, env: Env) => allOutgoing.all(resellerId, env),
    allIncoming: (merchantId: string, env: Env) => allIncoming.all(merchantId, env),
  };
}
export type ResellersRepo = ReturnType<typeof createResellersRepo>;
