import type { BusinessType, KybStatus } from '../contract/merchants.js';
import type { Statements } from './statements.js';

export interface MerchantRow {
  id: string;
  name: string;
  legal_name: string | null;
  country: string | null;
  kyb_status: KybStatus;
  platform_rate: number | null;
  btype: BusinessType | null;
  website: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyRow {
  id: string;
  merchant_id: string;
  name: string;
  role: 'owner' | 'admin' | 'developer';
  key: string;
  created_at: string;
  revoked_at: string | null;
}

export function createMerchantsRepo(sql: Statements) {
  const insert = sql.writeRow<MerchantRow>(
    'merchants',
    `INSERT INTO merchants (id, name, legal_name, country, kyb_status, platform_rate, btype, website, created_at, updated_at)
     VALUES (@id, @name, @legal_name, @country, @kyb_status, @platform_rate, @btype, @website, @created_at, @updated_at)`,
  );
  const update = sql.writeRow<MerchantRow>(
    'merchants',
    `UPDATE merchants SET name = @name, legal_name = @legal_name, country = @country, kyb_status = @kyb_status,
       platform_rate = @platform_rate, updated_at = @updated_at WHERE id = @id`,
  );
  const byId = sql.read<[string], MerchantRow>('SELECT * FROM merchants WHERE id = ?');
  const all = sql.read<[], MerchantRow>('SELECT * FROM merchants ORDER BY rowid DESC');
  return {
    insert: (row: MerchantRow) => void insert(row),
    update: (row: MerchantRow) => void update(row),
    findById: (id: string) => byId.get(id),
    list: () => all.all(),
  };
}
export type MerchantsRepo = ReturnType<typeof createMerchantsRepo>;

export function createApiKeysRepo(sql: Statements) {
  const insert = sql.writeRow<ApiKeyRow>(
    'api_keys',
    `INSERT INTO api_keys (id, merchant_id, name, role, key, created_at, revoked_at)
     VALUES (@id, @merchant_id, @name, @role, @key, @created_at, @revoked_at)`,
  );
  const byKey = sql.read<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE key = ?');
  const byId = sql.read<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const byMerchant = sql.read<[string], ApiKeyRow>(
    'SELECT * FROM api_keys WHERE merchant_id = ? ORDER BY rowid DESC',
  );
  const revoke = sql.write(
    'api_keys',
    'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    (_at: string, id: string) => ({ id }),
  );
  const all = sql.read<[], { id: string }>('SELECT id FROM api_keys ORDER BY rowid');
  const setKey = sql.write(
    'api_keys',
    'UPDATE api_keys SET key = ? WHERE id = ?',
    (_key: string, id: string) => ({
      id,
    }),
  );
  return {
    /** every key's id, oldest first */
    allIds: () => all.all().map((row) => row.id),
    setKey: (id: string, key: string) => void setKey(key, id),
    insert: (row: ApiKeyRow) => void insert(row),
    findByKey: (key: string) => byKey.get(key),
    findById: (id: string) => byId.get(id),
    listByMerchant: (merchantId: string) => byMerchant.all(merchantId),
    revoke: (id: string, at: string) => void revoke(at, id),
  };
}
export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
