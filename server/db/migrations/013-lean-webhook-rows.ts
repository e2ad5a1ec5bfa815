import type { Migration } from '../migrate.js';

/**
 * Cheaper delivery and attempt rows: the same bytes are no longer stored three times.
 *
 * - A delivery's body is `{"id":<delivery id>,"event":<type>,"data":<the event's data>}`, and the
 *   event row holds that data already: an empty `body` means that one (read back from the event,
 *   byte for byte: see BODY in server/db/webhooks.ts). A delivery with no event row behind it (a
 *   test event) keeps its body. Old rows lose theirs only where the derived text is equal. (An
 *   empty text, not NULL: the columns stay as they were, so a bundle of this schema projected onto
 *   an older one still fits it, and nothing else in the schema changes.)
 * - An attempt's request body is its delivery's body: an empty `request_body` means that one. Its
 *   request headers are the standard ones but for the signature: `request_headers` that is not a
 *   JSON object is that signature (see requestHeaders). Old rows keep their headers as they are.
 * - Attempts lose AUTOINCREMENT (no sqlite_sequence write per attempt; attempt ids are only
 *   handles, nothing refers to them).
 * - `webhook_deliveries_status` goes: the lists filter by status within a merchant
 *   (webhook_deliveries_merchant_status), and the start-up release of leases goes through the
 *   jobs. Every delivery's status change wrote two entries of it.
 * - `webhook_deliveries_endpoint` goes: an endpoint's deliveries are its merchant's and
 *   environment's, so its list walks webhook_deliveries_merchant (the endpoint's merchant and
 *   environment are filled in when only the endpoint is given), and the pending ones of a deleted
 *   endpoint are found through webhook_deliveries_merchant_status. Each event's fan-out wrote an
 *   entry at a different place of it per endpoint: one more page per endpoint in every commit.
 */
export const leanWebhookRows: Migration = {
  version: 13,
  name: 'lean-webhook-rows',
  sql: `
CREATE TABLE webhook_attempts_new (
  id INTEGER PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  at TEXT NOT NULL,
  -- a JSON object: the headers sent; else the signature of the standard headers
  request_headers TEXT NOT NULL,
  -- empty: the delivery's body
  request_body TEXT NOT NULL,
  response_status INTEGER,
  response_body TEXT,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  UNIQUE (delivery_id, number)
);
INSERT INTO webhook_attempts_new (id, delivery_id, number, at, request_headers, request_body,
    response_status, response_body, duration_ms, error)
  SELECT a.id, a.delivery_id, a.number, a.at, a.request_headers,
    CASE WHEN a.request_body = (SELECT d.body FROM webhook_deliveries d WHERE d.id = a.delivery_id)
      THEN '' ELSE a.request_body END,
    a.response_status, a.response_body, a.duration_ms, a.error
  FROM webhook_attempts a;
DROP TABLE webhook_attempts;
ALTER TABLE webhook_attempts_new RENAME TO webhook_attempts;

UPDATE webhook_deliveries SET body = ''
  WHERE body = '{"id":' || json_quote(id) || ',"event":' || json_quote(event) || ',"data":'
    || (SELECT e.data FROM events e WHERE e.id = webhook_deliveries.event_id) || '}';

DROP INDEX webhook_deliveries_status;
DROP INDEX webhook_deliveries_endpoint;
`,
};
