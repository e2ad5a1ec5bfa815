import type { Delivery, DeliveryAttempt } from '../../api/types';

/** A POSIX shell word: single-quoted, with each `'` written as `'\''`. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A delivery attempt as a curl command that sends the same request again: the URL, every header
 * exactly as sent (so X-SVC-Signature still verifies against the endpoint's secret) and the raw body
 * byte for byte (`--data-raw`: no `@file` reading, no newline stripping).
 */
export function curlCommand(delivery: Pick<Delivery, 'url'>, attempt: DeliveryAttempt): string {
  const headers = Object.entries(attempt.request_headers).map(
    ([name, value]) => `  -H ${quote(`${name}: ${value}`)}`,
  );
  return [
    `curl -sS -X POST ${quote(delivery.url)}`,
    ...headers,
    `  --data-raw ${quote(attempt.request_body)}`,
  ].join(' \\\n');
}
