/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { decryptPayload, type EncryptedData, newSession, readPinBlock } from '../helpers/card-client.js';
import { call, setupDashboard } from './harness.js';

// The Cards page's "Reveal": the page makes the session key with WebCrypto, the server encrypts PAN,
// CVC and PIN under it, the page decrypts. What it shows must be what an integration reads through
// /v1 with the node:crypto client of the test helpers, with no error in the page (the harness fails
// the test on any console error).

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);

const VIRTUAL = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';

describe('card reveal', () => {
  it('shows the PAN, CVC and PIN that /v1 gives an integration', async () => {
    const { page, sandbox } = h;
    const created = await call<{ merchant: { id: string }; api_key: { key: string } }>(
      sandbox,
      'POST',
      '/sandbox/merchants',
      { name: 'Cards Co' },
    );
    const key = created.api_key.key;
    const holder = await call<{ id: string }>(sandbox, 'POST', '/v1/cardholders', { name: 'Jane Doe' }, key);
    await call(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' });
    await call(
      sandbox,
      'POST',
      `/v1/cardholders/${holder.id}/cards/apply`,
      {
        catalogue: VIRTUAL,
        account_purpose: 'expenses',
        occupation: 'engineer',
        annual_salary: '50000_100000',
        expected_monthly_volume: '1000_5000',
      },
      key,
    );
    const card = await call<{ id: string; last4: string }>(
      sandbox,
      'POST',
      `/v1/cardholders/${holder.id}/cards`,
      { catalogue: VIRTUAL, type: 'virtual' },
      key,
    );

    // What an integration reads, with node:crypto (test/helpers/card-client.ts).
    const { public_key_pem: pem } = await call<{ public_key_pem: string }>(
      sandbox,
      'GET',
      '/sandbox/keys?env=test',
    );
    const client = newSession(pem);
    const url = `/v1/cardholders/${holder.id}/cards/${card.id}`;
    const secrets = await call<{ encryptedPan: EncryptedData; encryptedCvc: EncryptedData }>(
      sandbox,
      'POST',
      `${url}/secrets`,
      { session: client.session },
      key,
    );
    const pinAnswer = await sandbox.apps.test.inject({
      method: 'GET',
      url: `${url}/pin`,
      headers: { authorization: `Bearer ${key}`, 'x-svc-session': client.session },
    });
    const expected = {
      pan: decryptPayload(client.key, secrets.encryptedPan),
      cvc: decryptPayload(client.key, secrets.encryptedCvc),
      pin: readPinBlock(
        decryptPayload(client.key, (pinAnswer.json() as { encryptedPin: EncryptedData }).encryptedPin),
      ),
    };
    expect(expected.pan).toMatch(/^[0-9]{16}$/);
    expect(expected.pan.endsWith(card.last4)).toBe(true);

    await page.goto(h.dashboardUrl);
    await byTestId('nav-cards').click();
    await byTestId('scope-merchant').selectOption(created.merchant.id);
    await page.locator(`[data-testid="cardholder-item"][data-cardholder-id="${holder.id}"]`).click();
    await page.locator(`[data-testid="card-row"][data-card-id="${card.id}"] .card-tile-main`).click();
    // Hidden until asked for.
    await byTestId('card-secrets').waitFor();
    await expect.poll(() => byTestId('card-secret-pan').count(), { timeout: 5_000 }).toBe(0);

    // Watch the exchange: the page sends a session and receives only ciphertext.
    // (Only the secrets exchange: live change notices make the page re-read other card routes.)
    const exchange = (url: string) => /\/sandbox\/cards\/[^/]+\/(secrets|pin)$/.test(new URL(url).pathname);
    const sent: string[] = [];
    const received: string[] = [];
    page.on('request', (request) => {
      if (exchange(request.url())) sent.push(request.postData() ?? '');
    });
    page.on('response', async (response) => {
      if (exchange(response.url())) received.push(await response.text());
    });

    await byTestId('card-reveal').click();
    await byTestId('card-secret-pan').waitFor();
    expect(await byTestId('card-secret-pan').getAttribute('data-value')).toBe(expected.pan);
    expect((await byTestId('card-secret-pan').textContent())?.replace(/\s|Copy/g, '')).toBe(expected.pan);
    expect(await byTestId('card-secret-cvc').textContent()).toBe(expected.cvc);
    expect(await byTestId('card-secret-pin').textContent()).toBe(expected.pin);

    expect(sent).toHaveLength(2);
    for (const body of sent) expect(Object.keys(JSON.parse(body))).toEqual(['session']);
    for (const body of received) {
      expect(body).not.toContain(expected.pan);
      expect(body).toMatch(/"iv":/);
    }

    await byTestId('card-secrets-hide').click();
    await expect.poll(() => byTestId('card-secret-pan').count(), { timeout: 5_000 }).toBe(0);
  });
});
