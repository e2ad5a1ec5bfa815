// Profiles one sandbox route under load: starts the CLI with --cpu-prof, loads GET or POST
// /v1/checkouts for a few seconds, stops it cleanly and prints the profile's top functions.
//
//   node bench/tools/profile-route.js get|post|deposit [--duration 4] [--out dir]
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkoutLoads, installCleanup, killAll, load, ROOT, startSandbox, stop, tempDir } from '../lib.js';

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
const {
  merchant,
  specs: loads,
  common,
} = await checkoutLoads(base, {
  name: 'Prof',
  duration: Number(values.duration),
});
const specs = {
  ...loads,
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
