/**
 * Test card numbers: Luhn arithmetic, PAN/CVC generation and expiry dates. Randomness is injected
 * (`randomDigits(n)` returns n decimal digits) so a seeded generator replays the same cards.
 */
export type RandomDigits = (n: number) => string;

const DIGITS = /^[0-9]+$/;
const PAN_LENGTH = 16;

/** The Luhn check digit to append to `digits` (the PAN without its last digit). */
export function luhnCheckDigit(digits: string): number {
  if (!DIGITS.test(digits)) throw new RangeError('luhnCheckDigit: digits must be a non-empty string of 0-9');
  let sum = 0;
  // Walking from the right, the digit next to the (future) check digit is doubled, then every other one.
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when `pan` is at least two digits, digits only, and its last digit is the Luhn check digit. */
export function isLuhnValid(pan: string): boolean {
  if (typeof pan !== 'string' || pan.length < 2 || !DIGITS.test(pan)) return false;
  return luhnCheckDigit(pan.slice(0, -1)) === pan.charCodeAt(pan.length - 1) - 48;
}

function draw(randomDigits: RandomDigits, n: number): string {
  const out = randomDigits(n);
  if (typeof out !== 'string' || out.length !== n || (n > 0 && !DIGITS.test(out))) {
    throw new RangeError(`randomDigits(${n}) must return exactly ${n} decimal digits`);
  }
  return out;
}

/** A 16-digit Luhn-valid test PAN: bin + random body + check digit. Its last 4 digits are the card's last4. */
export function generatePan(randomDigits: RandomDigits, bin = '424242'): string {
  if (!DIGITS.test(bin) || bin.length > PAN_LENGTH - 2) {
    throw new RangeError(`generatePan: bin must be 1 to ${PAN_LENGTH - 2} digits`);
  }
  const payload = bin + draw(randomDigits, PAN_LENGTH - 1 - bin.length);
  return payload + String(luhnCheckDigit(payload));
}

/** Three random digits. */
export function generateCvc(randomDigits: RandomDigits): string {
  return draw(randomDigits, 3);
}

/** Expiry `years` after `nowMs`, same month, UTC: exp_month two digits, exp_year four digits. */
export function expiry(nowMs: number, years = 3): { exp_month: string; exp_year: string } {
  if (!Number.isFinite(nowMs)) throw new RangeError('expiry: nowMs must be a finite number');
  if (!Number.isInteger(years) || years < 0)
    throw new RangeError('expiry: years must be a non-negative integer');
  const now = new Date(nowMs);
  const year = now.getUTCFullYear() + years;
  if (year < 1000 || year > 9999) throw new RangeError('expiry: year out of four-digit range');
  return { exp_month: String(now.getUTCMonth() + 1).padStart(2, '0'), exp_year: String(year) };
}

/**
 * Adapts a byte source (e.g. the sandbox's seeded `Ids.bytes`) to RandomDigits. Rejection sampling
 * (bytes ≥ 250 are skipped) keeps each digit uniform.
 */
export function randomDigitsFrom(bytes: (length: number) => Uint8Array): RandomDigits {
  return (n) => {
    let out = '';
    while (out.length < n) {
      for (const byte of bytes(n - out.length + 4)) {
        if (byte < 250 && out.length < n) out += String(byte % 10);
      }
    }
    return out;
  };
}
