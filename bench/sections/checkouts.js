// (b) The sandbox's /v1 checkout routes, through the real CLI on a file database, limits off.
import { join } from 'node:path';
import { api, load, startSandbox, stop, tempDir } from '../lib.js';

export default {
  name: 'checkouts',
  async run({ config }) {
    const sandbox = await startSandbox({
      dbPath: join(tempDir(), 'bench.db'),
      nodeArgs: config.serverNodeArgs,
    });
    try {
      const base = sandbox.urls.test;
      const settings = await api(base, 'PATCH', '/sandbox/settings', {
        body: { rate_limit_per_minute: 0, concurrency_limit: 0 },
      });
      if (settings.rate_limit_per_minute !== 0 || settings.concurrency_limit !== 0) {
        throw new Error('PATCH /sandbox/settings did not turn the limits off');
      }
      const { api_key } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Bench' } });
      const headers = { authorization: `Bearer ${api_key.key}` };
      const expires_at = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const checkout = await api(base, 'POST', '/v1/checkouts', {
        headers,
        body: { title: 'Bench order', amount: 5_000_000, expires_at },
      });

      const serverPid = sandbox.child.pid;
      const get = await load(
        { url: `${base}/v1/checkouts/${checkout.id}`, headers, ...config.load },
        { serverPid },
      );
      const post = await load(
        {
          url: `${base}/v1/checkouts`,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          // No reference, so no uniqueness collisions; titles are unique anyway.
          bodyTemplate: JSON.stringify({ title: 'Bench order {{seq}}', amount: 5_000_000, expires_at }),
          ...config.load,
        },
        { serverPid },
      );
      return [
        { kind: 'load', name: 'GET /v1/checkouts/{id}', result: get, target: { minRatio: 0.45 } },
        { kind: 'load', name: 'POST /v1/checkouts', result: post, target: { minRatio: 0.1 } },
      ];
    } finally {
      await stop(sandbox.child);
    }
  },
};
