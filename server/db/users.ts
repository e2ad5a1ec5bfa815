import type { Statements } from './statements.js';

/** A user account (spec: test and production share user accounts). Provisioning creates them. */
export interface UserRow {
  id: string;
  email: string;
  /** `scrypt$N$r$p$salt$hash` (base64 salt and hash); the password itself is never stored */
  password_hash: string;
  full_name: string | null;
  merchant_id: string;
  created_at: string;
}

export function createUsersRepo(sql: Statements) {
  const insert = sql.writeRow<UserRow>(
    'users',
    `INSERT INTO users (id, email, password_hash, full_name, merchant_id, created_at)
     VALUES (@id, @email, @password_hash, @full_name, @merchant_id, @created_at)`,
  );
  const byEmail = sql.read<[string], UserRow>('SELECT * FROM users WHERE email = ? COLLATE NOCASE');
  const byId = sql.read<[string], UserRow>('SELECT * FROM users WHERE id = ?');
  return {
    insert: (row: UserRow) => void insert(row),
    /** Case-insensitive, as the unique index (Bob@Example.com is bob@example.com). */
    findByEmail: (email: string) => byEmail.get(email),
    findById: (id: string) => byId.get(id),
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;
