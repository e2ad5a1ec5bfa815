import { join } from 'node:path';
import { checkoutLoads, installCleanup, killAll, load, startSandbox, stop, tempDir } from '../lib.js';
installCleanup(200_000);
const sandbox = await startSandbox({ dbPath: join(tempDir(), 'cyc.db'), nodeArgs: ['--trace-gc'] });
let scav = 0;
sandbox.child.stdout.on('data', (c) => { scav += (String(c).match(/Scavenge/g) ?? []).length; });
const { specs } = await checkoutLoads(sandbox.urls.test, { name: 'Cyc', duration: 4 });
await load({ ...specs.post, duration: 4, warmup: undefined }, { serverPid: sandbox.child.pid });
await load({ ...specs.get, duration: 3, warmup: undefined }, { serverPid: sandbox.child.pid });
const out = [];
for (let i = 0; i < 4; i++) {
  const s0 = scav;
  const p = await load({ ...specs.post, warmup: undefined }, { serverPid: sandbox.child.pid });
  const s1 = scav;
  const g = await load({ ...specs.get, warmup: undefined }, { serverPid: sandbox.child.pid });
  out.push(`POST ${p.server_cpu_us_per_req.toFixed(0)} µs (${s1 - s0} scavenges), GET ${g.server_cpu_us_per_req.toFixed(0)} µs (${scav - s1} scavenges)`);
  await new Promise((r) => setTimeout(r, i % 2 === 0 ? 3000 : 100));
}
console.log(out.join('\n'));
await stop(sandbox.child, 10_000);
killAll();
