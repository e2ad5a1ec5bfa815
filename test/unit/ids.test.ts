import { describe, expect, it } from 'vitest';
import { createIds } from '../../server/ids.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ids', () => {
  it('a seed gives the same sequence of uuids, tokens, hex and bytes every time', () => {
    const run = (seed: string) => {
      const ids = createIds(seed);
      return [ids.uuid(), ids.token(40), ids.hex(64), ids.bytes(7).toString('hex'), ids.uuid()];
    };
    expect(run('demo')).toEqual(run('demo'));
    expect(run('demo')).not.toEqual(run('demo2'));
  });

  it('values from one seeded generator do not repeat', () => {
    const ids = createIds('unique');
    const seen = new Set(Array.from({ length: 2000 }, () => ids.uuid()));
    expect(seen.size).toBe(2000);
  });

  it('without a seed, values are random', () => {
    expect(createIds().uuid()).not.toBe(createIds().uuid());
  });

  it('without a seed, uuids are version 7: the time (from the given source) first, so they sort by creation', () => {
    let ms = Date.parse('2026-11-23T10:00:00.000Z');
    const ids = createIds(undefined, () => ms);
    const made: string[] = [];
    for (let i = 0; i < 50; i++) {
      made.push(ids.uuid());
      ms += 1;
    }
    for (const id of made) expect(id).toMatch(UUID_V7);
    expect([...made].sort()).toEqual(made);
    expect(Number.parseInt(made[0]!.replace('-', '').slice(0, 12), 16)).toBe(
      Date.parse('2026-11-23T10:00:00.000Z'),
    );
    // Within one millisecond the random bits still make every id unique.
    const same = createIds(undefined, () => ms);
    expect(new Set(Array.from({ length: 1000 }, () => same.uuid())).size).toBe(1000);
  });

  it.each([
    ['seeded', 'x', UUID_V4],
    ['random', undefined, UUID_V7],
  ])('%s: uuid format, token base62 of the asked length, hex', (_l, seed, format) => {
    const ids = createIds(seed);
    for (let i = 0; i < 200; i++) expect(ids.uuid()).toMatch(format);
    for (const length of [1, 5, 40, 100]) {
      const token = ids.token(length);
      expect(token).toHaveLength(length);
      expect(token).toMatch(/^[0-9A-Za-z]+$/);
    }
    expect(ids.hex(7)).toMatch(/^[0-9a-f]{7}$/);
    expect(ids.hex(64)).toMatch(/^[0-9a-f]{64}$/);
    expect(ids.bytes(100)).toHaveLength(100);
  });

  it('token uses the whole base62 alphabet', () => {
    const ids = createIds('alphabet');
    const chars = new Set(ids.token(5000));
    expect(chars.size).toBe(62);
  });
});
