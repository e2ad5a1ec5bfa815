import type { Statement } from 'better-sqlite3';
import type { Env } from '../contract/common.js';
import type { Statements } from './statements.js';

export interface EndpointRow {
  id: string;
  merchant_id: string;
  env: Env;
  url: string;
  events: string;
  secret: string;
  /** 1: kept, but fanned out to no more */
  disabled: 0 | 1;
  /** listen's temporary endpoints: where listen forwards to; null on others */
  forward_to: string | null;
  /** delivery chaos settings (JSON of ChaosSettings); null: off */
  chaos: string | null;
  /** the state of the endpoint's seeded random sequence (server/webhooks/chaos.ts); null: off */
  chaos_state: number | null;
  created_at: string;
}

/** What an endpoint's health is computed from (see healthOf). */
interface HealthRow {
  last_success_id: number | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  given_up: number;
  pending: number;
  delivered: number;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  merchant_id: string;
  env: Env;
  event: string;
  url: string;
  /** the payload's data (JSON text) when it is not its event's (a test event); null: the event's */
  data: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: number;
  next_attempt_at: number | null;
  created_at: string;
  updated_at: string;
}

/** A delivery as the lists read it: its payload is not used (no list shows it). */
export type ListedDeliveryRow = Omit<DeliveryRow, 'data'>;

/** A delivery as read to send or show: the parts its request is made of (server/webhooks/envelope.ts). */
export interface DeliveryRead extends ListedDeliveryRow {
  /** the payload's data: its own, else its event's (null only if that event is gone) */
  data: string | null;
  /** the body as stored by a version that kept it whole, in a form the envelope does not make */
  verbatim_body: string | null;
}

/** An attempt as stored. */
export interface AttemptRow {
  id: number;
  delivery_id: string;
  number: number;
  at: string;
  /** the X-SVC-Signature sent ('' when nothing signed it: the endpoint was gone) */
  signature: string;
  /** the headers sent (a JSON object), where they were not the standard ones: older rows only */
  verbatim_headers: string | null;
  /** the body sent, where it was not the delivery's: older rows only */
  verbatim_body: string | null;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
  error: string | null;
  /** what delivery chaos did to it (JSON array of ChaosEffect); null: nothing */
  chaos: string | null;
}

/** An attempt as it is written now: the standard headers with its signature, its delivery's body. */
export type StoredAttempt = Omit<AttemptRow, 'id' | 'verbatim_headers' | 'verbatim_body'>;

/** An attempt as read to show: with the parts of its delivery its request was made of. */
export interface AttemptRead extends AttemptRow {
  event: string;
  data: string | null;
  delivery_verbatim_body: string | null;
}

/** The payload's data of delivery `d`: its own, else its event's. */
const DATA = 'COALESCE(d.data, (SELECT e.data FROM events e WHERE e.id = d.event_id))';

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

