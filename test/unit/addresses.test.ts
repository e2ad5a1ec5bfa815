import { randomBytes } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  generateTxid,
  isChecksumAddress,
  isValidAddress,
  keccak256,
  toChecksumAddress,
} from '../../server/addresses/formats.js';
import { AddressSource } from '../../server/addresses/source.js';
import { createIds } from '../../server/ids.js';

const base58check = createBase58check(sha256);

// EIP-55's own test vectors.
const EIP55 = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EIP-55 checksum addresses', () => {
  it.each(EIP55)('toChecksumAddress reproduces %s from any case', (address) => {
    const hex = address.slice(2);
    expect(toChecksumAddress(hex.toLowerCase())).toBe(address);
    expect(toChecksumAddress(hex.toUpperCase())).toBe(address);
    expect(isChecksumAddress(address)).toBe(true);
  });

  it('isChecksumAddress rejects a wrong case, a wrong length and non-hex', () => {
    expect(isChecksumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(isChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(false);
    expect(isChecksumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBe(false);
    expect(isChecksumAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isChecksumAddress('0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });
});

describe('Keccak-256', () => {
  it('is the JavaScript digest, whichever this Node uses (OpenSSL where it has it)', () => {
    expect(Buffer.from(keccak256(new Uint8Array(0))).toString('hex')).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    for (const length of [1, 20, 40, 135, 136, 137, 1000]) {
      const data = randomBytes(length);
      expect(Buffer.from(keccak256(data)).toString('hex')).toBe(
        Buffer.from(keccak_256(data)).toString('hex'),
      );
    }
  });
});

describe('AddressSource (seeded)', () => {
  const source = new AddressSource(createIds('addresses'));

  it.each(['ethereum', 'polygon', 'bsc', 'arbitrum'])(
    '%s: an EIP-55 checksummed 20-byte hex address',
    (chain) => {
      for (let i = 0; i < 20; i++) {
        const address = source.next(chain);
        expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
        expect(isChecksumAddress(address)).toBe(true);
        expect(isValidAddress(chain, address)).toBe(true);
      }
    },
  );

  it('tron: base58check starting with T, decoding to 21 bytes with version 0x41', () => {
    for (let i = 0; i < 20; i++) {
      const address = source.next('tron');
      expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      const raw = base58check.decode(address);
      expect(raw).toHaveLength(21);
      expect(raw[0]).toBe(0x41);
      expect(isValidAddress('tron', address)).toBe(true);
    }
  });

  it('bitcoin: bech32 bc1q (witness v0, 20-byte program: P2WPKH)', () => {
    for (let i = 0; i < 20; i++) {
      const address = source.next('bitcoin');
      expect(address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
      const decoded = bech32.decode(address as `${string}1${string}`);
      expect(decoded.prefix).toBe('bc');
      expect(decoded.words[0]).toBe(0);
      expect(bech32.fromWords(decoded.words.slice(1))).toHaveLength(20);
      expect(isValidAddress('bitcoin', address)).toBe(true);
    }
  });

  it('is deterministic for a seed and different across calls', () => {
    const a = new AddressSource(createIds('same'));
    const b = new AddressSource(createIds('same'));
    const fromA = ['ethereum', 'tron', 'bitcoin'].map((chain) => a.next(chain));
    const fromB = ['ethereum', 'tron', 'bitcoin'].map((chain) => b.next(chain));
    expect(fromA).toEqual(fromB);
    expect(a.next('ethereum')).not.toBe(fromA[0]);
  });
});

describe('isValidAddress', () => {
  it('accepts known real addresses', () => {
    // USDT's TRC-20 contract: 41a614f8… in hex
    expect(isValidAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(Buffer.from(base58check.decode('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toString('hex')).toBe(
      '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
    );
    // BIP-173 test vector (P2WPKH)
    expect(isValidAddress('bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(true);
    for (const address of EIP55) expect(isValidAddress('ethereum', address)).toBe(true);
  });

  it.each([
    ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T'], // checksum broken by one letter
    ['tron', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['tron', base58check.encode(Uint8Array.from([0x00, ...new Uint8Array(20)]))], // wrong version byte
    ['tron', ''],
    ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'], // testnet
    ['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'], // bad checksum
    ['bitcoin', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['bitcoin', 'no-separator'],
    ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA'], // too short
    ['ethereum', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00'],
    ['ethereum', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['polygon', '0xZZ52908400098527886E0F7030069857D2E4169E'],
  ])('%s rejects %j', (chain, address) => {
    expect(isValidAddress(chain, address)).toBe(false);
  });

  it('EVM: all-lower and all-upper hex are valid (no checksum); mixed case must carry a correct checksum', () => {
    expect(isValidAddress('ethereum', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true);
    expect(isValidAddress('bsc', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(true);
    expect(isValidAddress('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
  });
});

describe('generateTxid', () => {
  it('0x-prefixed 32-byte hex on EVM chains, bare hex on tron and bitcoin', () => {
    const ids = createIds('tx');
    expect(generateTxid('ethereum', ids)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(generateTxid('polygon', ids)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(generateTxid('tron', ids)).toMatch(/^[0-9a-f]{64}$/);
    expect(generateTxid('bitcoin', ids)).toMatch(/^[0-9a-f]{64}$/);
  });
});
