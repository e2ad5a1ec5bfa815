import { describe, expect, it } from 'vitest';
import { mismatch } from '../../server/scenarios/expect.js';
import { durationSeconds } from '../../server/scenarios/format.js';
import { parseScenario, type ScenarioError } from '../../server/scenarios/parse.js';

/** The errors of an invalid file (fails the test if it parsed). */
function errorsOf(text: string): ScenarioError[] {
  const result = parseScenario(text);
  if (result.ok) throw new Error('expected the file to be invalid');
  return result.errors;
}

const HEAD = `name: t
steps:
  - merchant: acme
`;

describe('parseScenario', () => {
  it('parses a valid file: kinds, lines, defaults (seed = name, frozen clock at 2026-01-01)', () => {
    const result = parseScenario(`${HEAD}  - call: POST /v1/checkouts
    as: co
    body: { title: x, amount: 1, expires_at: "\${clock.in.1h}" }
    expect: { status: 200 }
  - control: POST /sandbox/checkouts/\${co.id}/payments
  - clock: { advance: 1h30m }
  - clock: freeze
  - settings: { platform_rate: 50 }
  - expect: { event: { type: checkout.paid, data: { id: "\${co.id}" } } }
`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { scenario } = result;
    expect(scenario.seed).toBe('t');
    expect(scenario.clock).toEqual({ start: '2026-01-01T00:00:00.000Z', frozen: true });
    expect(scenario.steps.map((s) => [s.kind, s.line])).toEqual([
      ['merchant', 3],
      ['call', 4],
      ['control', 8],
      ['clock', 9],
      ['clock', 10],
      ['settings', 11],
      ['expect', 12],
    ]);
  });

  it('accepts JSON (which is YAML) with seed, env and clock', () => {
    const result = parseScenario(
      JSON.stringify({
        name: 'json',
        seed: 's1',
        env: 'production',
        clock: { start: '2030-05-01T10:00:00Z', frozen: false },
        steps: [{ merchant: 'm' }, { call: 'GET /v1/checkouts' }],
      }),
    );
    expect(result.ok && result.scenario).toMatchObject({
      seed: 's1',
      env: 'production',
      clock: { start: '2030-05-01T10:00:00.000Z', frozen: false },
    });
  });

  it('names the line and field of an unknown field, a missing field and a bad value', () => {
    const errors = errorsOf(`name: t
steps:
  - merchant: acme
  - call: POST /v1/checkouts
    bodyy: { title: x }
  - call: FETCH /v1/checkouts
  - control: POST /v1/checkouts
  - expect:
      balance:
        merchant: acme
        available: "10"
`);
    expect(errors).toEqual([
      { line: 5, path: 'steps[1].bodyy', message: 'unknown field bodyy' },
      { line: 6, path: 'steps[2].call', message: "must be 'METHOD /v1/path', e.g. 'POST /v1/checkouts'" },
      {
        line: 7,
        path: 'steps[3].control',
        message: `must be 'METHOD /sandbox/path', e.g. 'POST /sandbox/checkouts/\${co.id}/payments'`,
      },
      { line: 9, path: 'steps[4].expect.balance', message: 'missing field currency' },
      { line: 11, path: 'steps[4].expect.balance.available', message: 'must be integer' },
    ]);
  });

  it('says which values an enum takes and which types a union takes', () => {
    const errors = errorsOf(`${HEAD}    body: { kyb_status: great }
  - call: GET /v1/checkouts
    query: { limit: [1] }
  - expect: { webhook: { event: checkout.paid, status: lost } }
`);
    expect(errors.map((e) => [e.line, e.path, e.message])).toEqual([
      [4, 'steps[0].body.kyb_status', 'must be one of draft, pending, approved, rejected'],
      [6, 'steps[1].query.limit', 'must be string, number or boolean'],
      [7, 'steps[2].expect.webhook.status', 'must be one of pending, delivered, failed'],
    ]);
  });

  it('refuses bad durations, naming their line', () => {
    const errors = errorsOf(`${HEAD}  - clock: { advance: 2 hours }
  - clock:
      advance: 90
  - clock: rewind
  - clock: { advance: 3651d }
  - clock: { back: 1h }
`);
    expect(errors.map((e) => [e.line, e.path, e.message])).toEqual([
      [4, 'steps[1].clock.advance', 'must be a duration like 30s, 5m, 2h, 7d or 1h30m'],
      [6, 'steps[2].clock.advance', 'must be a duration like 30s, 5m, 2h, 7d or 1h30m'],
      [7, 'steps[3].clock', 'must be freeze, resume or { advance: <duration> }'],
      [8, 'steps[4].clock.advance', 'must be at most 10 years (3650d)'],
      [9, 'steps[5].clock', 'must be freeze, resume or { advance: <duration> }'],
    ]);
  });

  it('refuses references to unknown names, later names and bad built-ins, naming the line', () => {
    const errors = errorsOf(`${HEAD}  - control: POST /sandbox/checkouts/\${co.id}/payments
  - call: POST /v1/checkouts
    as: co
    body:
      title: x
      customer_id: "\${customer.id}"
      expires_at: "\${clock.in.soon}"
  - control: PUT /sandbox/inboxes/x
    body: { url: "\${sandbox.port}", note: "\${ not a ref }" }
  - expect: { balance: { merchant: co, currency: USDC } }
  - call: GET /v1/checkouts
    merchant: bob
`);
    expect(errors.map((e) => [e.line, e.path, e.message])).toEqual([
      [4, 'steps[1].control', `\${co.id}: unknown name co (no earlier step is named co)`],
      [
        9,
        'steps[2].body.customer_id',
        `\${customer.id}: unknown name customer (no earlier step is named customer)`,
      ],
      [
        10,
        'steps[2].body.expires_at',
        expect.stringContaining(`\${clock.in.soon}: clock gives now, in.<duration>`),
      ],
      [12, 'steps[3].body.url', `\${sandbox.port}: sandbox gives url, urls.test and urls.production`],
      [12, 'steps[3].body.note', `\${ not a ref } is not a reference: write \${name} or \${name.field}`],
      [13, 'steps[4].expect.balance.merchant', 'co is not a merchant (it names the result of line 5)'],
      [15, 'steps[5].merchant', 'unknown merchant bob (no earlier merchant step is named bob)'],
    ]);
  });

  it('refuses a call before any merchant, duplicate names and built-in names', () => {
    const errors = errorsOf(`name: t
steps:
  - call: GET /v1/checkouts
  - merchant: acme
  - control: GET /sandbox/merchants
    as: acme
  - control: GET /sandbox/clock
    as: clock
`);
    expect(errors.map((e) => [e.line, e.path, e.message])).toEqual([
      [
        3,
        'steps[0].call',
        'no merchant to act as: add a merchant step before this one, or name one with merchant:',
      ],
      [6, 'steps[2].as', "acme is already the name of line 4's result"],
      [8, 'steps[3].as', 'clock is a built-in name: choose another'],
    ]);
  });

  it('refuses steps that are no kind or two kinds, and expectations with none or two checks', () => {
    const errors = errorsOf(`${HEAD}  - get: /v1/checkouts
  - call: GET /v1/checkouts
    control: GET /sandbox/clock
  - expect: { }
  - expect: { event: { type: a }, balance: { merchant: acme, currency: USDC } }
  - expect: { event: { type: a } }
    extra: 1
`);
    expect(errors.map((e) => [e.line, e.path, e.message])).toEqual([
      [
        4,
        'steps[1]',
        'unknown step: it needs one of call, control, clock, settings, faults, expect, merchant',
      ],
      [6, 'steps[2].control', 'a step does one thing: it has both call and control'],
      [7, 'steps[3].expect', 'an expectation has exactly one of get, event, webhook, balance, requests'],
      [8, 'steps[4].expect', 'an expectation has exactly one of get, event, webhook, balance, requests'],
      [10, 'steps[5].extra', 'unknown field extra'],
    ]);
  });

  it('reports file-level problems: YAML syntax, missing name or steps, bad clock start, not a mapping', () => {
    expect(errorsOf('name: t\nsteps:\n  - merchant: a\n   bad: [\n')[0]!.line).toBeGreaterThanOrEqual(3);
    expect(errorsOf('steps:\n  - merchant: a\n')).toEqual([
      { line: 1, path: '(file)', message: 'missing field name' },
    ]);
    expect(errorsOf('name: t\n')).toEqual([{ line: 1, path: '(file)', message: 'missing field steps' }]);
    expect(errorsOf('name: t\nsteps: []\n')).toEqual([
      { line: 2, path: 'steps', message: 'must be a list of at least one step' },
    ]);
    expect(errorsOf(`name: t\nclock: { start: yesterday }\n${HEAD.slice(8)}`)).toEqual([
      { line: 2, path: 'clock.start', message: 'must be a date-time like 2026-01-01T00:00:00Z' },
    ]);
    expect(errorsOf('- a\n- b\n')).toEqual([
      { line: 1, path: '(file)', message: 'a scenario is a mapping with name and steps' },
    ]);
    expect(errorsOf('name: t\nname: u\nsteps: [{ merchant: a }]\n')[0]).toMatchObject({ line: 2 });
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const c of 'bcdefgh')
      bomb.push(
        `${c}: &${c} [${Array(10)
          .fill(`*${String.fromCharCode(c.charCodeAt(0) - 1)}`)
          .join(', ')}]`,
      );
    expect(errorsOf(`${bomb.join('\n')}\nname: t\nsteps: [{ merchant: a }]\n`)[0]!.message).toMatch(/alias/i);
  });
});

