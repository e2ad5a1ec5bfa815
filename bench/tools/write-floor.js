// What a checkout create and read cost the sandbox against their floor (bench/write-floor-server.js:
// Fastify and the same SQLite writes, nothing else), under the same load, in alternating rounds.
//
//   node bench/tools/write-floor.js [--rounds 3] [--duration 4]
//
// Each server first runs each load 3 s unmeasured (V8's tiering); then the rounds alternate floor,
// sandbox, floor, sandbox… and each prints the server's whole-process CPU per request.
// FLOOR_NO_DB=1 runs the floor without SQLite: what HTTP, validation and JSON alone cost.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  checkoutLoads,
  installCleanup,
  killAll,
  load,
  median,
  startSandbox,
  startWriteFloor,
  stop,
  tempDir,
} from '../lib.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, duration: { type: 'string', default: '4' } },
});
const rounds = Number(values.rounds);
const duration = Number(values.duration);
installCleanup(30_000 + rounds * 4 * (duration + 2) * 1000 + 30_000);

const sandbox = await startSandbox({ dbPath: join(tempDir(), 'floor-sandbox.db') });
const { specs } = await checkoutLoads(sandbox.urls.test, { name: 'Floor', duration });
const floor = await startWriteFloor();

const servers = {
  floor: {
    pid: floor.child.pid,
    get: {
      ...specs.get,
      url: `${floor.url}/v1/checkouts/${floor.checkoutId}`,
      headers: floor.headers,
      warmup: undefined,
    },
    post: {
      ...specs.post,
      url: `${floor.url}/v1/checkouts`,
      headers: { ...floor.headers, 'content-type': 'application/json' },
      warmup: undefined,
    },
  },
  sandbox: {
    pid: sandbox.child.pid,
    get: { ...specs.get, warmup: undefined },
    post: { ...specs.post, warmup: undefined },
  },
};
for (const server of Object.values(servers))
  for (const route of ['post', 'get'])
    await load({ ...server[route], duration: 3 }, { serverPid: server.pid });

const results = { floor: { get: [], post: [] }, sandbox: { get: [], post: [] } };
for (let round = 0; round < rounds; round++) {
  for (const route of ['post', 'get']) {
    for (const name of ['floor', 'sandbox']) {
      const r = await load(servers[name][route], { serverPid: servers[name].pid });
      if (r.non2xx || r.errors) throw new Error(`${name} ${route}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      results[name][route].push({ rps: r.rps, cpu: r.server_cpu_us_per_req });
    }
  }
}
for (const route of ['post', 'get']) {
  const line = (name) => {
    const rows = results[name][route];
    return `${name} ${median(rows.map((r) => r.cpu)).toFixed(0)} µs CPU/req (${rows.map((r) => r.cpu.toFixed(0)).join(', ')}), ${median(rows.map((r) => r.rps)).toFixed(0)} req/s`;
  };
  const ratio =
    median(results.sandbox[route].map((r) => r.cpu)) / median(results.floor[route].map((r) => r.cpu));
  process.stdout.write(
    `${route.toUpperCase()}: ${line('floor')}; ${line('sandbox')}; sandbox/floor ${ratio.toFixed(2)}\n`,
  );
}
await stop(floor.child, 5_000);
await stop(sandbox.child, 10_000);
killAll();
