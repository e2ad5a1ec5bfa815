import type { Statements } from './statements.js';

export interface InboxRow {
  name: string;
  response_status: number;
  created_at: string;
}

export interface InboxMessageRow {
  id: number;
  inbox: string;
  received_at: string;
  headers: string;
  body: string;
  signature_valid: number | null;
  response_status: number;
}

export function createInboxRepo(sql: Statements) {
  const find = sql.read<[string], InboxRow>('SELECT * FROM inboxes WHERE name = ?');
  const upsert = sql.writeRow<InboxRow>(
    'inboxes',
    `INSERT INTO inboxes (name, response_status, created_at) VALUES (@name, @response_status, @created_at)
     ON CONFLICT (name) DO UPDATE SET response_status = excluded.response_status`,
  );
  const ensure = sql.writeRow<InboxRow>(
    'inboxes',
    `INSERT INTO inboxes (name, response_status, created_at) VALUES (@name, @response_status, @created_at)
     ON CONFLICT (name) DO NOTHING`,
  );
  const all = sql.read<[], InboxRow>('SELECT * FROM inboxes ORDER BY name');
  const insertMessage = sql.writeRow<Omit<InboxMessageRow, 'id'>>(
    'inbox_messages',
    `INSERT INTO inbox_messages (inbox, received_at, headers, body, signature_valid, response_status)
     VALUES (@inbox, @received_at, @headers, @body, @signature_valid, @response_status)`,
  );
  const messages = sql.read<[string, number], InboxMessageRow>(
    'SELECT * FROM inbox_messages WHERE inbox = ? ORDER BY id DESC LIMIT ?',
  );
  const clear = sql.write(
    'inbox_messages',
    'DELETE FROM inbox_messages WHERE inbox = ?',
    (inbox: string) => ({
      inbox,
    }),
  );
  return {
    find: (name: string) => find.get(name),
    upsert: (row: InboxRow) => void upsert(row),
    ensure: (row: InboxRow) => void ensure(row),
    all: () => all.all(),
    insertMessage: (row: Omit<InboxMessageRow, 'id'>) => void insertMessage(row),
    messages: (name: string, limit: number) => messages.all(name, limit),
    clear: (name: string) => void clear(name),
  };
}
export type InboxRepo = ReturnType<typeof createInboxRepo>;
