import { afterEach, describe, expect, it } from 'vitest';
import { firedLines } from '../../server/cli/clock.js';
import { UsageError, WORKSPACE_ENV, workspaceOption } from '../../server/cli/common.js';
import { createBody, parseFrom, parseStart } from '../../server/cli/workspaces.js';

// The workspace flags of the CLI, parsed: what each sends, and what each refuses with exit 2.

const saved = process.env[WORKSPACE_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[WORKSPACE_ENV];
  else process.env[WORKSPACE_ENV] = saved;
});

describe('--workspace and $SVC_SANDBOX_WORKSPACE', () => {
  it('the flag wins over the variable; neither means the default workspace', () => {
    delete process.env[WORKSPACE_ENV];
    expect(workspaceOption({})).toBeUndefined();
    process.env[WORKSPACE_ENV] = 'ci-7';
    expect(workspaceOption({})).toBe('ci-7');
    expect(workspaceOption({ workspace: 'ws_0123456789abcdef' })).toBe('ws_0123456789abcdef');
    process.env[WORKSPACE_ENV] = '';
    expect(workspaceOption({})).toBeUndefined();
  });

  it('refuses an empty, over-long or control-character name, naming where it came from', () => {
    delete process.env[WORKSPACE_ENV];
    expect(() => workspaceOption({ workspace: '' })).toThrow(/--workspace must be/);
    expect(() => workspaceOption({ workspace: 'x'.repeat(65) })).toThrow(UsageError);
    process.env[WORKSPACE_ENV] = 'a\nb';
    expect(() => workspaceOption({})).toThrow(/SVC_SANDBOX_WORKSPACE must be/);
  });
});

describe('workspaces create flags', () => {
  it('--from ID and ID:CHECKPOINT (the last colon splits: checkpoint names hold none)', () => {
    expect(parseFrom('ws_0123456789abcdef')).toEqual({ workspace_id: 'ws_0123456789abcdef' });
    expect(parseFrom('qa:paid')).toEqual({ workspace_id: 'qa', checkpoint: 'paid' });
    expect(parseFrom('team: qa:before refund')).toEqual({
      workspace_id: 'team: qa',
      checkpoint: 'before refund',
    });
    expect(() => parseFrom(':paid')).toThrow(UsageError);
    expect(() => parseFrom('qa:')).toThrow(/checkpoint name after : is empty/);
  });

  it('--start takes an ISO date-time and sends it normalised; a date alone or nonsense is refused', () => {
    expect(parseStart('2026-03-01T09:30:00+01:00')).toBe('2026-03-01T08:30:00.000Z');
    expect(() => parseStart('2026-03-01')).toThrow(/ISO 8601/);
    expect(() => parseStart('tomorrow')).toThrow(UsageError);
    expect(() => parseStart('2026-13-45T00:00:00Z')).toThrow(UsageError);
  });

  it('builds the body from every flag, and an empty body from none', () => {
    expect(createBody({})).toEqual({});
    expect(
      createBody({
        name: ' CI run ',
        seed: 'abc',
        from: 'qa:paid',
        ephemeral: true,
        frozen: true,
        start: '2026-01-01T00:00:00Z',
      }),
    ).toEqual({
      name: 'CI run',
      seed: 'abc',
      from: { workspace_id: 'qa', checkpoint: 'paid' },
      ephemeral: true,
      clock: { start: '2026-01-01T00:00:00.000Z', frozen: true },
    });
    expect(createBody({ frozen: true })).toEqual({ clock: { frozen: true } });
    expect(() => createBody({ name: '   ' })).toThrow(/--name/);
    expect(() => createBody({ seed: '' })).toThrow(/--seed/);
  });
});

describe('clock advance: what fired', () => {
  it('a summary, then each event by type and id; long lists cut with a count', () => {
    expect(firedLines({ events: [], deliveries: 0, jobs: 0 })).toEqual([
      'fired: 0 events, 0 webhook delivery attempts, 0 jobs',
    ]);
    expect(
      firedLines({
        events: [
          { type: 'checkout.expired', id: 'evt_1', resource_id: 'chk_1' },
          { type: 'payout.completed', id: 'evt_2', resource_id: null },
        ],
        deliveries: 1,
        jobs: 3,
      }),
    ).toEqual([
      'fired: 2 events, 1 webhook delivery attempt, 3 jobs',
      '  checkout.expired  chk_1',
      '  payout.completed  event evt_2',
    ]);
    const many = Array.from({ length: 25 }, (_, i) => ({
      type: 'checkout.expired',
      id: `evt_${i}`,
      resource_id: `chk_${i}`,
    }));
    const lines = firedLines({ events: many, deliveries: 0, jobs: 1 });
    expect(lines).toHaveLength(22);
    expect(lines.at(-1)).toBe('  … and 5 more (--json lists them all)');
  });
});
