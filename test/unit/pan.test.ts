import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  expiry,
  generateCvc,
  generatePan,
  isLuhnValid,
  luhnCheckDigit,
  type RandomDigits,
  randomDigitsFrom,
} from '../../server/domain/cards/pan.js';

/** Deterministic byte source, the same construction as the sandbox's seeded ids. */
function seededBytes(seed: string): (length: number) => Buffer {
  let counter = 0;
  return (length) => {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < length) {
      const chunk = createHash('sha256').update(`${seed}:${counter++}`).digest();
      chunks.push(chunk);
      total += chunk.length;
    }
    return Buffer.concat(chunks).subarray(0, length);
  };
}

describe('Luhn', () => {
  it('known vectors', () => {
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('79927398710')).toBe(false);
    expect(isLuhnValid('4000056655665556')).toBe(true);
    expect(isLuhnValid('5555555555554444')).toBe(true);
    expect(isLuhnValid('378282246310005')).toBe(true);
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(luhnCheckDigit('424242424242424')).toBe(2);
    expect(luhnCheckDigit('0')).toBe(0);
  });

  it('rejects non-digit input', () => {
    for (const pan of ['', '0', '4242 4242 4242 4242', '4242-4242', 'abcd', '42424242424242４2']) {
      expect(isLuhnValid(pan)).toBe(false);
    }
    expect(() => luhnCheckDigit('')).toThrow(RangeError);
    expect(() => luhnCheckDigit('12a')).toThrow(RangeError);
  });

  it('appending the check digit validates; changing any one digit invalidates', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (payload, at, delta) => {
          const pan = payload + String(luhnCheckDigit(payload));
          expect(isLuhnValid(pan)).toBe(true);
          const i = at % pan.length;
          const changed = pan.slice(0, i) + String((Number(pan[i]) + delta) % 10) + pan.slice(i + 1);
          expect(isLuhnValid(changed)).toBe(false);
        },
      ),
    );
  });
});

describe('generatePan / generateCvc', () => {
  it('1000 generated PANs are 16 digits, Luhn-valid and start with the BIN', () => {
    const digits = randomDigitsFrom(seededBytes('pans'));
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const pan = generatePan(digits);
      expect(pan).toMatch(/^424242[0-9]{10}$/);
      expect(isLuhnValid(pan)).toBe(true);
      seen.add(pan);
    }
    expect(seen.size).toBe(1000);
  });

  it('honours a custom BIN', () => {
    const digits = randomDigitsFrom(seededBytes('bin'));
    for (const bin of ['400000', '51234567', '2']) {
      for (let i = 0; i < 50; i++) {
        const pan = generatePan(digits, bin);
        expect(pan).toHaveLength(16);
        expect(pan.startsWith(bin)).toBe(true);
        expect(isLuhnValid(pan)).toBe(true);
      }
    }
    expect(() => generatePan(digits, '')).toThrow(RangeError);
    expect(() => generatePan(digits, '42a')).toThrow(RangeError);
    expect(() => generatePan(digits, '4'.repeat(15))).toThrow(RangeError);
  });

  it('is the BIN, then the injected digits, then the check digit (last4 is its tail)', () => {
    const calls: number[] = [];
    const fixed: RandomDigits = (n) => {
      calls.push(n);
      return '424242424'.slice(0, n);
    };
    const pan = generatePan(fixed);
    expect(calls).toEqual([9]);
    expect(pan).toBe('4242424242424242');
    expect(pan.slice(-4)).toBe('4242');
  });

  it('replays with the same seed', () => {
    const run = (seed: string) => {
      const digits = randomDigitsFrom(seededBytes(seed));
      return [generatePan(digits), generateCvc(digits), generatePan(digits), generateCvc(digits)];
    };
    expect(run('replay')).toEqual(run('replay'));
    expect(run('replay')).not.toEqual(run('other'));
  });

  it('CVC is 3 digits', () => {
    const digits = randomDigitsFrom(seededBytes('cvc'));
    for (let i = 0; i < 200; i++) expect(generateCvc(digits)).toMatch(/^[0-9]{3}$/);
  });

  it('rejects a random source that does not return n digits', () => {
    expect(() => generateCvc(() => '12')).toThrow(RangeError);
    expect(() => generateCvc(() => '12a')).toThrow(RangeError);
    expect(() => generatePan(() => '1'.repeat(10))).toThrow(RangeError);
  });
});

describe('randomDigitsFrom', () => {
  it('skips bytes ≥ 250 so digits stay uniform', () => {
    const queue = [255, 250, 249, 0, 10, 251, 123, 7, 8, 9, 1, 2, 3];
    const source = (length: number) => Uint8Array.from(queue.splice(0, length));
    expect(randomDigitsFrom(source)(5)).toBe('90037');
  });

  it('is roughly uniform', () => {
    const counts = new Array<number>(10).fill(0);
    for (const d of randomDigitsFrom(seededBytes('uniform'))(100_000)) counts[Number(d)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });
});

describe('expiry', () => {
  it('two-digit month, four-digit year, three years out by default', () => {
    expect(expiry(Date.UTC(2025, 0, 15))).toEqual({ exp_month: '01', exp_year: '2028' });
    expect(expiry(Date.UTC(2025, 8, 30, 12))).toEqual({ exp_month: '09', exp_year: '2028' });
    expect(expiry(Date.UTC(2025, 11, 31, 23, 59, 59, 999))).toEqual({ exp_month: '12', exp_year: '2028' });
    expect(expiry(Date.UTC(2025, 9, 1), 5)).toEqual({ exp_month: '10', exp_year: '2030' });
    expect(expiry(Date.UTC(2024, 1, 29), 1)).toEqual({ exp_month: '02', exp_year: '2025' });
  });

  it('uses UTC, not the local time zone', () => {
    // 2026-01-01T00:30Z is still December in every time zone west of UTC.
    expect(expiry(Date.parse('2026-01-01T00:30:00Z'))).toEqual({ exp_month: '01', exp_year: '2029' });
    expect(expiry(Date.parse('2025-12-31T23:30:00-05:00'))).toEqual({ exp_month: '01', exp_year: '2029' });
  });

  it('rejects nonsense input', () => {
    expect(() => expiry(Number.NaN)).toThrow(RangeError);
    expect(() => expiry(0, -1)).toThrow(RangeError);
    expect(() => expiry(0, 1.5)).toThrow(RangeError);
  });
});
