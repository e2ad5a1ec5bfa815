import { describe, expect, it } from 'vitest';
import { hostName, isLoopbackHost } from '../../server/http/plugins/local-only.js';

describe('hostName', () => {
  it.each([
    ['localhost', 'localhost'],
    ['localhost:4010', 'localhost'],
    ['LOCALHOST:4010', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['[::1]:4010', '[::1]'],
    ['example.com:443', 'example.com'],
  ])('%s → %s', (host, name) => {
    expect(hostName(host)).toBe(name);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'localhost:4010',
    '127.0.0.1',
    '127.0.0.1:4011',
    '[::1]',
    '[::1]:4010',
    'LocalHost:1',
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'evil.com',
    '127.0.0.1.evil.com',
    'localhost.evil.com:4010',
    'evil.com:4010',
    'localhost.',
    '127.0.0.2',
    '0.0.0.0',
    '::1',
    '[::2]:4010',
    '[::1].evil.com',
    '[::1]evil.com',
    '[::1]:4010.evil.com',
    'localhost:4010.evil.com',
    'localhost:4010:1',
    'user@localhost',
    'localhost@evil.com',
  ])('%j is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('localOnly hook', () => {
  it('remembers only a loopback Host: a foreign Host after it is still refused, on every route', async () => {
    const { default: Fastify } = await import('fastify');
    const { localOnlyPlugin } = await import('../../server/http/plugins/local-only.js');
    const app = Fastify();
    await app.register(localOnlyPlugin);
    app.get('/v1/ping', async () => ({ ok: true }));
    app.get('/sandbox/ping', async () => ({ ok: true }));
    try {
      const status = async (url: string, host: string) =>
        (await app.inject({ url, headers: { host } })).statusCode;
      expect(await status('/v1/ping', 'localhost:4010')).toBe(200);
      expect(await status('/v1/ping', 'localhost:4010')).toBe(200);
      expect(await status('/v1/ping', 'evil.com')).toBe(403);
      expect(await status('/sandbox/ping', 'localhost.evil.com:4010')).toBe(403);
      expect(await status('/v1/ping', '127.0.0.1:4010')).toBe(200);
      expect(await status('/v1/ping', 'localhost:4010')).toBe(200);
      // The router decodes %-escapes: /%73andbox is the control API and gets its checks.
      const encoded = await app.inject({
        url: '/%73andbox/ping',
        headers: { host: 'localhost:4010', origin: 'http://evil.com' },
      });
      expect(encoded.statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe('maskKey', () => {
  it('masks each key by its own last 4 characters, whatever key came before (the memo is per token)', async () => {
    const { maskKey } = await import('../../server/domain/requests/service.js');
    const a = `svcb_${'a'.repeat(28)}1111`;
    const b = `svcb_${'b'.repeat(28)}2222`;
    expect([maskKey(a), maskKey(a), maskKey(b), maskKey(a), maskKey('short')]).toEqual([
      'svcb_…1111',
      'svcb_…1111',
      'svcb_…2222',
      'svcb_…1111',
      '…',
    ]);
  });
});
