// Where a sandbox's resident memory is, after growing to N checkouts over HTTP and resting 3 s:
// /proc/<pid>/smaps grouped by mapping ([anon]: V8's heap and other threads' malloc arenas; [heap]:
// the main thread's malloc, SQLite's page cache among it; node: the binary's code and data).
//
//   node bench/tools/rss-map.js [--checkouts 1000]
//   RSS_NODE_ARGS="--max-semi-space-size=2 --trace-gc" node bench/tools/rss-map.js   (flags to try)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { api, installCleanup, killAll, limitsOff, load, rssMb, startSandbox, stop, tempDir } from '../lib.js';

const { values } = parseArgs({ options: { checkouts: { type: 'string', default: '1000' } } });
installCleanup(300_000);
const nodeArgs = (process.env.RSS_NODE_ARGS ?? '').split(' ').filter(Boolean);
const sandbox = await startSandbox({ dbPath: join(tempDir(), 'rss.db'), nodeArgs });
const pid = sandbox.child.pid;
/** With RSS_NODE_ARGS=--trace-gc, the last collections V8 reported (heap sizes in MB). */
const gcLines = [];
sandbox.child.stdout.on('data', (chunk) => {
  for (const line of String(chunk).split('\n')) {
    if (!/(Scavenge|Mark-Compact|Mark-sweep)/.test(line)) continue;
    gcLines.push(line.replace(/^\[\d+:0x[0-9a-f]+\]\s*/, ''));
    if (gcLines.length > 4) gcLines.shift();
  }
});
const base = sandbox.urls.test;
process.stdout.write(`ready: RSS ${rssMb(pid).toFixed(0)} MB\n`);
await limitsOff(base);
const { api_key } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Rss' } });
const headers = { authorization: `Bearer ${api_key.key}`, 'content-type': 'application/json' };
const expires_at = new Date(Date.now() + 25 * 86_400_000).toISOString();
await load(
  {
    url: `${base}/v1/checkouts`,
    method: 'POST',
    headers,
    bodyTemplate: JSON.stringify({ title: 'Rss {{seq}}', amount: 5_000_000, expires_at }),
    connections: 10,
    amount: Number(values.checkouts),
  },
  { timeoutMs: 240_000 },
);
process.stdout.write(`after ${values.checkouts} creates: RSS ${rssMb(pid).toFixed(0)} MB\n`);
await new Promise((resolve) => setTimeout(resolve, 3_000));
const groups = new Map();
let current = '';
for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
  const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
  if (head) {
    current = head[1] || '[anon]';
    continue;
  }
  const rss = /^Rss:\s+(\d+) kB/.exec(line);
  if (rss) groups.set(current, (groups.get(current) ?? 0) + Number(rss[1]));
}
process.stdout.write(`at rest: RSS ${rssMb(pid).toFixed(0)} MB\n`);
for (const [name, kb] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 12))
  process.stdout.write(`  ${(kb / 1024).toFixed(1).padStart(7)} MB  ${name.replace(/^.*\//, '')}\n`);
for (const line of gcLines) process.stdout.write(`  gc: ${line.slice(0, 110)}\n`);
await stop(sandbox.child, 10_000);
killAll();
