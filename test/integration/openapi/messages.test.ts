import { describe, expect, it } from 'vitest';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

// Messages people read: no regular expressions, amounts in units of the currency.

describe('error messages in words', () => {
  it('a pattern is explained, never shown as a regular expression', async () => {
    const sandbox = await testSandbox();
    const country = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/merchants',
      payload: { name: 'X', country: 'de' },
    });
    expect(country.statusCode).toBe(422);
    expect(country.json().error).toBe(
      'country: must be a two-letter country code in capitals (ISO 3166-1 alpha-2, e.g. DE)',
    );
    const actor = await createMerchant(sandbox);
    const phone = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/customers',
      headers: actor.auth,
      payload: { name: 'Jo', email: 'jo@example.com', phone: 'call me' },
    });
    expect(phone.statusCode).toBe(422);
    expect(phone.json().error).toMatch(/^phone: must be a phone number/);
    expect(phone.json().error).not.toMatch(/[\^$[\]]/);
  });

  it('a payout refused for the balance names both amounts in USDC', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const payout = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/payouts',
      payload: {
        merchant_id: actor.merchantId,
        amount: 99_999_999_000_000,
        currency: 'USDC',
        outcome: 'completed',
      },
    });
    expect(payout.statusCode).toBe(200);
    expect(payout.json().failure_reason).toBe(
      'Insufficient balance: available 0.00 USDC, requested 99,999,999.00 USDC',
    );
  });
});
