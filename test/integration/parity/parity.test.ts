import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Document, parseDocument } from 'yaml';
import { checkParityInNewWorkspace, type ParityReport } from '../../../server/parity/index.js';
import type { Scenario } from '../../../server/scenarios/format.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { testSandbox } from '../../helpers/sandbox.js';

// A session whose recorded answers are this sandbox's own (test/fixtures/parity/session.yaml, made
// by running its steps here), replayed in fresh workspaces: unchanged it shows no difference, and
// each deliberate change to what it recorded is reported once, at its step and field.
//
// Steps: 1 merchant, 2 POST checkout co, 3 POST checkout co2, 4 co paid (inferred), 5 co2 paid in
// part (inferred), 6 clock 2h (inferred: checkout.completed, then checkout.partial), 7 GET co,
// 8 refund co, 9 a refused checkout (422), 10 POST cardholder, 11 GET cardholder.

const SESSION = readFileSync(
  fileURLToPath(new URL('../../fixtures/parity/session.yaml', import.meta.url)),
  'utf8',
);

let urls: { test: string; production: string };
beforeEach(async () => {
  const sandbox = await testSandbox();
  urls = await sandbox.listen();
});

function session(change?: (doc: Document) => void): Scenario {
  const doc = parseDocument(SESSION);
  change?.(doc);
  const parsed = parseScenario(doc.toString());
  if (!parsed.ok) throw new Error(`invalid session: ${JSON.stringify(parsed.errors)}`);
  return parsed.scenario;
}

const parity = (scenario: Scenario, ignore: string[] = []) =>
  checkParityInNewWorkspace(scenario, { urls }, { ignore, waitMs: 300 });

/** `kind step path` per difference, in the report's order. */
const brief = (report: ParityReport) => report.differences.map((d) => `${d.kind} ${d.step.index} ${d.path}`);

/** The steps by their 1-based index, as the report names them. */
const recorded = (step: number, ...path: (string | number)[]) => ['steps', step - 1, 'recorded', ...path];

