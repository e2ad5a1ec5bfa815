import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import {
  decryptPayload,
  encryptPayload,
  newSession,
  pinBlock,
  readPinBlock,
} from '../../helpers/card-client.js';
import { inFuture, testSandbox } from '../../helpers/sandbox.js';

/**
 * The served document generates a good client. openapi-typescript turns it into `paths`;
 * a small program written against those types with openapi-fetch must typecheck (tsc --strict),
 * and that same program then runs a real flow against a listening sandbox: merchant → checkout →
 * payment → paid, and a card's PIN read with the session in a header (no GET body in fetch).
 */

const run = promisify(execFile);
const ROOT = process.cwd();
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

// Under the repo (git-ignored) so `openapi-fetch` resolves from the repo's node_modules.
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const DIR = mkdtempSync(join(ROOT, '.tmp', 'openapi-client-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** The client program: typed entirely by the generated `paths`; no cast anywhere. */
const FLOW = `import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Checkout = components['schemas']['Checkout'];
type CheckoutStatus = components['schemas']['CheckoutStatus'];

export interface FlowResult {
  merchantId: string;
  created: { status: number; checkout: Checkout };
  paid: { status: number; state: CheckoutStatus; paymentId: string };
  read: { status: number; id: string; state: CheckoutStatus; amount: number | null };
  unauthorized: { status: number; error: string };
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(\`\${what}: no data\`);
  return value;
}

export async function checkoutFlow(baseUrl: string, expiresAt: string): Promise<FlowResult> {
  const control = createClient<paths>({ baseUrl });
  const made = await control.POST('/sandbox/merchants', { body: { name: 'Typed Client Co' } });
  const merchant = must(made.data, 'create merchant');
  const key: string = merchant.api_key.key;

  const api = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${key}\` } });
  const created = await api.POST('/v1/checkouts', {
    body: { title: 'Typed order', amount: 12_500_000, expires_at: expiresAt },
  });
  const checkout = must(created.data, 'create checkout');

  const payment = await control.POST('/sandbox/checkouts/{id}/payments', {
    params: { path: { id: checkout.id } },
    body: {},
  });
  const paid = must(payment.data, 'pay checkout');

  const read = await api.GET('/v1/checkouts/{id}', { params: { path: { id: checkout.id } } });
  const again = must(read.data, 'get checkout');

  const anonymous = createClient<paths>({ baseUrl });
  const refused = await anonymous.GET('/v1/checkouts/{id}', { params: { path: { id: checkout.id } } });
  const error: string = refused.error?.error ?? '';

  return {
    merchantId: merchant.merchant.id,
    created: { status: created.response.status, checkout },
    paid: { status: payment.response.status, state: paid.checkout.status, paymentId: paid.payment.id },
    read: { status: read.response.status, id: again.id, state: again.status, amount: again.amount },
    unauthorized: { status: refused.response.status, error },
  };
}

export interface Encrypted {
  iv: string;
  data: string;
}

/** Issues a card, sets its PIN, and reads it back with the session in the X-SVC-Session header. */
export async function pinFlow(
  baseUrl: string,
  key: string,
  set: { session: string; encrypted_data: Encrypted },
  readSession: string,
): Promise<{ status: number; encryptedPin: Encrypted }> {
  const api = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${key}\` } });
  const control = createClient<paths>({ baseUrl });
  const catalogue = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';
  const holder = must((await api.POST('/v1/cardholders', { body: { name: 'Jane Doe' } })).data, 'holder');
  await control.POST('/sandbox/cardholders/{id}/kyc', {
    params: { path: { id: holder.id } },
    body: { result: 'approved' },
  });
  must(
    (
      await api.POST('/v1/cardholders/{id}/cards/apply', {
        params: { path: { id: holder.id } },
        body: {
          catalogue,
          account_purpose: 'business expenses',
          occupation: 'engineer',
          annual_salary: '50000_100000',
          expected_monthly_volume: '1000_5000',
        },
      })
    ).data,
    'apply',
  );
  const card = must(
    (
      await api.POST('/v1/cardholders/{id}/cards', {
        params: { path: { id: holder.id } },
        body: { catalogue, type: 'virtual' },
      })
    ).data,
    'issue',
  );
  const path = { ch_id: holder.id, card_id: card.id };
  must((await api.PUT('/v1/cardholders/{ch_id}/cards/{card_id}/pin', { params: { path }, body: set })).data, 'set pin');
  const pin = await api.GET('/v1/cardholders/{ch_id}/cards/{card_id}/pin', {
    params: { path, header: { 'x-svc-session': readSession } },
  });
  return { status: pin.response.status, encryptedPin: must(pin.data, 'read pin').encryptedPin };
}

// The generated types reject what the document does not allow.
export async function typeErrors(baseUrl: string): Promise<void> {
  const api = createClient<paths>({ baseUrl });
  // @ts-expect-error: not a documented path
  await api.GET('/v1/nope');
  // @ts-expect-error: title is required
  await api.POST('/v1/checkouts', { body: { expires_at: '2030-01-01T00:00:00Z' } });
  // @ts-expect-error: amount is an integer, not a string
  await api.POST('/v1/checkouts', { body: { title: 'x', amount: '1', expires_at: '2030-01-01T00:00:00Z' } });
}
`;

interface Encrypted {
  iv: string;
  data: string;
}
interface FlowModule {
  checkoutFlow(
    baseUrl: string,
    expiresAt: string,
  ): Promise<{
    merchantId: string;
    created: { status: number; checkout: { id: string; status: string; amount: number | null } };
    paid: { status: number; state: string; paymentId: string };
    read: { status: number; id: string; state: string; amount: number | null };
    unauthorized: { status: number; error: string };
  }>;
  pinFlow(
    baseUrl: string,
    key: string,
    set: { session: string; encrypted_data: Encrypted },
    readSession: string,
  ): Promise<{ status: number; encryptedPin: Encrypted }>;
}

describe('a generated client (openapi-typescript + openapi-fetch)', () => {
  it('generates types, typechecks a client program and runs it against a sandbox', {
    timeout: 120_000,
  }, async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const served = await fetch(`${urls.test}/sandbox/openapi.json`);
    expect(served.status).toBe(200);
    const doc = (await served.json()) as OpenAPI3;

    const ast = await openapiTS(doc);
    const schema = astToString(ast);
    expect(schema).toContain('export interface paths');
    expect(schema).toContain('"/v1/checkouts/{id}"');
    expect(schema).toContain('createCheckout: {');
    writeFileSync(join(DIR, 'schema.ts'), schema);
    writeFileSync(join(DIR, 'flow.ts'), FLOW);

    // Strict typecheck of the generated types and the program written against them.
    const args = [
      TSC,
      '--noEmit',
      '--strict',
      '--exactOptionalPropertyTypes',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2022,dom',
      '--types',
      'node',
      '--skipLibCheck',
      join(DIR, 'schema.ts'),
      join(DIR, 'flow.ts'),
    ];
    const tsc = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? 1,
        out: `${e.stdout ?? ''}${e.stderr ?? ''}`,
      }),
    );
    expect(tsc.out).toBe('');
    expect(tsc.code).toBe(0);

    // The same program, run for real over HTTP.
    const flow = (await import(pathToFileURL(join(DIR, 'flow.ts')).href)) as FlowModule;
    const result = await flow.checkoutFlow(urls.test, inFuture(sandbox));
    expect(result.created.status).toBe(200);
    expect(result.created.checkout.status).toBe('active');
    expect(result.created.checkout.amount).toBe(12_500_000);
    expect(result.paid).toMatchObject({ status: 200, state: 'paid' });
    expect(result.paid.paymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.read).toEqual({
      status: 200,
      id: result.created.checkout.id,
      state: 'paid',
      amount: 12_500_000,
    });
    expect(result.unauthorized.status).toBe(401);
    expect(result.unauthorized.error.length).toBeGreaterThan(0);

    // A fetch client cannot send a GET body: the PIN read takes the session in a header.
    const keys = await fetch(`${urls.test}/sandbox/keys?env=test`);
    const pem = ((await keys.json()) as { public_key_pem: string }).public_key_pem;
    const writer = newSession(pem);
    const reader = newSession(pem);
    const merchantKey = await fetch(`${urls.test}/sandbox/merchants/${result.merchantId}/api-keys`);
    const [ownerKey] = (await merchantKey.json()) as { key: string }[];
    const pin = await flow.pinFlow(
      urls.test,
      ownerKey!.key,
      { session: writer.session, encrypted_data: encryptPayload(writer.key, pinBlock('2468')) },
      reader.session,
    );
    expect(pin.status).toBe(200);
    expect(readPinBlock(decryptPayload(reader.key, pin.encryptedPin))).toBe('2468');
  });
});
