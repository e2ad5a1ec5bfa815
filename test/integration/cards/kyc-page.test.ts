import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/api.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

// The identity provider's hosted page (played by the sandbox) and the status route it follows.

async function session() {
  const sandbox = await testSandbox();
  const actor = await createMerchant(sandbox);
  const holder = (
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/cardholders',
      headers: actor.auth,
      payload: { name: 'Grace <Hopper>', email: 'grace@example.com' },
    })
  ).json() as { id: string };
  const kyc = (
    await sandbox.apps.test.inject({
      method: 'POST',
      url: `/v1/cardholders/${holder.id}/kyc`,
      headers: actor.auth,
    })
  ).json() as { token: string; url: string };
  return { sandbox, holder, path: new URL(kyc.url).pathname };
}

describe('KYC provider page', () => {
  it('shows the applicant (escaped), the status, the decisions and a favicon; no external assets', async () => {
    const { sandbox, path } = await session();
    const page = await sandbox.apps.test.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Grace &#60;Hopper&#62;');
    expect(page.body).toContain('data-status="pending"');
    expect(page.body).toContain('data-testid="approve"');
    expect(page.body).toContain('data-testid="reject"');
    expect(page.body).toContain('rel="icon"');
    expect(page.body).not.toMatch(/(?:src|href)="https?:/);
  });

  it('the status route follows decisions made anywhere', async () => {
    const { sandbox, holder, path } = await session();
    const status = async () => (await sandbox.apps.test.inject({ url: `${path}/status` })).json();
    expect(await status()).toEqual({ kyc_status: 'pending', is_kyc_verified: false });
    await sandbox.apps.test.inject({
      method: 'POST',
      url: `/sandbox/cardholders/${holder.id}/kyc`,
      payload: { result: 'approved' },
    });
    expect(await status()).toEqual({ kyc_status: 'approved', is_kyc_verified: true });
  });

  it('unknown or malformed tokens: 404 / 422 {error}', async () => {
    const { sandbox } = await session();
    expectError(await sandbox.apps.test.inject({ url: '/kyc/kyc_unknown/status' }), 404);
    expectError(await sandbox.apps.test.inject({ url: '/kyc/nope/status' }), 422, 'token');
  });
});
