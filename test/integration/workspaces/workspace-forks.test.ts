import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { testSandbox } from '../../helpers/sandbox.js';

/** A control call through the test listener, in workspace `ws` (none: the default). */
async function control(sandbox: Sandbox, method: 'GET' | 'POST', url: string, ws?: string, body?: object) {
  const res = await sandbox.apps.test.inject({
    method,
    url,
    headers: ws ? { 'x-svc-workspace': ws } : {},
    ...(body ? { payload: body } : {}),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

const messages = async (sandbox: Sandbox, ws: string | undefined, inbox: string): Promise<number> =>
  (await control(sandbox, 'GET', `/sandbox/inboxes/${inbox}`, ws)).messages.length;

/** Waits (event-driven polling of the inbox, bounded) for `count` messages. */
async function waitForMessages(sandbox: Sandbox, ws: string | undefined, inbox: string, count: number) {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    if ((await messages(sandbox, ws, inbox)) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`inbox ${inbox} of ${ws ?? 'default'} never held ${count} messages`);
}

async function depositIn(sandbox: Sandbox, ws: string | undefined, merchantId: string) {
  await control(sandbox, 'POST', '/sandbox/deposits', ws, {
    merchant_id: merchantId,
    chain: 'ethereum',
    currency: 'USDC',
    amount: 1_000_000,
  });
}

describe('forks keep their deliveries', () => {
  it("a fork's endpoints on its source's inbox are re-pointed to its own; others stay", async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const source = await control(sandbox, 'POST', '/sandbox/workspaces', undefined, { name: 'Source' });
    const { merchant } = await control(sandbox, 'POST', '/sandbox/merchants', source.id, { name: 'Shop' });
    const endpoint = (url: string) =>
      control(sandbox, 'POST', `/sandbox/merchants/${merchant.id}/webhook-endpoints`, source.id, { url });
    // Each way the source's inbox can be named: ?workspace= (the Webhooks page), its prefix, its name.
    await endpoint(`${urls.test}/sandbox/inbox/query?workspace=${source.id}`);
    await endpoint(`${urls.test.replace('127.0.0.1', 'localhost')}/w/${source.id}/sandbox/inbox/prefix`);
    await endpoint(`${urls.test}/sandbox/inbox/named?workspace=Source`);
    const elsewhere = await endpoint('http://192.0.2.1:9/hook');

    const fork = await control(sandbox, 'POST', '/sandbox/workspaces', undefined, {
      name: 'Fork',
      from: { workspace_id: source.id },
    });
    const forked = await control(
      sandbox,
      'GET',
      `/sandbox/merchants/${merchant.id}/webhook-endpoints`,
      fork.id,
    );
    const forkedUrls = forked.map((e: { url: string }) => e.url).sort();
    expect(forkedUrls).toEqual(
      [
        `${urls.test}/sandbox/inbox/named?workspace=${fork.id}`,
        `${urls.test}/sandbox/inbox/query?workspace=${fork.id}`,
        `${urls.test.replace('127.0.0.1', 'localhost')}/w/${fork.id}/sandbox/inbox/prefix`,
        elsewhere.url,
      ].sort(),
    );

    await depositIn(sandbox, fork.id, merchant.id);
    for (const inbox of ['query', 'prefix', 'named']) await waitForMessages(sandbox, fork.id, inbox, 1);
    // The source's inboxes got nothing of the fork's (the source fired no event of its own).
    for (const inbox of ['query', 'prefix', 'named']) {
      const res = await sandbox.apps.test.inject({
        url: `/sandbox/inboxes/${inbox}`,
        headers: { 'x-svc-workspace': source.id },
      });
      expect(res.statusCode === 404 || res.json().messages.length === 0, res.body).toBe(true);
    }
    // The source's own deliveries still land in the source.
    await depositIn(sandbox, source.id, merchant.id);
    await waitForMessages(sandbox, source.id, 'query', 1);
    expect(await messages(sandbox, fork.id, 'query')).toBe(1);
  }, 60_000);

  it("a fork of the default workspace re-points endpoints on the default's bare inbox address", async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const { merchant } = await control(sandbox, 'POST', '/sandbox/merchants', undefined, { name: 'Shop' });
    await control(sandbox, 'POST', `/sandbox/merchants/${merchant.id}/webhook-endpoints`, undefined, {
      url: `${urls.test}/sandbox/inbox/dock`,
    });
    const fork = await control(sandbox, 'POST', '/sandbox/workspaces', undefined, {
      from: { workspace_id: 'default' },
    });
    const [forked] = await control(
      sandbox,
      'GET',
      `/sandbox/merchants/${merchant.id}/webhook-endpoints`,
      fork.id,
    );
    expect(forked.url).toBe(`${urls.test}/w/${fork.id}/sandbox/inbox/dock`);
    await depositIn(sandbox, fork.id, merchant.id);
    await waitForMessages(sandbox, fork.id, 'dock', 1);
    const res = await sandbox.apps.test.inject({ url: '/sandbox/inboxes/dock' });
    expect(res.statusCode === 404 || res.json().messages.length === 0, res.body).toBe(true);
  }, 60_000);
});
