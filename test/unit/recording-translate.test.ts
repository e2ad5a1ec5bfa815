// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import { describe, expect, it } from 'vitest';
import {
  duration,
  isVolatile,
  prefixFor,
  relativeTime,
  slug,
  substitute,
  substitutePath,
} from '../../server/recording/translate.js';

const ID = '264b7e1a-28f4-4b43-ba1e-c70054554a72';
const refs = new Map([
  [ID, 'co1.id'],
  ['svcb_test_abc', 'acme.key'],
]);
const refOf = (v: string) => refs.get(v);

describe('recording translation', () => {
  it('writes durations the format reads, combined when needed', () => {
    expect(duration(7200)).toBe('2h');
    expect(duration(1800)).toBe('30m');
    expect(duration(5400)).toBe('1h30m');
    expect(duration(7 * 86_400)).toBe('7d');
    expect(duration(45)).toBe('45s');
    expect(duration(0)).toBe('0s');
    expect(duration(-90)).toBe('1m30s');
  });

  it('makes body timestamps relative to the sandbox time, in whole seconds', () => {
    const now = Date.parse('2026-01-15T12:00:00.000Z');
    expect(relativeTime('2026-01-16T11:59:59.990Z', now)).toBe('clock.in.1d');
    expect(relativeTime('2026-01-15T11:30:00Z', now)).toBe('clock.ago.30m');
    expect(relativeTime('2026-01-15', now)).toBeUndefined();
    expect(relativeTime('order 2026-01-15T11:30:00Z', now)).toBeUndefined();
  });

  it('names merchants and created objects readably', () => {
    expect(slug('Acme Coffee')).toBe('acme_coffee');
    expect(slug('  Ünïcode & Co. ')).toBe('unicode_co');
    expect(slug('42 Widgets')).toBe('m_42_widgets');
    expect(slug('!!!')).toBe('merchant');
    expect(prefixFor('/v1/checkouts')).toBe('co');
    expect(prefixFor('/sandbox/merchants/:id/checkouts')).toBe('co');
    expect(prefixFor('/v1/cardholders/:id/cards')).toBe('card');
    expect(prefixFor('/sandbox/checkouts/:id/payments')).toBe('pay');
    expect(prefixFor('/sandbox/something-new')).toBe('somethingnew');
  });

  it('replaces known values in paths, queries and bodies, and escapes literal references', () => {
    expect(substitutePath(`/v1/checkouts/${ID}/refund`, refOf)).toBe('/v1/checkouts/${co1.id}/refund');
    expect(substitutePath(`/sandbox/x?checkout=${ID}&env=test`, refOf)).toBe(
      '/sandbox/x?checkout=${co1.id}&env=test',
    );
    expect(
      substitute({ checkout_id: ID, nested: [{ key: 'svcb_test_abc' }], note: 'costs ${5}', n: 3 }, refOf),
    ).toEqual({ checkout_id: '${co1.id}', nested: [{ key: '${acme.key}' }], note: 'costs $${5}', n: 3 });
  });

  it("splices the sandbox's own address into URLs under it, and only under it", () => {
    const own: [string, string][] = [['http://127.0.0.1:4010', 'sandbox.urls.test']];
    expect(
      substitute(
        {
          url: 'http://127.0.0.1:4010/sandbox/inbox/hooks',
          other: 'http://127.0.0.1:40100/x',
          exact: 'http://127.0.0.1:4010',
          away: 'https://example.com/hooks',
        },
        refOf,
        own,
      ),
    ).toEqual({
      url: '${sandbox.urls.test}/sandbox/inbox/hooks',
      other: 'http://127.0.0.1:40100/x',
      exact: '${sandbox.urls.test}',
      away: 'https://example.com/hooks',
    });
  });

  it('knows which values differ in every sandbox', () => {
    expect(isVolatile('id', ID)).toBe(true);
    expect(isVolatile('key', 'svcb_test_abc')).toBe(true);
    expect(isVolatile('address', '0x20424C80c4c13962DBeEac694174BEC0c83f3C86')).toBe(true);
    expect(isVolatile('contract_address', '0x20424C80c4c13962DBeEac694174BEC0c83f3C86')).toBe(false);
    expect(isVolatile('status', 'active')).toBe(false);
  });
});