export function createWebhooksRepo(sql: Statements) {
  const insertEndpoint = sql.writeRow<EndpointRow>(
    'webhook_endpoints',
    `INSERT INTO webhook_endpoints (id, merchant_id, env, url, events, secret, disabled, chaos,
       chaos_state, forward_to, created_at)
     VALUES (@id, @merchant_id, @env, @url, @events, @secret, @disabled, @chaos, @chaos_state,
       @forward_to, @created_at)`,
  );
  const updateChaos = sql.writeRow<Pick<EndpointRow, 'id' | 'chaos' | 'chaos_state'>>(
    'webhook_endpoints',
    'UPDATE webhook_endpoints SET chaos = @chaos, chaos_state = @chaos_state WHERE id = @id',
  );
  const updateChaosState = sql.writeRow<Pick<EndpointRow, 'id' | 'chaos_state'>>(
    'webhook_endpoints',
    'UPDATE webhook_endpoints SET chaos_state = @chaos_state WHERE id = @id',
  );
  const updateEndpoint = sql.writeRow<Pick<EndpointRow, 'id' | 'url' | 'events' | 'disabled'>>(
    'webhook_endpoints',
    'UPDATE webhook_endpoints SET url = @url, events = @events, disabled = @disabled WHERE id = @id',
  );
  const endpointById = sql.read<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ?');
  const endpointsOf = sql.read<[string, string], EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE merchant_id = ? AND env = ? ORDER BY rowid DESC',
  );
  const deleteEndpoint = sql.write(
    'webhook_endpoints',
    'DELETE FROM webhook_endpoints WHERE id = ?',
    (id: string) => ({
      id,
    }),
  );
  const insertDelivery = sql.writeRow<DeliveryRow>(
    'webhook_deliveries',
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, merchant_id, env, event, url, data, status,
       attempt_count, next_attempt_at, created_at, updated_at)
     VALUES (@id, @event_id, @endpoint_id, @merchant_id, @env, @event, @url, @data, @status,
       @attempt_count, @next_attempt_at, @created_at, @updated_at)`,
  );
  const updateDelivery = sql.writeRow<
    Pick<DeliveryRow, 'id' | 'status' | 'attempt_count' | 'next_attempt_at' | 'updated_at'>
  >(
    'webhook_deliveries',
    `UPDATE webhook_deliveries SET status = @status, attempt_count = @attempt_count,
       next_attempt_at = @next_attempt_at, updated_at = @updated_at WHERE id = @id`,
  );
  const deliveryById = sql.read<[string], DeliveryRead>(
    `SELECT d.id, d.event_id, d.endpoint_id, d.merchant_id, d.env, d.event, d.url, ${DATA} AS data,
       d.verbatim_body, d.status, d.attempt_count, d.next_attempt_at, d.created_at, d.updated_at
     FROM webhook_deliveries d WHERE d.id = ?`,
  );
  // Through webhook_deliveries_merchant_status: an endpoint's deliveries are its merchant's.
  const pendingOfEndpoint = sql.read<Pick<EndpointRow, 'id' | 'merchant_id' | 'env'>, ListedDeliveryRow>(
    `SELECT * FROM webhook_deliveries
     WHERE merchant_id = @merchant_id AND env = @env AND status = 'pending' AND endpoint_id = @id`,
  );
  const insertAttempt = sql.writeRow<StoredAttempt>(
    'webhook_attempts',
    `INSERT INTO webhook_attempts (delivery_id, number, at, signature, response_status, response_body,
       duration_ms, error, chaos)
     VALUES (@delivery_id, @number, @at, @signature, @response_status, @response_body, @duration_ms, @error,
       @chaos)`,
  );
  // Attempts first (CROSS JOIN keeps that order): their index gives the ORDER BY.
  // The delivery's data only where the attempt's body is made of it.
  const ATTEMPT_COLUMNS = `a.id, a.delivery_id, a.number, a.at, a.signature, a.verbatim_headers,
       a.verbatim_body, a.response_status, a.response_body, a.duration_ms, a.error, a.chaos, d.event,
       CASE WHEN a.verbatim_body IS NULL AND d.verbatim_body IS NULL THEN ${DATA} END AS data,
       d.verbatim_body AS delivery_verbatim_body`;
  const attemptsOf = sql.read<[string], AttemptRead>(
    `SELECT ${ATTEMPT_COLUMNS}
     FROM webhook_attempts a CROSS JOIN webhook_deliveries d ON d.id = a.delivery_id
     WHERE a.delivery_id = ? ORDER BY a.number`,
  );
  // One statement per combination of the filters in use (made on first need, a handful at most):
  // with `@x IS NULL OR col = @x` the plan could not use the (merchant_id, env[, event|status])
  // indexes and every listing was a scan of the whole table.
  const FILTERED = ['merchant_id', 'env', 'endpoint_id', 'event', 'status'] as const;
  const lists = new Map<string, Statement<Record<string, string | number>, ListedDeliveryRow>>();
  const listFor = (columns: string[], after: boolean) => {
    const key = `${columns.join(',')}|${after}`;
    let statement = lists.get(key);
    if (!statement) {
      const where = [...columns.map((c) => `${c} = @${c}`), ...(after ? ['rowid < @after'] : [])];
      statement = sql.read<Record<string, string | number>, ListedDeliveryRow>(
        `SELECT * FROM webhook_deliveries${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
         ORDER BY rowid DESC LIMIT @limit`,
      );
      lists.set(key, statement);
    }
    return statement;
  };
  const deliveryRowid = sql.read<[string], { rowid: number }>(
    'SELECT rowid FROM webhook_deliveries WHERE id = ?',
  );
  // Leases (a job due later than its delivery's own due time) of pending deliveries: due now.
  // From the jobs (few: only work still to do) to their deliveries by id: no index on the
  // deliveries' status to keep up on every send.
  const releaseLeases = sql.writeRow<{ kind: string; now: number }>(
    'jobs',
    `UPDATE jobs SET due_at = @now
     WHERE kind = @kind AND due_at > @now AND EXISTS (
       SELECT 1 FROM webhook_deliveries d
       WHERE d.id = jobs.ref AND d.status = 'pending' AND d.next_attempt_at <= @now)`,
  );
  // Fan-out leases are leases and nothing else: all of them.
  const releaseAll = sql.writeRow<{ kind: string; now: number }>(
    'jobs',
    'UPDATE jobs SET due_at = @now WHERE kind = @kind AND due_at > @now',
  );
  const attemptsFor = sql.read<[string], AttemptRead>(
    `SELECT ${ATTEMPT_COLUMNS}
     FROM webhook_attempts a CROSS JOIN webhook_deliveries d ON d.id = a.delivery_id
     WHERE a.delivery_id IN (SELECT value FROM json_each(?))
     ORDER BY a.delivery_id, a.number`,
  );

  // An endpoint's health (server/webhooks/health.ts): through the (merchant_id, env[, status])
  // indexes, as an endpoint's deliveries are its merchant's. Dashboard reads only.
  const SUCCESS = 'a.response_status BETWEEN 200 AND 299';
  const OF_ENDPOINT = 'd.merchant_id = @merchant_id AND d.env = @env AND d.endpoint_id = @id';
  const healthOf = sql.read<Pick<EndpointRow, 'id' | 'merchant_id' | 'env'>, HealthRow>(
    `SELECT
       (SELECT MAX(a.id) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE ${OF_ENDPOINT} AND ${SUCCESS}) AS last_success_id,
       (SELECT a.at FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE ${OF_ENDPOINT} AND ${SUCCESS} ORDER BY a.id DESC LIMIT 1) AS last_success_at,
       (SELECT a.at FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE ${OF_ENDPOINT} AND (a.response_status IS NULL OR NOT ${SUCCESS})
         ORDER BY a.id DESC LIMIT 1) AS last_failure_at,
       (SELECT COUNT(*) FROM webhook_deliveries d WHERE ${OF_ENDPOINT} AND d.status = 'failed') AS given_up,
       (SELECT COUNT(*) FROM webhook_deliveries d WHERE ${OF_ENDPOINT} AND d.status = 'pending') AS pending,
       (SELECT COUNT(*) FROM webhook_deliveries d WHERE ${OF_ENDPOINT} AND d.status = 'delivered') AS delivered`,
  );
  // The failed attempts after the last success, and the deliveries given up among them.
  const streakOf = sql.read<
    Pick<EndpointRow, 'id' | 'merchant_id' | 'env'> & { after: number },
    { streak: number; given_up: number }
  >(
    `SELECT COUNT(*) AS streak,
       COUNT(DISTINCT CASE WHEN d.status = 'failed' THEN d.id END) AS given_up
     FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
     WHERE ${OF_ENDPOINT} AND a.id > @after`,
  );

  return {
    healthOf: (endpoint: Pick<EndpointRow, 'id' | 'merchant_id' | 'env'>) => {
      const key = { id: endpoint.id, merchant_id: endpoint.merchant_id, env: endpoint.env };
      const row = healthOf.get(key)!;
      const streak = streakOf.get({ ...key, after: row.last_success_id ?? 0 })!;
      return { ...row, failure_streak: streak.streak, given_up_in_streak: streak.given_up };
    },
    insertEndpoint: (row: EndpointRow) => void insertEndpoint(row),
    findEndpoint: (id: string) => endpointById.get(id),
    endpointsOf: (merchantId: string, env: Env) => endpointsOf.all(merchantId, env),
    deleteEndpoint: (id: string) => void deleteEndpoint(id),
    updateEndpoint: (row: Pick<EndpointRow, 'id' | 'url' | 'events' | 'disabled'>) =>
      void updateEndpoint(row),
    /** new chaos settings (null: off) and the start of their random sequence */
    updateChaos: (row: Pick<EndpointRow, 'id' | 'chaos' | 'chaos_state'>) => void updateChaos(row),
    /** the random sequence moved on (in the transaction of the decisions that drew from it) */
    updateChaosState: (id: string, state: number) => void updateChaosState({ id, chaos_state: state }),
    insertDelivery: (row: DeliveryRow) => void insertDelivery(row),
    updateDelivery: (
      row: Pick<DeliveryRow, 'id' | 'status' | 'attempt_count' | 'next_attempt_at' | 'updated_at'>,
    ) => void updateDelivery(row),
    findDelivery: (id: string) => deliveryById.get(id),
    pendingOfEndpoint: (endpoint: Pick<EndpointRow, 'id' | 'merchant_id' | 'env'>) =>
      pendingOfEndpoint.all({ id: endpoint.id, merchant_id: endpoint.merchant_id, env: endpoint.env }),
    insertAttempt: (row: StoredAttempt) => void insertAttempt(row),
    attemptsOf: (deliveryId: string) => attemptsOf.all(deliveryId),
    /** undefined when `starting_after` names no delivery */
    listDeliveries: (given: DeliveryFilter) => {
      // No index on endpoint_id: an endpoint's deliveries are those of its merchant and
      // environment, whose index gives the order (a deleted endpoint's are found by a walk).
      const endpoint =
        given.endpoint_id !== undefined && (given.merchant_id === undefined || given.env === undefined)
          ? endpointById.get(given.endpoint_id)
          : undefined;
      const filter = endpoint
        ? { ...given, merchant_id: given.merchant_id ?? endpoint.merchant_id, env: given.env ?? endpoint.env }
        : given;
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
      releaseLeases({ kind: deliverKind, now }).changes + releaseAll({ kind: fanoutKind, now }).changes,
    /** Attempts of many deliveries in one query (no N+1 when listing). */
    attemptsForMany: (deliveryIds: string[]) => attemptsFor.all(JSON.stringify(deliveryIds)),
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
