import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createClient as generate } from '@hey-api/openapi-ts';
import { afterAll, describe, expect, it } from 'vitest';
import { inFuture, testSandbox } from '../../helpers/sandbox.js';

/**
 * A second TypeScript generator reads the served document: @hey-api/openapi-ts (its fetch client,
 * types and SDK functions named by the operation ids). Its output and a program using it compile
 * with tsc --strict and then run against a listening sandbox: a merchant, a checkout created and
 * read back as the generated `Checkout`, and a 422 read as the generated `Error`.
 */

const run = promisify(execFile);
const ROOT = process.cwd();
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const DIR = mkdtempSync(join(ROOT, '.tmp', 'hey-api-client-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const FLOW = `import { createClient } from './client/client/index.js';
import { createCheckout, getCheckout, sandboxCreateMerchant } from './client/sdk.gen.js';
import type { Checkout, CheckoutStatus, Error as ApiError } from './client/types.gen.js';

export interface FlowResult {
  merchantId: string;
  created: { status: number; id: string };
  read: { id: string; status: CheckoutStatus; amount: number | null; title: string };
  refused: { status: number; error: string };
}

export async function checkoutFlow(baseUrl: string, expiresAt: string): Promise<FlowResult> {
  const control = createClient({ baseUrl });
  const made = await sandboxCreateMerchant({ client: control, body: { name: 'Hey API Co' } });
  if (made.data === undefined) throw new Error(\`create merchant: \${made.response.status}\`);

  const api = createClient({ baseUrl, auth: made.data.api_key.key });
  const created = await createCheckout({
    client: api,
    body: { title: 'Hey order', amount: 12_500_000, expires_at: expiresAt },
  });
  if (created.data === undefined) throw new Error(\`create checkout: \${created.response.status}\`);
  const checkout: Checkout = created.data;

  const read = await getCheckout({ client: api, path: { id: checkout.id } });
  if (read.data === undefined) throw new Error(\`get checkout: \${read.response.status}\`);
  const again: Checkout = read.data;

  const refused = await createCheckout({ client: api, body: { title: '', expires_at: expiresAt } });
  const error: ApiError | undefined = refused.error;

  return {
    merchantId: made.data.merchant.id,
    created: { status: created.response.status, id: checkout.id },
    read: { id: again.id, status: again.status, amount: again.amount, title: again.title },
    refused: { status: refused.response.status, error: error?.error ?? '' },
  };
}
`;

interface FlowModule {
  checkoutFlow(
    baseUrl: string,
    expiresAt: string,
  ): Promise<{
    merchantId: string;
    created: { status: number; id: string };
    read: { id: string; status: string; amount: number | null; title: string };
    refused: { status: number; error: string };
  }>;
}

describe('a generated client (@hey-api/openapi-ts)', () => {
  it('generates an SDK, compiles it with tsc --strict and runs a checkout round trip', {
    timeout: 300_000,
  }, async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const served = await fetch(`${urls.test}/sandbox/openapi.json`);
    expect(served.status).toBe(200);
    writeFileSync(join(DIR, 'openapi.json'), await served.text());

    await generate({
      input: join(DIR, 'openapi.json'),
      // `.js` in its imports: the compiled output runs under Node's own ESM resolution.
      output: { path: join(DIR, 'client'), importFileExtension: '.js' },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    });
    writeFileSync(join(DIR, 'flow.ts'), FLOW);
    writeFileSync(join(DIR, 'package.json'), '{"type":"module"}\n');

    await run(
      process.execPath,
      [
        TSC,
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--lib',
        'es2022,dom',
        '--types',
        'node',
        '--outDir',
        join(DIR, 'out'),
        '--rootDir',
        DIR,
        join(DIR, 'flow.ts'),
      ],
      { cwd: ROOT, timeout: 150_000 },
    ).catch((err: { stdout?: string }) => {
      throw new Error(`tsc failed:\n${err.stdout ?? String(err)}`);
    });

    const flow = (await import(pathToFileURL(join(DIR, 'out/flow.js')).href)) as FlowModule;
    const result = await flow.checkoutFlow(urls.test, inFuture(sandbox));
    expect(result.created.status).toBe(200);
    expect(result.read).toEqual({
      id: result.created.id,
      status: 'active',
      amount: 12_500_000,
      title: 'Hey order',
    });
    expect(result.refused.status).toBe(422);
    expect(result.refused.error).toMatch(/title/);
    const check = await sandbox.apps.test.inject({ url: `/sandbox/checkouts/${result.created.id}` });
    expect((check.json() as { checkout: { merchant_id: string } }).checkout.merchant_id).toBe(
      result.merchantId,
    );
  });
});
