import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../server/contract/requests.js';
import { verify } from '../../server/domain/requests/verify.js';

let n = 0;
function entry(method: string, path: string, body: object | null = null, status = 200): RequestLogEntry {
  n++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    created_at: '2026-01-15T12:00:00.000Z',
    env: 'test',
    merchant_id: 'm',
    api_key_id: 'k',
    api_key: 'svcb_…abcd',
    method,
    route: path.replace(/\/[0-9a-f-]{36}$/, '/:id'),
    path,
    status,
    duration_ms: 1,
    request_body: body === null ? null : JSON.stringify(body),
    response_body: null,
  };
}

describe('verify: near misses', () => {
  it('lists requests of the method asked for first, however many other fields differ', () => {
    // Newest first, as the log lists them: two GETs of the path asked for, one POST elsewhere.
    const entries = [
      entry('GET', '/v1/checkouts'),
      entry('GET', '/v1/checkouts'),
      entry('POST', '/v1/invoices', { amount: 1 }),
    ];
    const result = verify({ method: 'POST', path: '/v1/checkouts', body: { amount: 5000 } }, entries);
    expect(result.ok).toBe(false);
    expect(result.near_misses.map((m) => `${m.request.method} ${m.request.path}`)).toEqual([
      'POST /v1/invoices',
      'GET /v1/checkouts',
      'GET /v1/checkouts',
    ]);
    // Without a method asked for, the fewest differences come first.
    const any = verify({ path: '/v1/checkouts', body: { amount: 5000 } }, entries);
    expect(any.near_misses[0]!.request.method).toBe('GET');
  });
});
