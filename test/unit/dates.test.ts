import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as dashboard from '../../renderer/lib/format.js';
import { formatClock, formatDay, formatTimestamp } from '../../server/format/dates.js';

// One date format for everything a person reads: the dashboard and the hosted pages (server HTML and
// page script) take it from server/format/dates.ts.

const root = join(import.meta.dirname, '../..');

describe('the one date format', () => {
  it('timestamps: day, short month, year, 24-hour time, UTC', () => {
    expect(formatTimestamp('2026-12-03T01:45:59.999Z')).toBe('03 Dec 2026, 01:45 UTC');
    expect(formatTimestamp('2026-09-30T23:05:00Z')).toBe('30 Sep 2026, 23:05 UTC');
    expect(formatTimestamp('2027-01-01T00:00:00+02:00')).toBe('31 Dec 2026, 22:00 UTC');
    expect(formatTimestamp(Date.UTC(2026, 1, 28, 12, 7))).toBe('28 Feb 2026, 12:07 UTC');
  });

  it('a running clock: the same, to the second', () => {
    expect(formatClock('2026-12-03T01:45:07.900Z')).toBe('03 Dec 2026, 01:45:07 UTC');
    expect(formatClock('never')).toBe('never');
  });

  it('days: a due date ("2026-12-31") as a timestamp writes its day', () => {
    expect(formatDay('2026-12-31')).toBe('31 Dec 2026');
    expect(formatDay('2026-03-05')).toBe('05 Mar 2026');
    expect(formatDay('2026-12-03T01:45:00Z')).toBe('03 Dec 2026');
    expect(formatDay(Date.UTC(2026, 6, 4))).toBe('04 Jul 2026');
  });

  it('text that is not a date stays as it is (never "Invalid Date", never a throw)', () => {
    expect(formatTimestamp('soon')).toBe('soon');
    expect(formatDay('31/12/2026')).toBe('31/12/2026');
    expect(formatDay('2026-13-45')).toBe('2026-13-45');
  });

  it('is the same function in the dashboard, and the dashboard clock writes its day the same way', () => {
    expect(dashboard.formatTimestamp).toBe(formatTimestamp);
    expect(dashboard.formatDay).toBe(formatDay);
    expect(dashboard.formatDate(Date.UTC(2026, 11, 3, 1, 45))).toBe('Thu, 03 Dec 2026');
  });

  it('the hosted pages write dates only through it (no locale formatting of their own)', () => {
    for (const file of ['server/http/pages/hosted.ts', 'server/http/pages/client/hosted.ts']) {
      const source = readFileSync(join(root, file), 'utf8');
      expect(source, file).toMatch(/from '(\.\.\/)+format\/dates\.js'/);
      expect(source, file).not.toMatch(/toLocale(String|DateString|TimeString)|Intl\.DateTimeFormat/);
    }
  });
});
