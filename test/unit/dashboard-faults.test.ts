import { describe, expect, it } from 'vitest';
import {
  describeFaultEffect,
  describeFaultMark,
  describeFaultMatch,
  rulesAsInput,
} from '../../renderer/lib/faults.js';
import type { FaultRule } from '../../server/contract/faults.js';

// The dashboard's Faults page: the rules in force sent back when one is added or removed, and faults in words.

const rule = (over: Partial<FaultRule>): FaultRule => ({
  id: 'r',
  match: {},
  rate: 1,
  count: null,
  remaining: null,
  applied: 0,
  effect: { status: 503 },
  ...over,
});

describe('the rules in force as input again', () => {
  it('keeps what each rule has left as its count, drops a spent one, and keeps an unlimited one unlimited', () => {
    expect(
      rulesAsInput([
        rule({ id: 'partly-used', match: { method: 'POST' }, rate: 0.5, count: 3, remaining: 2, applied: 1 }),
        rule({ id: 'spent', count: 1, remaining: 0, applied: 1 }),
        rule({ id: 'forever', effect: { latency_ms: { min: 1, max: 2 } }, applied: 7 }),
      ]),
    ).toEqual([
      { id: 'partly-used', match: { method: 'POST' }, rate: 0.5, count: 2, effect: { status: 503 } },
      { id: 'forever', match: {}, rate: 1, effect: { latency_ms: { min: 1, max: 2 } } },
    ]);
  });
});

describe('faults in words', () => {
  it('names a match, an effect and a mark', () => {
    expect(describeFaultMatch({})).toBe('any method any /v1 path');
    expect(describeFaultMatch({ method: 'GET', path: '/v1/checkouts/{id}', env: 'production' })).toBe(
      'GET /v1/checkouts/{id} (production)',
    );
    expect(describeFaultEffect({ status: 429 })).toBe('HTTP 429, Retry-After 1 s');
    expect(describeFaultEffect({ status: 429, retry_after_s: 30 })).toBe('HTTP 429, Retry-After 30 s');
    expect(describeFaultEffect({ status: 502 })).toBe('HTTP 502');
    expect(describeFaultEffect({ latency_ms: { min: 5, max: 5 } })).toBe('latency 5 ms');
    expect(describeFaultEffect({ timeout: true })).toBe('timeout (no answer)');
    expect(describeFaultEffect({ lost_response: true })).toBe('lost response (committed, no answer)');
    expect(describeFaultMark({ rule: 'r', effect: 'status', status: 504 })).toBe('HTTP 504');
    expect(describeFaultMark({ rule: 'r', effect: 'latency', latency_ms: 120 })).toBe('+120 ms');
    expect(describeFaultMark({ rule: 'r', effect: 'lost_response' })).toBe('lost response');
  });
});
