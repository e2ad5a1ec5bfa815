import { describe, expect, it } from 'vitest';
import {
  chainName,
  describeStatus,
  formatAmount,
  formatDuration,
  formatMoney,
  parseAmount,
  statusLabel,
} from '../../renderer/lib/format.js';
import { formatMoney as serverMoney } from '../../server/domain/money/format.js';

describe('the dashboard formatter', () => {
  it('amounts in the currency’s units, exactly, with its code (never "$")', () => {
    expect(formatAmount(25_000_000)).toBe('25.00');
    expect(formatAmount(1_234_567)).toBe('1.234567');
    expect(formatAmount(-500_000)).toBe('−0.50');
    expect(formatAmount(99_999_999_000_000)).toBe('99,999,999.00');
    expect(formatMoney(77_510_000, 'USDC')).toBe('77.51 USDC');
    expect(formatMoney(null, 'USDC')).toBe('Any amount · USDC');
    expect(parseAmount('12.5')).toBe(12_500_000);
    expect(parseAmount('0')).toBeNull();
  });

  it('statuses in words, sentence case, with abbreviations as people write them', () => {
    expect(`KYC ${describeStatus('not_started')}`).toBe('KYC not started');
    expect(describeStatus('notActivated')).toBe('not activated');
    expect(describeStatus('checkout.partially_refunded')).toBe('checkout partially refunded');
    expect(statusLabel('not_started')).toBe('Not started');
    expect(statusLabel('kyc_pending')).toBe('KYC pending');
  });

  it('request durations with the decimals that matter, the same as `logs tail`', async () => {
    const { formatMs } = await import('../../server/cli/logs.js');
    for (const [ms, text] of [
      [0.0421, '0.04'],
      [0.5, '0.50'],
      [3.6, '3.6'],
      [250.34, '250.3'],
    ] as const) {
      expect(formatDuration(ms)).toBe(`${text} ms`);
      expect(formatMs(ms)).toBe(text);
    }
  });

  it('chain names from one table', () => {
    expect(chainName('bsc')).toBe('BNB Smart Chain');
    expect(chainName('BSC')).toBe('BNB Smart Chain');
    expect(chainName('ethereum')).toBe('Ethereum');
    expect(chainName('newchain')).toBe('Newchain');
  });
});

describe('amounts in server messages', () => {
  it('reads in units of the currency', () => {
    expect(serverMoney(99_999_999_000_000, 'USDC')).toBe('99,999,999.00 USDC');
    expect(serverMoney(9_840_050, 'USDC')).toBe('9.84005 USDC');
    expect(serverMoney(0, 'USDT')).toBe('0.00 USDT');
  });
});
