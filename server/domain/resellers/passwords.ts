import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** scrypt cost parameters (N = 2^14, r = 8, p = 1: 16 MiB, tens of milliseconds) and sizes. */
const N = 16_384;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/**
 * A password as stored: `scrypt$N$r$p$salt$hash`, salt and hash in base64, a fresh random salt each
 * time. The password itself is never stored, returned or logged.
 */
export function hashPassword(password: string): string {
  const salt = randomBytes(SALT_BYTES);
  const hash = scryptSync(password, salt, KEY_BYTES, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Whether `password` matches a stored `scrypt$...` hash (constant-time comparison). */
export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}