describe('svc-sandbox parity', () => {
  it('finds no difference when the recorded answers are what the sandbox answers', async () => {
    const report = await parity(session());
    expect(report.differences).toEqual([]);
    expect(report).toMatchObject({ ok: true, name: 'parity session', steps: 11, compared: 10, ignored: 0 });
  });

  it('names the step (index, line, label), the field and what each side had', async () => {
    const scenario = session((doc) => doc.setIn(recorded(7, 'body', 'status'), 'expired'));
    const report = await parity(scenario);
    expect(report.ok).toBe(false);
    expect(report.differences).toEqual([
      {
        kind: 'state',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
        step: { index: 7, line: scenario.steps[6]!.line, label: 'GET /v1/checkouts/${co.id}' },
        path: 'status',
        message: 'recorded "expired", the sandbox "completed"',
      },
    ]);
  });

  it.each<[string, (doc: Document) => void, string[]]>([
    [
      'a renamed field: one missing, one extra',
      (doc) => {
        doc.deleteIn(recorded(7, 'body', 'paid_amount'));
        doc.setIn(recorded(7, 'body', 'amount_paid'), 10_000_000);
      },
      ['missing 7 amount_paid', 'extra 7 paid_amount'],
    ],
    [
      'a field the service has and the sandbox lacks',
      (doc) => doc.setIn(recorded(7, 'body', 'risk_score'), 3),
      ['missing 7 risk_score'],
    ],
    [
      'a field only the sandbox has',
      (doc) => doc.deleteIn(recorded(7, 'body', 'reference')),
      ['extra 7 reference'],
    ],
    [
      'a field of another type',
      (doc) => doc.setIn(recorded(7, 'body', 'amount'), '10000000'),
      ['type 7 amount'],
    ],
    [
      'a time of another format (times compare by format, not value)',
      (doc) => doc.setIn(recorded(7, 'body', 'created_at'), 'yesterday'),
      ['type 7 created_at'],
    ],
    [
      'another status: the status alone, not the body under it',
      (doc) => doc.setIn(recorded(8, 'status'), 201),
      ['status 8 (status)'],
    ],
    [
      'an enum value the sandbox never produces',
      (doc) => doc.setIn(recorded(7, 'body', 'status'), 'settling'),
      ['enum 7 status'],
    ],
    [
      'another value deep in a list',
      (doc) => doc.setIn(recorded(7, 'body', 'crypto_chains', 1, 'tokens', 0, 'gas_fee'), 5),
      ['value 7 crypto_chains[1].tokens[0].gas_fee'],
    ],
    [
      'a reference to another object',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
      (doc) => doc.setIn(recorded(8, 'body', 'id'), '${co2.id}'),
      ['value 8 id'],
    ],
    [
      'a webhook the sandbox does not send',
      (doc) => doc.setIn(recorded(7, 'webhooks'), [{ type: 'checkout.paid' }]),
      ['webhook_missing 7 webhook:checkout.paid'],
    ],
    [
      'a webhook only the sandbox sends',
      (doc) => doc.setIn(recorded(2, 'webhooks'), []),
      ['webhook_extra 2 webhook:checkout.created'],
    ],
    [
      'two webhooks swapped: one out of order',
      (doc) => {
        const [completed, partial] = (doc.getIn(recorded(6, 'webhooks')) as { items: unknown[] }).items;
        doc.setIn(recorded(6, 'webhooks'), doc.createNode([partial, completed]));
      },
      ['webhook_order 6 webhook:checkout.partial'],
    ],
    [
      'a webhook payload of another shape',
      (doc) => doc.setIn(recorded(8, 'webhooks', 0, 'data', 'refund_amount'), '3000000'),
      ['webhook_shape 8 webhook:checkout.refunded.data.refund_amount'],
    ],
    [
      'a webhook payload with a state reached differently',
      (doc) => doc.setIn(recorded(6, 'webhooks', 1, 'data', 'status'), 'expired'),
      ['state 6 webhook:checkout.partial.data.status'],
    ],
    [
      'a step the sandbox answers otherwise, so that a later one cannot run',
      (doc) => doc.setIn(['steps', 1, 'body', 'amount'], -1),
      ['status 2 (status)', 'webhook_missing 2 webhook:checkout.created', 'replay 4 (step)'],
    ],
  ])('%s', async (_, change, expected) => {
    const report = await parity(session(change));
    expect(brief(report)).toEqual(expected);
    expect(report.ok).toBe(false);
  });

  it('compares an error answer by its shape, not its wording', async () => {
    const report = await parity(
      session((doc) => doc.setIn(recorded(9, 'body', 'error'), 'amount must be positive')),
    );
    expect(report.differences).toEqual([]);
  });

  it('compares only the webhooks of a step the recorder inferred (the service never answered it)', async () => {
    const report = await parity(
      session((doc) => {
        doc.setIn(recorded(4, 'status'), 202);
        doc.setIn(recorded(4, 'body'), { accepted: true });
      }),
    );
    expect(report.differences).toEqual([]);
  });

  it('sets aside the differences an ignore pattern names, and counts them', async () => {
    const renamed = session((doc) => {
      doc.deleteIn(recorded(7, 'body', 'paid_amount'));
      doc.setIn(recorded(7, 'body', 'amount_paid'), 10_000_000);
      doc.setIn(recorded(7, 'body', 'crypto_chains', 0, 'tokens', 1, 'min'), 1);
      doc.setIn(recorded(2, 'webhooks'), []);
    });
    expect(brief(await parity(renamed, ['amount_paid', 'paid_amount', 'webhook:checkout.created']))).toEqual([
      'value 7 crypto_chains[0].tokens[1].min',
    ]);
    const all = await parity(renamed, [
      '*.amount_paid',
      '*paid_amount',
      'crypto_chains.tokens.min',
      'webhook:*',
    ]);
    expect(all).toMatchObject({ ok: true, differences: [], ignored: 4 });
  });

  it('refuses an ignore pattern that is no field path', async () => {
    await expect(parity(session(), ['checkout..id'])).rejects.toThrow(
      /--ignore "checkout\.\.id": not a field path/,
    );
  });
});
