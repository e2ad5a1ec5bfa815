import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=` + lowercase hex HMAC-SHA256(secret, raw body bytes): the X-SVC-Signature value. */
export function sign(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Constant-time check of a signature header against the raw body. */
export function verify(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
