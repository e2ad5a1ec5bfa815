import type { BusinessType, KybStatus } from '../contract/merchants.js';
import { prepareRowWrite } from './bind.js';
import type { Db } from './connection.js';

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

export function createMerchantsRepo(db: Db) {
  const insert = prepareRowWrite<MerchantRow>(
    db,
    `INSERT INTO merchants (id, name, legal_name, country, kyb_status, platform_rate, btype, website, created_at, updated_at)
     VALUES (@id, @name, @legal_name, @country, @kyb_status, @platform_rate, @btype, @website, @created_at, @updated_at)`,
  );
  const update = db.prepare<MerchantRow>(
    `UPDATE merchants SET name = @name, legal_name = @legal_name, country = @country, kyb_status = @kyb_status,
       platform_rate = @platform_rate, updated_at = @updated_at WHERE id = @id`,
  );
  const byId = db.prepare<[string], MerchantRow>('SELECT * FROM merchants WHERE id = ?');
  const all = db.prepare<[], MerchantRow>('SELECT * FROM merchants ORDER BY rowid DESC');
  return {
    insert: (row: MerchantRow) => void insert(row),
    update: (row: MerchantRow) => void update.run(row),
    findById: (id: string) => byId.get(id),
    list: () => all.all(),
  };
}
export type MerchantsRepo = ReturnType<typeof createMerchantsRepo>;

export function createApiKeysRepo(db: Db) {
  const insert = prepareRowWrite<ApiKeyRow>(
    db,
    `INSERT INTO api_keys (id, merchant_id, name, role, key, created_at, revoked_at)
     VALUES (@id, @merchant_id, @name, @role, @key, @created_at, @revoked_at)`,
  );
  const byKey = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE key = ?');
  const byId = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const byMerchant = db.prepare<[string], ApiKeyRow>(
    'SELECT * FROM api_keys WHERE merchant_id = ? ORDER BY rowid DESC',
  );
  const revoke = db.prepare<[string, string]>(
    'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  return {
    insert: (row: ApiKeyRow) => void insert(row),
    findByKey: (key: string) => byKey.get(key),
    findById: (id: string) => byId.get(id),
    listByMerchant: (merchantId: string) => byMerchant.all(merchantId),
    revoke: (id: string, at: string) => void revoke.run(at, id),
  };
}
export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
