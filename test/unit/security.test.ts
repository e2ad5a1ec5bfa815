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
