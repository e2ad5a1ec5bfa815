import type { Statement } from 'better-sqlite3';
import type { Env } from '../contract/common.js';
import type { Db } from './connection.js';

export interface EndpointRow {
  id: string;
  merchant_id: string;
  env: Env;
  url: string;
  events: string;
  secret: string;
  /** 1: kept, but fanned out to no more (issue 11) */
  disabled: 0 | 1;
  created_at: string;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  merchant_id: string;
  env: Env;
  event: string;
  url: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: number;
  next_attempt_at: number | null;
  created_at: string;
  updated_at: string;
}

export interface AttemptRow {
  id: number;
  delivery_id: string;
  number: number;
  at: string;
  request_headers: string;
  request_body: string;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
  error: string | null;
}

export interface DeliveryFilter {
  merchant_id?: string | undefined;
  env?: string | undefined;
  endpoint_id?: string | undefined;
  event?: string | undefined;
  status?: string | undefined;
  limit: number;
  /** keyset paging: deliveries older than this one */
  starting_after?: string | undefined;
}

export function createWebhooksRepo(db: Db) {
  const insertEndpoint = db.prepare<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, merchant_id, env, url, events, secret, disabled, created_at)
     VALUES (@id, @merchant_id, @env, @url, @events, @secret, @disabled, @created_at)`,
  );
  const updateEndpoint = db.prepare<Pick<EndpointRow, 'id' | 'url' | 'events' | 'disabled'>>(
    'UPDATE webhook_endpoints SET url = @url, events = @events, disabled = @disabled WHERE id = @id',
  );
  const endpointById = db.prepare<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ?');
  const endpointsOf = db.prepare<[string, string], EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE merchant_id = ? AND env = ? ORDER BY rowid DESC',
  );
  const deleteEndpoint = db.prepare<[string]>('DELETE FROM webhook_endpoints WHERE id = ?');
  const insertDelivery = db.prepare<DeliveryRow>(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, merchant_id, env, event, url, body, status,
       attempt_count, next_attempt_at, created_at, updated_at)
     VALUES (@id, @event_id, @endpoint_id, @merchant_id, @env, @event, @url, @body, @status,
       @attempt_count, @next_attempt_at, @created_at, @updated_at)`,
  );
  const updateDelivery = db.prepare<
    Pick<DeliveryRow, 'id' | 'status' | 'attempt_count' | 'next_attempt_at' | 'updated_at'>
  >(
    `UPDATE webhook_deliveries SET status = @status, attempt_count = @attempt_count,
       next_attempt_at = @next_attempt_at, updated_at = @updated_at WHERE id = @id`,
  );
  const deliveryById = db.prepare<[string], DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = ?');
  const pendingOfEndpoint = db.prepare<[string], DeliveryRow>(
    "SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending'",
  );
  const insertAttempt = db.prepare<Omit<AttemptRow, 'id'>>(
    `INSERT INTO webhook_attempts (delivery_id, number, at, request_headers, request_body, response_status,
       response_body, duration_ms, error)
     VALUES (@delivery_id, @number, @at, @request_headers, @request_body, @response_status, @response_body,
       @duration_ms, @error)`,
  );
  const attemptsOf = db.prepare<[string], AttemptRow>(
    'SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY number',
  );
  // One statement per combination of the filters in use (made on first need, a handful at most):
  // with `@x IS NULL OR col = @x` the plan could not use the (merchant_id, env[, event|status])
  // indexes and every listing was a scan of the whole table.
  const FILTERED = ['merchant_id', 'env', 'endpoint_id', 'event', 'status'] as const;
  const lists = new Map<string, Statement<Record<string, string | number>, DeliveryRow>>();
  const listFor = (columns: string[], after: boolean) => {
    const key = `${columns.join(',')}|${after}`;
    let statement = lists.get(key);
    if (!statement) {
      const where = [...columns.map((c) => `${c} = @${c}`), ...(after ? ['rowid < @after'] : [])];
      statement = db.prepare<Record<string, string | number>, DeliveryRow>(
        `SELECT * FROM webhook_deliveries${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
         ORDER BY rowid DESC LIMIT @limit`,
      );
      lists.set(key, statement);
    }
    return statement;
  };
  const deliveryRowid = db.prepare<[string], { rowid: number }>(
    'SELECT rowid FROM webhook_deliveries WHERE id = ?',
  );
  // Leases (a job due later than its delivery's own due time) of pending deliveries: due now.
  const releaseLeases = db.prepare<{ kind: string; now: number }>(
    `UPDATE jobs SET due_at = @now
     WHERE kind = @kind AND due_at > @now AND ref IN (
       SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= @now)`,
  );
  // Fan-out leases are leases and nothing else: all of them.
  const releaseAll = db.prepare<{ kind: string; now: number }>(
    'UPDATE jobs SET due_at = @now WHERE kind = @kind AND due_at > @now',
  );
  const attemptsFor = db.prepare<[string], AttemptRow>(
    `SELECT * FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?))
     ORDER BY delivery_id, number`,
  );

  return {
    insertEndpoint: (row: EndpointRow) => void insertEndpoint.run(row),
    findEndpoint: (id: string) => endpointById.get(id),
    endpointsOf: (merchantId: string, env: Env) => endpointsOf.all(merchantId, env),
    deleteEndpoint: (id: string) => void deleteEndpoint.run(id),
    updateEndpoint: (row: Pick<EndpointRow, 'id' | 'url' | 'events' | 'disabled'>) =>
      void updateEndpoint.run(row),
    insertDelivery: (row: DeliveryRow) => void insertDelivery.run(row),
    updateDelivery: (
      row: Pick<DeliveryRow, 'id' | 'status' | 'attempt_count' | 'next_attempt_at' | 'updated_at'>,
    ) => void updateDelivery.run(row),
    findDelivery: (id: string) => deliveryById.get(id),
    pendingOfEndpoint: (endpointId: string) => pendingOfEndpoint.all(endpointId),
    insertAttempt: (row: Omit<AttemptRow, 'id'>) => void insertAttempt.run(row),
    attemptsOf: (deliveryId: string) => attemptsOf.all(deliveryId),
    /** undefined when `starting_after` names no delivery */
    listDeliveries: (filter: DeliveryFilter) => {
      const params: Record<string, string | number> = { limit: filter.limit };
      const columns = FILTERED.filter((c) => filter[c] !== undefined);
      for (const c of columns) params[c] = filter[c]!;
      if (filter.starting_after !== undefined) {
        const anchor = deliveryRowid.get(filter.starting_after);
        if (!anchor) return undefined;
        params.after = anchor.rowid;
      }
      return listFor(columns, filter.starting_after !== undefined).all(params);
    },
    /**
     * At start-up, when nothing is in flight: the leases of pending deliveries that were due, and
     * the fan-out leases of new deliveries, fall due now (their send was cut short, or never
     * started). Returns how many.
     */
    releaseLeases: (deliverKind: string, fanoutKind: string, now: number) =>
      releaseLeases.run({ kind: deliverKind, now }).changes +
      releaseAll.run({ kind: fanoutKind, now }).changes,
    /** Attempts of many deliveries in one query (no N+1 when listing). */
    attemptsForMany: (deliveryIds: string[]) => attemptsFor.all(JSON.stringify(deliveryIds)),
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
