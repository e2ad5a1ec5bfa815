import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, WebhookEndpoint } from '../../../server/contract/webhooks.js';
import { verify } from '../../../server/webhooks/signing.js';
import { readCaBundle, trustedCertificates } from '../../../server/webhooks/trust.js';
import { startReceiver } from '../../helpers/receiver.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';
import { type HttpsReceiver, localPki, startHttpsReceiver } from '../../helpers/tls.js';
import { CLI, ensureCli, exited, ROOT } from '../../reliability/support.js';

/**
 * HTTPS receivers, as a developer runs one on loopback: a certificate from a local CA (mkcert's
 * kind) or a self-signed one. Untrusted, expired or misnamed, the attempt says why in words;
 * trusted through the webhook CA option, --webhook-ca or NODE_EXTRA_CA_CERTS, it is delivered.
 */

const pki = localPki();
const receivers: HttpsReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(...args: Parameters<typeof startHttpsReceiver>): Promise<HttpsReceiver> {
  const started = await startHttpsReceiver(...args);
  receivers.push(started);
  return started;
}

/** Calls the control API of a sandbox at `base` (in process or a child's). */
async function control<T>(base: string, method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A merchant with one endpoint at `url`, sent a test event: the delivery after its first attempt. */
async function testDelivery(
  base: string,
  url: string,
): Promise<{ endpoint: WebhookEndpoint; delivery: Delivery }> {
  const { merchant } = await control<{ merchant: { id: string } }>(base, 'POST', '/sandbox/merchants', {
    name: 'Hooks',
  });
  const endpoint = await control<WebhookEndpoint>(
    base,
    'POST',
    `/sandbox/merchants/${merchant.id}/webhook-endpoints?env=test`,
    { url },
  );
  const delivery = await control<Delivery>(
    base,
    'POST',
    `/sandbox/webhook-endpoints/${endpoint.id}/test`,
    {},
  );
  return { endpoint, delivery };
}

/** The delivery arrived, byte for byte as its attempt records it, with a signature that verifies. */
function expectDelivered(got: { endpoint: WebhookEndpoint; delivery: Delivery }, at: HttpsReceiver): void {
  const { endpoint, delivery } = got;
  expect(delivery.attempts[0]?.error ?? null).toBeNull();
  expect(delivery.status).toBe('delivered');
  expect(at.received).toHaveLength(1);
  const [request] = at.received;
  const attempt = delivery.attempts[0]!;
  expect(request!.body).toBe(attempt.request_body);
  expect(request!.headers['x-svc-delivery-id']).toBe(delivery.id);
  expect(request!.headers['x-svc-signature']).toBe(attempt.request_headers['x-svc-signature']);
  expect(verify(endpoint.secret, request!.body, request!.headers['x-svc-signature'])).toBe(true);
}

async function baseOf(options: Parameters<typeof testSandbox>[0] = {}): Promise<string> {
  const sandbox = await testSandbox(options);
  return (await sandbox.listen()).test;
}

describe('HTTPS receivers not trusted', () => {
  it.each([
    [
      'a self-signed certificate',
      () => receiver(pki.selfSigned),
      /self-signed.*DEPTH_ZERO_SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED_CERT.*self-signed/,
    ],
    [
      "a local CA's leaf, sent alone",
      () => receiver(pki.leaf),
      /UNABLE_TO_VERIFY_LEAF_SIGNATURE.*unknown CA/,
    ],
    [
      "a local CA's leaf, sent with its CA",
      () => receiver(pki.leaf, [pki.ca]),
      /SELF_SIGNED_CERT_IN_CHAIN.*self-signed CA that is not trusted/,
    ],
  ])('%s: the attempt fails and says why, and how to trust it', async (_name, start, words) => {
    const base = await baseOf();
    const at = await start();
    const { delivery } = await testDelivery(base, at.url);
    expect(delivery.status).toBe('pending');
    const error = delivery.attempts[0]?.error ?? '';
    expect(error).toMatch(words);
    expect(error).toContain('--webhook-ca');
    expect(error).toContain('NODE_EXTRA_CA_CERTS');
    expect(at.received).toEqual([]);
  });
});

describe('an https:// URL to a port that does not speak TLS', () => {
  it('fails and says so', async () => {
    const base = await baseOf();
    const plain = await startReceiver();
    const { delivery } = await testDelivery(base, plain.url.replace(/^http:/, 'https:'));
    expect(delivery.attempts[0]?.error).toMatch(/ERR_SSL_WRONG_VERSION_NUMBER.*does not speak TLS/);
    expect(plain.received).toEqual([]);
  });
});

describe('HTTPS receivers with the webhook CA option', () => {
  it("a local CA's leaf is delivered, signed", async () => {
    const base = await baseOf({ webhookCa: pki.ca.certPem });
    const at = await receiver(pki.leaf);
    expectDelivered(await testDelivery(base, at.url), at);
  });

  it('a self-signed certificate given as the CA is delivered', async () => {
    const base = await baseOf({ webhookCa: [pki.selfSigned.certPem] });
    const at = await receiver(pki.selfSigned);
    expectDelivered(await testDelivery(base, at.url), at);
  });

  it('an expired leaf of a trusted CA fails as expired', async () => {
    const base = await baseOf({ webhookCa: pki.ca.certPem });
    const at = await receiver(pki.expired);
    const { delivery } = await testDelivery(base, at.url);
    expect(delivery.attempts[0]?.error).toMatch(/CERT_HAS_EXPIRED.*certificate has expired/);
    expect(at.received).toEqual([]);
  });

  it("a trusted CA's leaf for another host name fails as such", async () => {
    const base = await baseOf({ webhookCa: pki.ca.certPem });
    const at = await receiver(pki.wrongHost);
    const { delivery } = await testDelivery(base, at.url);
    expect(delivery.attempts[0]?.error).toMatch(
      /ERR_TLS_CERT_ALTNAME_INVALID.*another host name.*127\.0\.0\.1/,
    );
    expect(at.received).toEqual([]);
  });
});

describe('the webhook CA bundle', () => {
  it('reads every certificate of a PEM file and refuses files that hold none or a broken one', () => {
    const dir = tempDir();
    const bundle = join(dir, 'bundle.pem');
    writeFileSync(bundle, `# local CAs\n${pki.ca.certPem}\n${pki.selfSigned.certPem}`);
    expect(readCaBundle(bundle)).toEqual([pki.ca.certPem.trim(), pki.selfSigned.certPem.trim()]);
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, pki.ca.keyPem);
    expect(() => readCaBundle(empty)).toThrow(/holds no PEM certificate/);
    const broken = join(dir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(() => readCaBundle(broken)).toThrow(/certificate 1 of .* does not parse/);
    expect(() => readCaBundle(join(dir, 'missing.pem'))).toThrow(/cannot read/);
  });

  it('given extra CAs, TLS is given the NODE_EXTRA_CA_CERTS file too (an explicit CA list replaces the default store)', () => {
    const file = join(tempDir(), 'extra.pem');
    writeFileSync(file, pki.selfSigned.certPem);
    expect(trustedCertificates(undefined, { NODE_EXTRA_CA_CERTS: file })).toBeUndefined();
    const list = trustedCertificates([pki.ca.certPem], { NODE_EXTRA_CA_CERTS: file })!;
    expect(list).toContain(pki.selfSigned.certPem);
    expect(list).toContain(pki.ca.certPem);
    expect(list.length).toBeGreaterThan(100);
  });

  it('the webhookCa option refuses text that is not a PEM certificate when the sandbox is made', async () => {
    await expect(testSandbox({ webhookCa: '/certs/rootCA.pem' })).rejects.toThrow(/not PEM certificate text/);
  });
});

describe('the CLI: serve --webhook-ca and NODE_EXTRA_CA_CERTS', () => {
  beforeAll(() => ensureCli());

  /** `serve` on free ports with `args` and `env`; resolves with its test address. */
  async function serve(args: string[], env: NodeJS.ProcessEnv) {
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--port', '0', '--prod-port', '0', '--db', ':memory:', ...args],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
    );
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 100_000) stderr += chunk;
    });
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line within 20 s: ${stderr}`)), 20_000);
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const ready = /svc-sandbox ready test=(\S+)/.exec(out);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1]!);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited ${code}: ${stderr}`));
      });
    });
    return {
      base,
      stop: async () => {
        child.kill('SIGTERM');
        await exited(child);
      },
    };
  }

  it('a receiver trusted by --webhook-ca and one trusted by NODE_EXTRA_CA_CERTS both get their deliveries', {
    timeout: 60_000,
  }, async () => {
    const dir = tempDir();
    const caFile = join(dir, 'local-ca.pem');
    writeFileSync(caFile, pki.ca.certPem);
    const extraFile = join(dir, 'extra.pem');
    writeFileSync(extraFile, pki.selfSigned.certPem);
    const viaFlag = await receiver(pki.leaf);
    const viaEnv = await receiver(pki.selfSigned);
    const child = await serve(['--webhook-ca', caFile], { NODE_EXTRA_CA_CERTS: extraFile });
    try {
      expectDelivered(await testDelivery(child.base, viaFlag.url), viaFlag);
      expectDelivered(await testDelivery(child.base, viaEnv.url), viaEnv);
    } finally {
      await child.stop();
    }
  });

  it('NODE_EXTRA_CA_CERTS alone is honoured', { timeout: 60_000 }, async () => {
    const extraFile = join(tempDir(), 'extra.pem');
    writeFileSync(extraFile, pki.ca.certPem);
    const at = await receiver(pki.leaf);
    const child = await serve([], { NODE_EXTRA_CA_CERTS: extraFile });
    try {
      expectDelivered(await testDelivery(child.base, at.url), at);
    } finally {
      await child.stop();
    }
  });

  it('--webhook-ca naming a file without a certificate is refused at start', {
    timeout: 30_000,
  }, async () => {
    const file = join(tempDir(), 'key.pem');
    writeFileSync(file, pki.ca.keyPem);
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--port', '0', '--prod-port', '0', '--webhook-ca', file],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    expect(await exited(child, 20_000)).toBe(2);
    expect(stderr).toContain('--webhook-ca');
    expect(stderr).toContain('holds no PEM certificate');
  });
});
