import type { Env } from '../contract/common.js';
import type { Db } from './connection.js';
import { createScopedLister, type Page } from './pagination.js';

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

export function createCustomersRepo(db: Db) {
  const insert = db.prepare<CustomerRow>(
    `INSERT INTO customers (id, merchant_id, env, name, email, phone, country, notes, created_at, updated_at)
     VALUES (@id, @merchant_id, @env, @name, @email, @phone, @country, @notes, @created_at, @updated_at)`,
  );
  const update = db.prepare<CustomerRow>(
    `UPDATE customers SET name = @name, email = @email, phone = @phone, country = @country, notes = @notes,
       updated_at = @updated_at WHERE id = @id`,
  );
  const byId = db.prepare<[string, string], CustomerRow>('SELECT * FROM customers WHERE id = ? AND env = ?');
  const byEmail = db.prepare<[string, string, string], CustomerRow>(
    'SELECT * FROM customers WHERE merchant_id = ? AND env = ? AND email = ? COLLATE NOCASE AND email IS NOT NULL ORDER BY rowid LIMIT 1',
  );
  const remove = db.prepare<[string]>('DELETE FROM customers WHERE id = ?');
  const list = createScopedLister<CustomerRow>(db, 'customers');
  return {
    insert: (row: CustomerRow) => void insert.run(row),
    update: (row: CustomerRow) => void update.run(row),
    findById: (id: string, env: Env) => byId.get(id, env),
    findByEmail: (merchantId: string, env: Env, email: string) => byEmail.get(merchantId, env, email),
    delete: (id: string) => void remove.run(id),
    list: (merchantId: string, env: Env, page: Page) => list(merchantId, env, page),
  };
}
export type CustomersRepo = ReturnType<typeof createCustomersRepo>;
