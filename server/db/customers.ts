import type { Env } from '../contract/common.js';
import { createScopedLister, type Page } from './pagination.js';
import type { Statements } from './statements.js';

export interface CustomerRow {
  id: string;
  merchant_id: string;
  env: Env;
  name: string;
  email: string | null;
  phone: string | null;
  country: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export function createCustomersRepo(sql: Statements) {
  const insert = sql.writeRow<CustomerRow>(
    'customers',
    `INSERT INTO customers (id, merchant_id, env, name, email, phone, country, notes, created_at, updated_at)
     VALUES (@id, @merchant_id, @env, @name, @email, @phone, @country, @notes, @created_at, @updated_at)`,
  );
  const update = sql.writeRow<CustomerRow>(
    'customers',
    `UPDATE customers SET name = @name, email = @email, phone = @phone, country = @country, notes = @notes,
       updated_at = @updated_at WHERE id = @id`,
  );
  const byId = sql.read<[string, string], CustomerRow>('SELECT * FROM customers WHERE id = ? AND env = ?');
  const byEmail = sql.read<[string, string, string], CustomerRow>(
    'SELECT * FROM customers WHERE merchant_id = ? AND env = ? AND email = ? COLLATE NOCASE AND email IS NOT NULL ORDER BY rowid LIMIT 1',
  );
  const remove = sql.write('customers', 'DELETE FROM customers WHERE id = ?', (id: string) => ({ id }));
  const list = createScopedLister<CustomerRow>(sql.db, 'customers');
  return {
    insert: (row: CustomerRow) => void insert(row),
    update: (row: CustomerRow) => void update(row),
    findById: (id: string, env: Env) => byId.get(id, env),
    findByEmail: (merchantId: string, env: Env, email: string) => byEmail.get(merchantId, env, email),
    delete: (id: string) => void remove(id),
    list: (merchantId: string, env: Env, page: Page) => list(merchantId, env, page),
  };
}
export type CustomersRepo = ReturnType<typeof createCustomersRepo>;
