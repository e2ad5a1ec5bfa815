import type { Env } from '../contract/common.js';
import type { Statements } from './statements.js';

export interface StaticAddressRow {
  id: number;
  merchant_id: string;
  env: Env;
  chain: string;
  address: string;
  created_at: string;
}

export function createStaticAddressesRepo(sql: Statements) {
  const insert = sql.writeRow<Omit<StaticAddressRow, 'id'>>(
    'static_addresses',
    `INSERT INTO static_addresses (merchant_id, env, chain, address, created_at)
     VALUES (@merchant_id, @env, @chain, @address, @created_at)`,
  );
  const list = sql.read<[string, string], StaticAddressRow>(
    'SELECT * FROM static_addresses WHERE merchant_id = ? AND env = ? ORDER BY id',
  );
  const byAddress = sql.read<[string], StaticAddressRow>('SELECT * FROM static_addresses WHERE address = ?');
  return {
    insert: (row: Omit<StaticAddressRow, 'id'>) => void insert(row),
    list: (merchantId: string, env: Env) => list.all(merchantId, env),
    findByAddress: (address: string) => byAddress.get(address),
  };
}
export type StaticAddressesRepo = ReturnType<typeof createStaticAddressesRepo>;
