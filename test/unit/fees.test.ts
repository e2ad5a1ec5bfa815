import { describe, expect, it } from 'vitest';
import {
  applyRate,
  checkoutFees,
  clawbackShares,
  grossCommission,
  platformFee,
  proportion,
  refundGas,
  splitFees,
  taxAmount,
} from '../../server/domain/money/fees.js';

describe('fee arithmetic (hand-computed)', () => {
  it('platform fee floors', () => {
    expect(platformFee(20_000_000, 150)).toBe(300_000);
    expect(platformFee(1, 9_999)).toBe(0);
    expect(platformFee(10_001, 5_000)).toBe(5_000);
    expect(platformFee(3, 3_333)).toBe(0);
    expect(platformFee(123_456_789, 0)).toBe(0);
    expect(platformFee(123_456_789, 10_000)).toBe(123_456_789);
  });

  it('stays exact for amounts whose product exceeds 2^53', () => {
    expect(applyRate(9_007_199_254_740_991, 9_999)).toBe(9_006_298_534_815_516);
  });

  it('gross commission is clamped to [min_fee, max_fee] and never above the amount', () => {
    expect(grossCommission(1_000_000, 300, null, null)).toBe(30_000);
    expect(grossCommission(1_000_000, 300, 50_000, null)).toBe(50_000);
    expect(grossCommission(1_000_000, 300, null, 20_000)).toBe(20_000);
    expect(grossCommission(10_000, 300, 50_000, null)).toBe(10_000);
  });

  it('splits platform, reseller and merchant net (spec rules 1–4)', () => {
    expect(splitFees(20_000_000, 150, null)).toEqual({
      platform_fee: 300_000,
      reseller_fee: 0,
      merchant_net: 19_700_000,
    });
    expect(splitFees(20_000_000, 100, { rate: 300, min_fee: null, max_fee: null })).toEqual({
      platform_fee: 200_000,
      reseller_fee: 400_000,
      merchant_net: 19_400_000,
    });
    // Reseller rate below the platform's: the platform still takes its fee, the reseller nothing.
    expect(splitFees(1_000_000, 500, { rate: 100, min_fee: null, max_fee: null })).toEqual({
      platform_fee: 50_000,
      reseller_fee: 0,
      merchant_net: 950_000,
    });
    // Odd amount: 333 × 250 / 10000 = 8.325 → 8; gross 333 × 1000 / 10000 = 33.3 → 33.
    expect(splitFees(333, 250, { rate: 1000, min_fee: null, max_fee: null })).toEqual({
      platform_fee: 8,
      reseller_fee: 25,
      merchant_net: 300,
    });
  });

  it('the figures a payment fixes: fees, and the gas fee capped at what the fees leave', () => {
    // No reseller: platform 300 000; the merchant keeps 19.7M, more than the 10 000 gas.
    expect(checkoutFees(20_000_000, 150, null, 10_000)).toEqual({
      platform_fee: 300_000,
      reseller_fee: 0,
      platform_gas_fee: 10_000,
    });
    // gross 19M leaves the merchant 1M, less than a 2M gas fee: the gas fee is 1M.
    expect(checkoutFees(20_000_000, 150, { rate: 9_500, min_fee: null, max_fee: null }, 2_000_000)).toEqual({
      platform_fee: 300_000,
      reseller_fee: 18_700_000,
      platform_gas_fee: 1_000_000,
    });
    // A floor that takes everything leaves no gas fee at all.
    expect(checkoutFees(1_000, 0, { rate: 0, min_fee: 5_000, max_fee: null }, 10_000)).toEqual({
      platform_fee: 0,
      reseller_fee: 1_000,
      platform_gas_fee: 0,
    });
  });

  it('claws fees back in proportion within the hold, and not after it', () => {
    expect(clawbackShares(10_000_000, 20_000_000, { platform_fee: 300_000, reseller_fee: 0 }, true)).toEqual({
      merchant_debit: 9_850_000,
      platform_clawback: 150_000,
      reseller_clawback: 0,
    });
    // One unit: the fees' share floors to nothing.
    expect(clawbackShares(1, 20_000_000, { platform_fee: 300_000, reseller_fee: 0 }, true)).toEqual({
      merchant_debit: 1,
      platform_clawback: 0,
      reseller_clawback: 0,
    });
    // 7 × 3 / 9 = 2.33 → 2 clawed back; 2 × 2 / 3 = 1.33 → 1 to the platform, the rest to the reseller.
    expect(clawbackShares(7, 9, { platform_fee: 2, reseller_fee: 1 }, true)).toEqual({
      merchant_debit: 5,
      platform_clawback: 1,
      reseller_clawback: 1,
    });
    // The merchant paying gas can fund more than is refundable: the clawback is capped at what is held.
    expect(
      clawbackShares(20_100_000, 20_000_000, { platform_fee: 200_000, reseller_fee: 100_000 }, true),
    ).toEqual({
      merchant_debit: 19_800_000,
      platform_clawback: 200_000,
      reseller_clawback: 100_000,
    });
    expect(clawbackShares(10_000_000, 20_000_000, { platform_fee: 300_000, reseller_fee: 0 }, false)).toEqual(
      {
        merchant_debit: 10_000_000,
        platform_clawback: 0,
        reseller_clawback: 0,
      },
    );
  });

  it('every unit of a refund is accounted for', () => {
    for (const [x, refundable, pf, rf] of [
      [1, 1, 0, 0],
      [999_999, 1_000_000, 12_345, 6_789],
      [5, 7, 3, 2],
      [13, 13, 5, 8],
    ] as const) {
      const s = clawbackShares(x, refundable, { platform_fee: pf, reseller_fee: rf }, true);
      expect(s.merchant_debit + s.platform_clawback + s.reseller_clawback).toBe(x);
      expect(s.platform_clawback).toBeLessThanOrEqual(pf);
      expect(s.reseller_clawback).toBeLessThanOrEqual(rf);
    }
  });

  it('gas: deducted from the refund by default, on top of it when the merchant pays', () => {
    expect(refundGas(5_000_000, 1_000_000, 'customer')).toEqual({
      customer_amount: 4_000_000,
      funded: 4_000_000,
    });
    expect(refundGas(5_000_000, 1_000_000, 'merchant')).toEqual({
      customer_amount: 5_000_000,
      funded: 6_000_000,
    });
    expect(refundGas(1, 0, 'customer')).toEqual({ customer_amount: 1, funded: 1 });
  });

  it('proportion floors and tolerates a zero whole', () => {
    expect(proportion(10, 1, 3)).toBe(3);
    expect(proportion(10, 1, 0)).toBe(0);
  });

  it('invoice tax rounds half up', () => {
    expect(taxAmount(1_000_005, 1_250)).toBe(125_001);
    expect(taxAmount(100, 50)).toBe(1);
    expect(taxAmount(99, 50)).toBe(0);
    expect(taxAmount(0, 10_000)).toBe(0);
    expect(taxAmount(10_000_000, 10_000)).toBe(10_000_000);
  });
});
