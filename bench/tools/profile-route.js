// Profiles one sandbox route under load: starts the CLI with --cpu-prof, loads GET or POST
// /v1/checkouts for a few seconds, stops it cleanly and prints the profile's top functions.
//
//   node bench/tools/profile-route.js get|post|deposit [--duration 4] [--out dir]
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { api, installCleanup, killAll, load, ROOT, startSandbox, stop, tempDir } from '../lib.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { duration: { type: 'string', default: '4' }, out: { type: 'string' } },
});
const what = positionals[0] ?? 'post';
installCleanup(60_000);
const dir = values.out ?? tempDir();
const sandbox = await startSandbox({
  dbPath: join(tempDir(), 'prof.db'),
  nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir],
});
const base = sandbox.urls.test;
await api(base, 'PATCH', '/sandbox/settings', { body: { rate_limit_per_minute: 0, concurrency_limit: 0 } });
const { api_key, merchant } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Prof' } });
const headers = { authorization: `Bearer ${api_key.key}` };
const expires_at = new Date(Date.now() + 7 * 86_400_000).toISOString();
const checkout = await api(base, 'POST', '/v1/checkouts', {
  headers,
  body: { title: 'Prof', amount: 5_000_000, expires_at },
});
const duration = Number(values.duration);
const common = { connections: 10, duration, warmup: { connections: 10, duration: 1 } };
const specs = {
  get: { url: `${base}/v1/checkouts/${checkout.id}`, headers, ...common },
  post: {
    url: `${base}/v1/checkouts`,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    bodyTemplate: JSON.stringify({ title: 'Prof {{seq}}', amount: 5_000_000, expires_at }),
    ...common,
  },
  deposit: {
    url: `${base}/sandbox/deposits`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    bodyTemplate: JSON.stringify({
      merchant_id: merchant.id,
      chain: 'tron',
      currency: 'USDT',
      amount: 1_000_000,
      txid: 'p-{{seq}}',
    }),
    ...common,
  },
};
const result = await load(specs[what], { serverPid: sandbox.child.pid });
process.stdout.write(
  `${what}: ${result.rps.toFixed(0)} req/s, server CPU ${result.server_cpu_us_per_req?.toFixed(0)} µs/req, non2xx ${result.non2xx}\n`,
);
await stop(sandbox.child, 10_000);
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
process.stdout.write(
  execFileSync(
    process.execPath,
    [join(ROOT, 'bench/tools/cpuprofile-top.js'), join(dir, files[0]), '--top', '40'],
    {
      encoding: 'utf8',
    },
  ),
);
killAll();
