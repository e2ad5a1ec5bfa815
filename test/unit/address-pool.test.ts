import { describe, expect, it } from 'vitest';
import { evmAddress, isChecksumAddress } from '../../server/addresses/formats.js';
import { EvmAddressPool } from '../../server/addresses/pool.js';
import { AddressSource } from '../../server/addresses/source.js';
import { createIds } from '../../server/ids.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('EvmAddressPool', () => {
  it('gives exactly the addresses derived on demand, in the same order, whatever the refills', async () => {
    const pooledIds = createIds('pool');
    const pool = new EvmAddressPool(() => pooledIds.bytes(20), 32, 5);
    const plainIds = createIds('pool');
    const taken: string[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 300; i++) {
      taken.push(pool.take());
      expected.push(evmAddress(plainIds.bytes(20)));
      if (i % 7 === 0) await turn(); // let background refills run between some takes
      if (i % 50 === 0) pool.fill(3);
      expect(pool.size).toBeLessThanOrEqual(32);
    }
    expect(taken).toEqual(expected);
    expect(taken.every(isChecksumAddress)).toBe(true);
  });

  it('refills in the background up to its capacity and never past it', async () => {
    const ids = createIds('bounded');
    const pool = new EvmAddressPool(() => ids.bytes(20), 20, 4);
    expect(pool.size).toBe(0);
    pool.take();
    for (let i = 0; i < 20; i++) await turn();
    expect(pool.size).toBe(20);
    pool.fill(100);
    expect(pool.size).toBe(20);
  });
});

describe('AddressSource without an address worker', () => {
  it('draws ahead only from an unseeded source: a seeded one gives the same sequence as before', () => {
    const a = createIds('seeded');
    const b = createIds('seeded');
    const source = new AddressSource(a);
    const fromGenerate = Array.from({ length: 20 }, () => source.next('ethereum'));
    const derived = Array.from({ length: 20 }, () => evmAddress(b.bytes(20)));
    expect(fromGenerate).toEqual(derived);
    // Nothing was drawn ahead: the next id of both sources is the same.
    expect(a.uuid()).toBe(b.uuid());
  });

  it('gives valid, distinct EIP-55 addresses from an unseeded source', async () => {
    const source = new AddressSource(createIds());
    const addresses = new Set<string>();
    for (let i = 0; i < 500; i++) {
      addresses.add(source.next(i % 2 ? 'polygon' : 'bsc'));
      if (i % 10 === 0) await turn();
    }
    expect(addresses.size).toBe(500);
    expect([...addresses].every(isChecksumAddress)).toBe(true);
  });
});
