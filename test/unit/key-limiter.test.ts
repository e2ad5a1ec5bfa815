import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../server/errors.js';
import { KeyLimiter } from '../../server/http/plugins/key-limiter.js';

function limiter() {
  let now = 1_000_000;
  return {
    limiter: new KeyLimiter(() => now),
    tick: (ms: number) => {
      now += ms;
    },
  };
}

function caught(fn: () => unknown): TooManyRequestsError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TooManyRequestsError);
    return error as TooManyRequestsError;
  }
  throw new Error('expected a TooManyRequestsError');
}

describe('KeyLimiter.take (rate per minute)', () => {
  it('admits perMinute requests, then refuses with a Retry-After until the window ends', () => {
    const { limiter: l, tick } = limiter();
    for (let i = 0; i < 5; i++) l.take('k', 5);
    const first = caught(() => l.take('k', 5));
    expect(first.statusCode).toBe(429);
    expect(first.retryAfterSeconds).toBe(60);
    tick(45_500);
    expect(caught(() => l.take('k', 5)).retryAfterSeconds).toBe(15);
    tick(14_000);
    expect(caught(() => l.take('k', 5)).retryAfterSeconds).toBe(1);
    tick(500);
    // a new window
    for (let i = 0; i < 5; i++) l.take('k', 5);
    expect(() => l.take('k', 5)).toThrow(TooManyRequestsError);
  });

  it('refused requests do not count', () => {
    const { limiter: l, tick } = limiter();
    l.take('k', 1);
    for (let i = 0; i < 10; i++) expect(() => l.take('k', 1)).toThrow(TooManyRequestsError);
    tick(60_000);
    l.take('k', 1);
  });

  it('is per key', () => {
    const { limiter: l } = limiter();
    l.take('a', 1);
    expect(() => l.take('a', 1)).toThrow(TooManyRequestsError);
    l.take('b', 1);
  });

  it('0 means no limit', () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 10_000; i++) l.take('k', 0);
  });
});

describe('KeyLimiter.enter (concurrency)', () => {
  it('admits up to the limit, refuses the next, and a release frees a slot', () => {
    const { limiter: l } = limiter();
    const r1 = l.enter('k', 2);
    l.enter('k', 2);
    expect(l.inFlightFor('k')).toBe(2);
    const error = caught(() => l.enter('k', 2));
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(l.inFlightFor('k')).toBe(2);
    r1();
    expect(l.inFlightFor('k')).toBe(1);
    l.enter('k', 2);
  });

  it('release is idempotent: calling it twice frees one slot only', () => {
    const { limiter: l } = limiter();
    const r1 = l.enter('k', 3);
    l.enter('k', 3);
    r1();
    r1();
    r1();
    expect(l.inFlightFor('k')).toBe(1);
  });

  it('is per key, and 0 means no limit', () => {
    const { limiter: l } = limiter();
    l.enter('a', 1);
    expect(() => l.enter('a', 1)).toThrow(TooManyRequestsError);
    l.enter('b', 1);
    const releases = Array.from({ length: 100 }, () => l.enter('c', 0));
    expect(l.inFlightFor('c')).toBe(100);
    for (const release of releases) release();
    expect(l.inFlightFor('c')).toBe(0);
  });
});
