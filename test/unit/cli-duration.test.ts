import { describe, expect, it } from 'vitest';
import { formatOffset, parseDuration } from '../../server/cli/clock.js';
import { UsageError } from '../../server/cli/common.js';

// `svc-sandbox clock advance <duration>`: what each written form means, and what is refused.
describe('clock durations', () => {
  it.each([
    ['90s', 90],
    ['15m', 900],
    ['1h', 3600],
    ['2d', 172_800],
    ['30', 30],
    ['1h30m', 5400],
    ['1.5h', 5400],
    [' 2m ', 120],
    ['0', 0],
  ])('%s is %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', 'h', '1x', '1h 30m', '-1h', '1h30', 'soon'])('refuses %j with a usage error', (text) => {
    expect(() => parseDuration(text)).toThrow(UsageError);
    expect(() => parseDuration(text)).toThrow(/not a duration/);
  });

  it('writes an offset the way the clock prints it', () => {
    expect(formatOffset(0)).toBe('+0s');
    expect(formatOffset(90_000)).toBe('+1m30s');
    expect(formatOffset((2 * 86_400 + 3600 + 16 * 60) * 1000)).toBe('+2d1h16m');
    expect(formatOffset(-3_600_000)).toBe('-1h');
  });
});
