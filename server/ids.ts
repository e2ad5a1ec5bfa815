import { createHash, randomBytes } from 'node:crypto';

/**
 * Every id, key, secret and random value the sandbox makes comes from here. With a seed the
 * sequence is deterministic, so a scenario replays with the same ids.
 */
export interface Ids {
  /** whether the sequence is deterministic (then nothing may draw from it ahead of time) */
  readonly seeded: boolean;
  bytes(length: number): Buffer;
  uuid(): string;
  /** URL-safe random token of `length` base62 characters. */
  token(length: number): string;
  hex(length: number): string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `now`: the real time source (ms) that orders unseeded uuids. Without a seed, uuids are version 7
 * (RFC 9562: 48 bits of milliseconds, then random bits): each new row's key lands at the end of
 * its table's id index instead of on a random page, so an insert dirties one index page, not one
 * per request, and the index stays in the page cache however large the table grows. With a seed
 * they are version 4 from the seeded sequence, so a replay makes the same ids whatever the time.
 */
export function createIds(seed?: string, now: () => number = Date.now): Ids {
  let counter = 0;
  // Unseeded: one syscall per 4 KiB of randomness instead of one per id (each costs µs on a VM).
  let pool = Buffer.alloc(0);
  let offset = 0;
  /** Reserves `length` (≤ 1024) bytes of the pool; they start at the returned offset of `pool`. */
  const reserve = (length: number): number => {
    if (offset + length > pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    const at = offset;
    offset += length;
    return at;
  };
  const pooled = (length: number): Buffer => {
    if (length > 1024) return randomBytes(length);
    const at = reserve(length);
    return Buffer.from(pool.subarray(at, at + length));
  };
  const bytes =
    seed === undefined
      ? pooled
      : (length: number) => {
          const chunks: Buffer[] = [];
          let total = 0;
          while (total < length) {
            const chunk = createHash('sha256').update(`${seed}:${counter++}`).digest();
            chunks.push(chunk);
            total += chunk.length;
          }
          return Buffer.concat(chunks).subarray(0, length);
        };

  return {
    seeded: seed !== undefined,
    bytes,
    uuid() {
      if (seed === undefined) {
        // Written in place in the pool (those bytes are used once), formatted from there.
        const at = reserve(16);
        pool.writeUIntBE(Math.max(0, Math.floor(now())) % 2 ** 48, at, 6);
        pool[at + 6] = (pool[at + 6]! & 0x0f) | 0x70;
        pool[at + 8] = (pool[at + 8]! & 0x3f) | 0x80;
        return format(pool, at);
      }
      const b = bytes(16);
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      return format(b);
    },
    token(length) {
      // Rejection sampling keeps the alphabet uniform (248 = 4 × 62).
      let out = '';
      while (out.length < length) {
        for (const byte of bytes(length * 2)) {
          if (byte < 248 && out.length < length) out += BASE62[byte % 62];
        }
      }
      return out;
    },
    hex(length) {
      return bytes(Math.ceil(length / 2))
        .toString('hex')
        .slice(0, length);
    },
  };
}

/** 16 bytes (from `at`) as a uuid string. */
function format(b: Buffer, at = 0): string {
  const h = b.toString('hex', at, at + 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
