import type { Migration } from '../migrate.js';

/**
 * Delivery and attempt rows keep the parts of a webhook request, one meaning per column; the
 * envelope module (server/webhooks/envelope.ts) makes the bytes from them.
 *
 * - A delivery's `body` (a text that was empty when its event's data was meant) becomes `data`:
 *   the payload's data when it is not its event's (a test event's sample), NULL when it is. A
 *   stored body that is this delivery's envelope keeps exactly the data between its
 *   `{"id":…,"event":…,"data":` and its final `}`, so the envelope made of it is the same bytes.
 *   A stored body in any other form (no version wrote one) is kept whole in `verbatim_body`.
 * - An attempt's `request_headers` (a JSON object, or else a bare signature) becomes `signature`,
 *   the X-SVC-Signature sent ('' when the endpoint was gone). Headers that are exactly the standard
 *   ones (every version sent those) are reduced to their signature; any others are kept whole in
 *   `verbatim_headers`.
 * - An attempt's `request_body` (empty: its delivery's) becomes `verbatim_body`: NULL, the
 *   delivery's body; else the bytes that attempt sent, where they differed (no version did that).
 */
export const webhookParts: Migration = {
  version: 14,
  name: 'webhook-parts',
  sql: `
ALTER TABLE webhook_deliveries ADD COLUMN data TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN verbatim_body TEXT;
-- prefix: '{"id":' || json_quote(id) || ',"event":' || json_quote(event) || ',"data":'
UPDATE webhook_deliveries
  SET data = substr(body, length(json_quote(id)) + length(json_quote(event)) + 24,
    length(body) - length(json_quote(id)) - length(json_quote(event)) - 24)
  WHERE body <> ''
    AND substr(body, 1, length(json_quote(id)) + length(json_quote(event)) + 23)
      = '{"id":' || json_quote(id) || ',"event":' || json_quote(event) || ',"data":'
    AND length(body) > length(json_quote(id)) + length(json_quote(event)) + 24
    AND substr(body, -1) = '}';
UPDATE webhook_deliveries SET verbatim_body = body WHERE body <> '' AND data IS NULL;
ALTER TABLE webhook_deliveries DROP COLUMN body;

CREATE TABLE webhook_attempts_new (
  id INTEGER PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  at TEXT NOT NULL,
  -- the X-SVC-Signature sent; '' when nothing signed it (the endpoint was gone)
  signature TEXT NOT NULL,
  -- the headers sent (a JSON object) where they were not the standard ones: older rows only
  verbatim_headers TEXT,
  -- the body sent where it was not the delivery's: older rows only
  verbatim_body TEXT,
  response_status INTEGER,
  response_body TEXT,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  UNIQUE (delivery_id, number)
);
INSERT INTO webhook_attempts_new (id, delivery_id, number, at, signature, verbatim_headers,
    verbatim_body, response_status, response_body, duration_ms, error)
  SELECT id, delivery_id, number, at,
    CASE WHEN is_json
      THEN coalesce(json_extract(request_headers, '$."x-svc-signature"'), '')
      ELSE request_headers END,
    CASE WHEN NOT is_json THEN NULL
      WHEN request_headers IS NOT '{"content-type":"application/json","user-agent":'
        || '"svc-sandbox-webhooks/1","x-svc-event":' || json_quote(event) || ',"x-svc-delivery-id":'
        || json_quote(delivery_id) || ',"x-svc-signature":'
        || json_quote(json_extract(request_headers, '$."x-svc-signature"')) || '}'
      THEN request_headers END,
    nullif(request_body, ''),
    response_status, response_body, duration_ms, error
  FROM (
    SELECT a.*, d.event,
      substr(a.request_headers, 1, 1) = '{' AND json_valid(a.request_headers) AS is_json
    FROM webhook_attempts a LEFT JOIN webhook_deliveries d ON d.id = a.delivery_id
  );
DROP TABLE webhook_attempts;
ALTER TABLE webhook_attempts_new RENAME TO webhook_attempts;
`,
};
