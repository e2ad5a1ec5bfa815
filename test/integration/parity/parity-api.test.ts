import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { ParityReport } from '../../../server/contract/parity.js';
import { testSandbox } from '../../helpers/sandbox.js';

// POST /sandbox/parity over real HTTP (the replay's own requests go to the sandbox's addresses):
// the report, a fresh workspace that goes afterwards, validation, the control token, not found.

const SESSION = readFileSync(
  fileURLToPath(new URL('../../fixtures/parity/session.yaml', import.meta.url)),
  'utf8',
);

const TOKEN = 'parity-token-123456';

async function listening(options: { controlToken?: string } = {}) {
  const sandbox = await testSandbox(options);
  const urls = await sandbox.listen();
  const post = async (body: unknown, headers: Record<string, string> = {}, path = '/sandbox/parity') => {
    const response = await fetch(`${urls.test}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { sandbox, urls, post };
}

/** The fixture with step 7 recording a checkout status the sandbox does not list. */
function drifted(): string {
  const doc = parseDocument(SESSION);
  doc.setIn(['steps', 6, 'recorded', 'body', 'status'], 'settling');
  return doc.toString();
}

describe('POST /sandbox/parity', () => {
  it('replays the session in a workspace of its own and answers every difference', async () => {
    const { sandbox, post } = await listening();
    const before = sandbox.workspaces.list().map((w) => w.id);
    const clean = await post({ scenario: SESSION });
    expect(clean.status).toBe(200);
    expect(clean.body).toEqual({
      ok: true,
      name: 'parity session',
      steps: 11,
      compared: 10,
      differences: [],
      ignored: 0,
    });
    const drift = await post({ scenario: drifted() });
    expect(drift.status).toBe(200);
    const report = drift.body as unknown as ParityReport;
    expect(report.ok).toBe(false);
    expect(report.differences).toEqual([
      {
        kind: 'enum',
        step: { index: 7, line: 440, label: 'GET /v1/checkouts/$' + '{co.id}' },
        path: 'status',
        message: expect.stringMatching(
          /^recorded "settling", which the sandbox's contract does not list \("active", .*\); the sandbox "completed"$/,
        ),
      },
    ]);
    const ignored = await post({ scenario: drifted(), ignore: ['status'] });
    expect(ignored.body).toMatchObject({ ok: true, differences: [], ignored: 1 });
    // The replay's workspaces are gone, and the request's own workspace gained nothing.
    expect(sandbox.workspaces.list().map((w) => w.id)).toEqual(before);
    const merchants = await fetch(`${sandbox.urls().test}/sandbox/merchants`);
    expect(await merchants.json()).toEqual([]);
  });

  it('names the field of a bad request (422) and the line of an invalid session (400)', async () => {
    const { post } = await listening();
    const missing = await post({});
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatch(/scenario/);
    const unknown = await post({ scenario: SESSION, ignores: ['x'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatch(/ignores/);
    const badPattern = await post({ scenario: SESSION, ignore: ['status', 'checkout..id'] });
    expect(badPattern).toEqual({
      status: 422,
      body: {
        error:
          'ignore[1]: "checkout..id" is not a field path (e.g. checkout.metadata, *.created_at, webhook:card.transaction)',
      },
    });
    const invalid = await post({
      scenario: 'name: x\nsteps:\n  - call: GET /v1/checkouts\n    recorded: { status: ok }\n',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/^invalid scenario: line 3: steps\[0\]\.call: no merchant to act as/);
    expect(invalid.body.error).toMatch(/line 4: steps\[0\]\.recorded\.status: must be integer/);
    const notYaml = await post({ scenario: 'name: [' });
    expect(notYaml.status).toBe(400);
    expect(Object.keys(notYaml.body)).toEqual(['error']);
  });

  it('reports a resource the sandbox does not find as a status difference', async () => {
    const { post } = await listening();
    const session = `name: unknown checkout
steps:
  - merchant: shop
  - call: GET /v1/checkouts/00000000-0000-4000-8000-000000000000
    recorded: { status: 200, body: { id: "00000000-0000-4000-8000-000000000000", status: active } }
`;
    const answer = await post({ scenario: session });
    expect(answer.status).toBe(200);
    expect((answer.body as unknown as ParityReport).differences).toEqual([
      {
        kind: 'status',
        step: { index: 2, line: 4, label: 'GET /v1/checkouts/00000000-0000-4000-8000-000000000000' },
        path: '(status)',
        message: expect.stringMatching(/^recorded 200, the sandbox 404 \{"error":".+"\}$/),
      },
    ]);
  });

  it('answers 404 for a workspace that does not exist', async () => {
    const { post } = await listening();
    const answer = await post({ scenario: SESSION }, {}, '/w/no-such-workspace/sandbox/parity');
    expect(answer.status).toBe(404);
    expect(Object.keys(answer.body)).toEqual(['error']);
  });

  it('takes the control token when the sandbox has one, and its replay sends it too', async () => {
    const { post } = await listening({ controlToken: TOKEN });
    const refused = await post({ scenario: SESSION });
    expect(refused.status).toBe(401);
    const answer = await post({ scenario: SESSION }, { 'x-svc-control-token': TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, compared: 10, differences: [] });
  });
});
