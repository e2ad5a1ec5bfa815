import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { inFuture, testSandbox } from '../../helpers/sandbox.js';

/**
 * The served document generates a working Python client with openapi-python-client 0.29 (the
 * usual Python generator): no duplicate models, `create_checkout` generated, and a program using
 * only the generated code makes a merchant, creates a checkout, reads it back into its model and
 * gets a typed `Error` for a 422. Never skipped: without python3 or the generator this
 * fails, saying what is missing (scripts/python-client-venv.sh; `.ci/run` makes the venv first).
 */

const run = promisify(execFile);
const ROOT = process.cwd();

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const DIR = mkdtempSync(join(ROOT, '.tmp', 'python-client-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** The client program: the generated package only, and the standard library. */
const FLOW = `import datetime
import json
import sys

from svc_sandbox_client import AuthenticatedClient, Client
from svc_sandbox_client.api.checkouts import create_checkout, get_checkout
from svc_sandbox_client.api.sandbox_merchants import sandbox_create_merchant
from svc_sandbox_client.models import (
    Checkout,
    CreateCheckoutBody,
    Error,
    SandboxCreateMerchantBody,
    SandboxCreateMerchantResponse,
)

base_url, expires_at = sys.argv[1], datetime.datetime.fromisoformat(sys.argv[2])

control = Client(base_url=base_url, raise_on_unexpected_status=True)
made = sandbox_create_merchant.sync(client=control, body=SandboxCreateMerchantBody(name="Python Client Co"))
assert isinstance(made, SandboxCreateMerchantResponse), made

api = AuthenticatedClient(base_url=base_url, token=made.api_key.key, raise_on_unexpected_status=True)
created = create_checkout.sync_detailed(
    client=api, body=CreateCheckoutBody(title="Python order", amount=12_500_000, expires_at=expires_at)
)
assert isinstance(created.parsed, Checkout), created.content

read = get_checkout.sync(client=api, id=created.parsed.id)
assert isinstance(read, Checkout), read

refused = create_checkout.sync_detailed(client=api, body=CreateCheckoutBody(title="", expires_at=expires_at))
assert isinstance(refused.parsed, Error), refused.content

print(json.dumps({
    "merchant_id": str(made.merchant.id),
    "created": {"status": int(created.status_code), "id": str(created.parsed.id)},
    "read": {"id": str(read.id), "status": str(read.status.value), "amount": read.amount, "title": read.title},
    "refused": {"status": int(refused.status_code), "error": refused.parsed.error},
}))
`;

async function venv(): Promise<string> {
  const { stdout } = await run('bash', [join(ROOT, 'scripts/python-client-venv.sh')], {
    timeout: 900_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.trim().split('\n').at(-1) ?? '';
}

describe('a generated Python client (openapi-python-client 0.29)', () => {
  it('generates without duplicate models and runs a checkout round trip against a sandbox', {
    timeout: 900_000,
  }, async () => {
    const python = await venv();
    expect(existsSync(join(python, 'bin/openapi-python-client'))).toBe(true);

    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const served = await fetch(`${urls.test}/sandbox/openapi.json`);
    expect(served.status).toBe(200);
    writeFileSync(join(DIR, 'openapi.json'), await served.text());

    const env = { ...process.env, PATH: `${join(python, 'bin')}:${process.env.PATH ?? ''}` };
    const generated = await run(
      join(python, 'bin/openapi-python-client'),
      ['generate', '--path', join(DIR, 'openapi.json'), '--output-path', join(DIR, 'client'), '--overwrite'],
      { env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const output = `${generated.stdout}\n${generated.stderr}`;
    expect(output).not.toMatch(/duplicate/i);
    // The one endpoint it leaves out: the inbox, which takes a webhook of any media type (*/*).
    const skipped = [...output.matchAll(/WARNING parsing (\S+ \S+)/g)].map((m) => m[1]);
    expect(skipped).toEqual(['POST /sandbox/inbox/{name}']);
    const api = join(DIR, 'client/svc_sandbox_client/api');
    for (const file of [
      'checkouts/create_checkout.py',
      'customers/create_customer.py',
      'invoices/create_invoice.py',
    ])
      expect(existsSync(join(api, file)), file).toBe(true);

    writeFileSync(join(DIR, 'flow.py'), FLOW);
    const expiresAt = inFuture(sandbox);
    const flow = await run(join(python, 'bin/python'), [join(DIR, 'flow.py'), urls.test, expiresAt], {
      env: { ...env, PYTHONPATH: join(DIR, 'client') },
      timeout: 120_000,
    });
    const result = JSON.parse(flow.stdout) as {
      merchant_id: string;
      created: { status: number; id: string };
      read: { id: string; status: string; amount: number; title: string };
      refused: { status: number; error: string };
    };
    expect(result.created.status).toBe(200);
    expect(result.read).toEqual({
      id: result.created.id,
      status: 'active',
      amount: 12_500_000,
      title: 'Python order',
    });
    expect(result.refused.status).toBe(422);
    expect(result.refused.error).toMatch(/title/);

    // The checkout is really there, with the merchant the generated client made.
    const check = await sandbox.apps.test.inject({ url: `/sandbox/checkouts/${result.created.id}` });
    expect(check.statusCode).toBe(200);
    expect((check.json() as { checkout: { merchant_id: string } }).checkout.merchant_id).toBe(
      result.merchant_id,
    );
  });
});