describe('durations', () => {
  it('reads days, hours, minutes and seconds, alone or combined', () => {
    expect(durationSeconds('30s')).toBe(30);
    expect(durationSeconds('5m')).toBe(300);
    expect(durationSeconds('2h')).toBe(7200);
    expect(durationSeconds('7d')).toBe(604_800);
    expect(durationSeconds('1h30m')).toBe(5400);
    expect(durationSeconds('1.5h')).toBeUndefined();
    expect(durationSeconds('2 hours')).toBeUndefined();
    expect(durationSeconds('')).toBeUndefined();
  });
});

describe('subset matching', () => {
  it('ignores extra fields, compares arrays by position and length, never coerces', () => {
    expect(mismatch({ a: 1 }, { a: 1, b: 2 })).toBeUndefined();
    expect(mismatch({ a: { b: [1, { c: 'x' }] } }, { a: { b: [1, { c: 'x', d: 0 }] } })).toBeUndefined();
    expect(mismatch({ a: 1 }, { a: '1' }, 'body')).toBe('body.a: expected 1, actual "1"');
    expect(mismatch({ a: [1] }, { a: [1, 2] }, 'body')).toBe('body.a: expected 1 items, actual 2: [1,2]');
    expect(mismatch({ a: { b: 1 } }, { a: null })).toBe('a: expected {"b":1}, actual null');
    expect(mismatch({ missing: 1 }, {})).toBe('missing: expected 1, actual nothing');
    const long = 'x'.repeat(600);
    expect(mismatch({ a: 1 }, { a: long })).toBe(
      `a: expected 1, actual "${'x'.repeat(499)}… (602 characters)`,
    );
  });
});
