// Profiles the webhook load of bench/sections/webhooks.js (endpoints × deposits `deposit.received`,
// each made by a deposit control call) against a sandbox started with --cpu-prof, and prints the
// sandbox's CPU per delivery (from /proc, set-up excluded) and where it went.
//
//   node bench/tools/profile-webhooks.js [--endpoints 8] [--deposits 1000] [--concurrency 8]
//                                        [--no-prof] [--out dir] [--top 40] [--cli dist/server/cli.js]
//
// --cli runs another build (a copy of dist/ under bench/results/, say) for A/B runs.
// Besides CPU it prints the bytes and write calls the sandbox made per delivery (wchar and syscw of
// /proc/<pid>/io: WAL frames, SQLite's statement journal, sockets): on a machine shared with other
// work CPU time per delivery varies by ±10% from run to run, these hardly at all.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  api,
  cpuSeconds,
  installCleanup,
  killAll,
  limitsOff,
  ROOT,
  startSandbox,
  stop,
  tempDir,
  track,
  waitForLine,
} from '../lib.js';

const { values } = parseArgs({
  options: {
    endpoints: { type: 'string', default: '8' },
    deposits: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
    'no-prof': { type: 'boolean', default: false },
    out: { type: 'string' },
    top: { type: 'string', default: '40' },
    cli: { type: 'string' },
  },
});
const endpoints = Number(values.endpoints);
const deposits = Number(values.deposits);
const concurrency = Number(values.concurrency);
installCleanup(90_000);

let count = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    count++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 60_000;
const port = await new Promise((resolve) =>
  server.listen(0, '127.0.0.1', () => resolve(server.address().port)),
);

const dir = values.out ?? tempDir();
const dbPath = join(tempDir(), 'prof-webhooks.db');
const nodeArgs = values['no-prof'] ? [] : ['--cpu-prof', '--cpu-prof-dir', dir];
const sandbox = values.cli ? await startCli(values.cli) : await startSandbox({ dbPath, nodeArgs });

/** startSandbox with another build's CLI. */
async function startCli(cli) {
  const args = [...nodeArgs, cli, 'serve', '--port', '0', '--prod-port', '0', '--db', dbPath];
  const child = track(spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
  const match = await waitForLine(child, /^svc-sandbox ready test=(\S+) /, 10_000, 'svc-sandbox');
  child.stdout.resume();
  child.stderr.resume();
  return { child, urls: { test: match[1] } };
}
const base = sandbox.urls.test;
await limitsOff(base);
const { merchant } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Prof' } });
for (let i = 0; i < endpoints; i++) {
  await api(base, 'POST', `/sandbox/merchants/${merchant.id}/webhook-endpoints`, {
    body: { url: `http://127.0.0.1:${port}/hook?e=${i}`, events: ['deposit.received'] },
  });
}
const deposit = (txid) =>
  api(base, 'POST', '/sandbox/deposits', {
    body: { merchant_id: merchant.id, chain: 'tron', currency: 'USDT', amount: 1_000_000, txid },
  });
// Warm-up (JIT, undici's connections): a tenth of the load, not counted.
const run = async (prefix, n) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await deposit(`${prefix}-${next++}`);
    }),
  );
};
const waitFor = async (target) => {
  const end = Date.now() + 30_000;
  while (count < target && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
};
const warm = Math.ceil(deposits / 10);
await run('w', warm);
await waitFor(warm * endpoints);
count = 0;
/** wchar and syscw of /proc/<pid>/io: bytes passed to write calls, and how many calls. */
const writes = (pid) => {
  try {
    const io = Object.fromEntries(
      readFileSync(`/proc/${pid}/io`, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(': ')),
    );
    return { bytes: Number(io.wchar), calls: Number(io.syscw) };
  } catch {
    return null;
  }
};
const cpuBefore = cpuSeconds(sandbox.child.pid);
const writesBefore = writes(sandbox.child.pid);
const started = performance.now();
await run('p', deposits);
const callsMs = performance.now() - started;
await waitFor(deposits * endpoints);
const ms = performance.now() - started;
const cpu = cpuSeconds(sandbox.child.pid) - cpuBefore;
const writesAfter = writes(sandbox.child.pid);
const delivered = count;
process.stdout.write(
  `webhooks: ${delivered}/${deposits * endpoints} delivered in ${ms.toFixed(0)} ms (calls done at ${callsMs.toFixed(0)} ms): ` +
    `${((delivered / ms) * 1000).toFixed(0)} deliveries/s, sandbox CPU ${((cpu * 1e6) / delivered).toFixed(0)} µs/delivery ` +
    `(${((cpu * 1e6) / deposits).toFixed(0)} µs/deposit call)` +
    (writesBefore && writesAfter
      ? `, writes ${((writesAfter.bytes - writesBefore.bytes) / delivered).toFixed(0)} B and ` +
        `${((writesAfter.calls - writesBefore.calls) / delivered).toFixed(2)} calls/delivery`
      : '') +
    '\n',
);
await stop(sandbox.child, 10_000);
server.closeAllConnections();
server.close();
if (!values['no-prof']) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  process.stdout.write(
    execFileSync(
      process.execPath,
      [join(ROOT, 'bench/tools/cpuprofile-top.js'), join(dir, files[0]), '--top', values.top],
      { encoding: 'utf8' },
    ),
  );
}
killAll();
