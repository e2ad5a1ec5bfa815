import { describe, expect, it } from 'vitest';
import type { ChainConfig } from '../../server/contract/settings.js';
import { eligibleChains, tokenPaysCurrency } from '../../server/domain/checkouts/chains.js';
import { DEFAULT_SETTINGS } from '../../server/domain/settings/defaults.js';

const catalogue = DEFAULT_SETTINGS.chains;
const names = (chains: ChainConfig[]) => chains.map((c) => c.chain);
const tokens = (chains: ChainConfig[]) =>
  Object.fromEntries(chains.map((c) => [c.chain, c.tokens.map((t) => t.name)]));

describe('tokenPaysCurrency', () => {
  it.each([
    ['USDC', 'USDC', true],
    ['USDT', 'USDC', true],
    ['USDC', 'USD', true],
    ['USDT', 'USDT', true],
    ['ETH', 'USDC', false],
    ['BTC', 'USD', false],
    ['ETH', 'ETH', true],
    ['USDC', 'ETH', false],
    ['BTC', 'BTC', true],
    ['ETH', 'BTC', false],
  ])('%s pays a %s checkout: %s', (token, currency, expected) => {
    expect(tokenPaysCurrency(token, currency)).toBe(expected);
  });
});

describe('eligibleChains', () => {
  it('open amount in USDC: every chain with a stablecoin, without ETH/BTC tokens', () => {
    const result = eligibleChains(catalogue, undefined, 'USDC', null);
    expect(tokens(result)).toEqual({
      ethereum: ['USDC', 'USDT'],
      tron: ['USDT'],
      polygon: ['USDC', 'USDT'],
      bsc: ['USDT'],
    });
  });

  it('keeps the catalogue order and the token entries unchanged', () => {
    const result = eligibleChains(catalogue, undefined, 'USDT', 50_000_000);
    expect(names(result)).toEqual(['ethereum', 'tron', 'polygon', 'bsc']);
    const eth = result.find((c) => c.chain === 'ethereum')!;
    expect(eth.tokens[0]).toEqual(catalogue[0]!.tokens[0]);
  });

  it('minimums: 5 USDC has no ethereum (min 10 USDC); 10 USDC exactly has it', () => {
    expect(names(eligibleChains(catalogue, undefined, 'USDC', 5_000_000))).toEqual([
      'tron',
      'polygon',
      'bsc',
    ]);
    expect(names(eligibleChains(catalogue, undefined, 'USDC', 9_999_999))).not.toContain('ethereum');
    expect(names(eligibleChains(catalogue, undefined, 'USDC', 10_000_000))).toContain('ethereum');
    expect(names(eligibleChains(catalogue, undefined, 'USDC', 1))).toEqual(['polygon']);
  });

  it('maximums: above max drops the token, max 0 means none; a chain with no token left is dropped', () => {
    const custom: ChainConfig[] = [
      {
        chain: 'alpha',
        tokens: [
          { name: 'USDC', contract_address: '', min: 0, max: 100, gas_fee: 0 },
          { name: 'USDT', contract_address: '', min: 0, max: 0, gas_fee: 0 },
        ],
      },
      { chain: 'beta', tokens: [{ name: 'USDC', contract_address: '', min: 0, max: 100, gas_fee: 0 }] },
    ];
    expect(tokens(eligibleChains(custom, undefined, 'USDC', 100))).toEqual({
      alpha: ['USDC', 'USDT'],
      beta: ['USDC'],
    });
    expect(tokens(eligibleChains(custom, undefined, 'USDC', 101))).toEqual({ alpha: ['USDT'] });
  });

  it('ETH and BTC checkouts: only that coin', () => {
    expect(tokens(eligibleChains(catalogue, undefined, 'ETH', 1))).toEqual({ ethereum: ['ETH'] });
    expect(tokens(eligibleChains(catalogue, undefined, 'BTC', 1))).toEqual({ bitcoin: ['BTC'] });
  });

  it('requested chains: case-insensitive, trimmed, unknown names dropped, order of the catalogue', () => {
    expect(names(eligibleChains(catalogue, ['BSC', ' Tron ', 'Solana'], 'USDT', 5_000_000))).toEqual([
      'tron',
      'bsc',
    ]);
    expect(eligibleChains(catalogue, ['solana'], 'USDC', 5_000_000)).toEqual([]);
    expect(eligibleChains(catalogue, [], 'USDC', 5_000_000)).toEqual([]);
    expect(eligibleChains(catalogue, ['bitcoin'], 'USDC', null)).toEqual([]);
  });

  it('an unsupported currency finds nothing', () => {
    expect(eligibleChains(catalogue, undefined, 'DOGE', 1)).toEqual([]);
  });

  it('does not mutate the catalogue', () => {
    const before = JSON.stringify(catalogue);
    eligibleChains(catalogue, ['ethereum'], 'USDC', 5_000_000);
    eligibleChains(catalogue, undefined, 'ETH', 1);
    expect(JSON.stringify(catalogue)).toBe(before);
  });
});
