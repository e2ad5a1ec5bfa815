import type { Db } from './connection.js';

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

export function createInboxRepo(db: Db) {
  const find = db.prepare<[string], InboxRow>('SELECT * FROM inboxes WHERE name = ?');
  const upsert = db.prepare<InboxRow>(
    `INSERT INTO inboxes (name, response_status, created_at) VALUES (@name, @response_status, @created_at)
     ON CONFLICT (name) DO UPDATE SET response_status = excluded.response_status`,
  );
  const ensure = db.prepare<InboxRow>(
    `INSERT INTO inboxes (name, response_status, created_at) VALUES (@name, @response_status, @created_at)
     ON CONFLICT (name) DO NOTHING`,
  );
  const all = db.prepare<[], InboxRow>('SELECT * FROM inboxes ORDER BY name');
  const insertMessage = db.prepare<Omit<InboxMessageRow, 'id'>>(
    `INSERT INTO inbox_messages (inbox, received_at, headers, body, signature_valid, response_status)
     VALUES (@inbox, @received_at, @headers, @body, @signature_valid, @response_status)`,
  );
  const messages = db.prepare<[string, number], InboxMessageRow>(
    'SELECT * FROM inbox_messages WHERE inbox = ? ORDER BY id DESC LIMIT ?',
  );
  const clear = db.prepare<[string]>('DELETE FROM inbox_messages WHERE inbox = ?');
  return {
    find: (name: string) => find.get(name),
    upsert: (row: InboxRow) => void upsert.run(row),
    ensure: (row: InboxRow) => void ensure.run(row),
    all: () => all.all(),
    insertMessage: (row: Omit<InboxMessageRow, 'id'>) => void insertMessage.run(row),
    messages: (name: string, limit: number) => messages.all(name, limit),
    clear: (name: string) => void clear.run(name),
  };
}
export type InboxRepo = ReturnType<typeof createInboxRepo>;
