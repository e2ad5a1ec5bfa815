import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verify } from '../../server/webhooks/signing.js';
import { type HttpsReceiver, localPki, startHttpsReceiver } from '../helpers/tls.js';

// The desktop app's webhook CA setting, without Electron (its binary is not installed here): the
// preferences file it writes, and the sandbox the shell starts from it.

const electron = vi.hoisted(() => ({ userData: '' }));
vi.mock('electron', () => ({
  app: { getPath: (name: string) => (name === 'userData' ? electron.userData : '/tmp') },
}));

const { loadPreferences, savePreferences, webhookCaOf } = await import('../../main/preferences.js');
const { startServerHost } = await import('../../main/server-host.js');

const pki = localPki();
const dirs: string[] = [];
const receivers: HttpsReceiver[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-shell-ca-'));
  dirs.push(dir);
  return dir;
};

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('preferences', () => {
  it('round-trip the webhook CA file; a missing, broken or foreign file reads as the defaults', () => {
    const userData = tempDir();
    expect(loadPreferences(userData)).toEqual({});
    savePreferences(userData, { webhookCaFile: '/certs/rootCA.pem' });
    expect(loadPreferences(userData)).toEqual({ webhookCaFile: '/certs/rootCA.pem' });
    expect(JSON.parse(readFileSync(join(userData, 'preferences.json'), 'utf8'))).toEqual({
      webhookCaFile: '/certs/rootCA.pem',
    });
    savePreferences(userData, { webhookCaFile: undefined });
    expect(loadPreferences(userData)).toEqual({});
    // The workspace the window showed last is kept beside it.
    savePreferences(userData, { webhookCaFile: '/certs/rootCA.pem', lastWorkspace: 'QA checkout' });
    expect(loadPreferences(userData)).toEqual({
      webhookCaFile: '/certs/rootCA.pem',
      lastWorkspace: 'QA checkout',
    });
    savePreferences(userData, {});
    for (const text of ['{not json', '[]', 'null', '{"webhookCaFile": 7}', '{"lastWorkspace": ["x"]}']) {
      writeFileSync(join(userData, 'preferences.json'), text);
      expect(loadPreferences(userData), text).toEqual({});
    }
  });

  it('a CA file that has gone is a problem in words, not a failure to start', () => {
    expect(webhookCaOf({})).toEqual({});
    expect(webhookCaOf({ webhookCaFile: join(tempDir(), 'gone.pem') }).problem).toMatch(/cannot read/);
  });
});

describe('the shell starts the sandbox with the webhook CA of its preferences', () => {
  it('an HTTPS receiver with a certificate of that CA gets its delivery, signed', {
    timeout: 30_000,
  }, async () => {
    electron.userData = tempDir();
    const caFile = join(electron.userData, 'rootCA.pem');
    writeFileSync(caFile, pki.ca.certPem);
    savePreferences(electron.userData, { webhookCaFile: caFile });
    const receiver = await startHttpsReceiver(pki.leaf);
    receivers.push(receiver);
    const host = await startServerHost({ dashboardDir: tempDir(), ports: { test: 0, production: 0 } });
    try {
      expect(host.webhookCa).toEqual({ file: caFile, problem: undefined });
      const post = async (path: string, body: object) => {
        const res = await fetch(`${host.urls.test}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status, path).toBe(200);
        return (await res.json()) as Record<string, unknown>;
      };
      const { merchant } = (await post('/sandbox/merchants', { name: 'Desk' })) as {
        merchant: { id: string };
      };
      const endpoint = (await post(`/sandbox/merchants/${merchant.id}/webhook-endpoints`, {
        url: receiver.url,
      })) as { id: string; secret: string };
      const delivery = (await post(`/sandbox/webhook-endpoints/${endpoint.id}/test`, {})) as {
        status: string;
        attempts: { error: string | null }[];
      };
      expect(delivery.attempts[0]?.error).toBeNull();
      expect(delivery.status).toBe('delivered');
      const [request] = receiver.received;
      expect(verify(endpoint.secret, request!.body, request!.headers['x-svc-signature'])).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('a CA file that has gone: the sandbox starts without it and says why', { timeout: 30_000 }, async () => {
    electron.userData = tempDir();
    savePreferences(electron.userData, { webhookCaFile: join(electron.userData, 'gone.pem') });
    const host = await startServerHost({ dashboardDir: tempDir(), ports: { test: 0, production: 0 } });
    try {
      expect(host.webhookCa.problem).toMatch(/cannot read .*gone\.pem/);
      expect((await fetch(`${host.urls.test}/sandbox/health`)).status).toBe(200);
    } finally {
      await host.close();
    }
  });
});
